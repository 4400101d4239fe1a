"""Attacks on the sandbox, each run for real in a sandboxed Blender job: what a job must not reach past itself."""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bpywright.harness.job import copy_outputs
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.harness.renders import PNG_SIGNATURE, RenderRejected, check_png
from bpywright.harness.seccomp import _libseccomp
from bpywright.harness.summary import escape_controls, one_line, render_summary

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.blender]

# A script can find its own job (id, paths) in the harness's frames: the best forger there is.
STEAL_JOB = """
import sys
job = next(f.f_locals["job"] for f in (sys._getframe(i) for i in range(1, 12)) if "job" in f.f_locals)
"""

RAW_SYSCALL = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(nr, *args):
    if libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) for a in args]) < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
"""


def test_a_job_cannot_take_over_pid_1_and_the_next_job_is_reported_truly(pool: WorkerPool) -> None:
    # bubblewrap's own init was pid 1: traceable by the job, and out of reach of the zygote's kill(-1).
    attack = pool.run(
        source=(
            RAW_SYSCALL
            + "print(open('/proc/1/cmdline', 'rb').read().replace(b'\\0', b' ').decode())\n"
            + "call(ptrace_nr, 16, 1, 0, 0)  # PTRACE_ATTACH to pid 1\n"
            + "print('attached')\n"
        ).replace("ptrace_nr", str(_nr("ptrace")))
    )
    assert "attached" not in attack.stdout
    assert "--serve" in attack.stdout  # pid 1 is the zygote itself (non-dumpable), not a traceable reaper
    assert attack.status == "rejected" and attack.exception is not None and "Operation not permitted" in attack.exception.message
    victim = pool.run(source="print('b ran')\nraise ValueError('b fails')\n")
    assert victim.status == "error" and victim.exception is not None and victim.exception.type == "ValueError"
    assert victim.stdout.strip() == "b ran"


def test_a_job_cannot_trace_a_process_it_did_not_start(pool: WorkerPool) -> None:
    report = pool.run(source=RAW_SYSCALL + f"import os\ncall({_nr('ptrace')}, 16, os.getppid(), 0, 0)\nprint('attached')\n")
    assert report.status == "rejected" and "attached" not in report.stdout


def _nr(name: str) -> int:
    lib = _libseccomp()
    assert lib is not None, "libseccomp.so.2 is needed for the sandbox's filter"
    nr = lib.seccomp_syscall_resolve_name(name.encode())
    assert nr >= 0, name
    return nr


def test_nested_user_namespace_is_refused(pool: WorkerPool) -> None:
    report = pool.run(
        source="import ctypes, os\nlibc = ctypes.CDLL(None, use_errno=True)\nassert libc.unshare(0x10000000) != 0\n"
        "raise OSError(ctypes.get_errno(), 'unshare(CLONE_NEWUSER) refused')\n"
    )
    assert report.status == "rejected"
    tool = pool.run(
        source="import subprocess\nr = subprocess.run(['unshare', '-U', 'id'], capture_output=True, text=True)\n"
        "print(r.returncode, r.stdout, r.stderr)\nassert r.returncode != 0\n"
    )
    assert tool.status == "ok" and "uid=" not in tool.stdout


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("process_vm_readv", "os.getpid(), 0, 0, 0, 0, 0"),  # on itself: allowed without the filter
        ("keyctl", "0, -3, 0"),  # KEYCTL_GET_KEYRING_ID of the session keyring
        ("unshare", "0x00000400"),  # CLONE_FS: harmless, and refused all the same (no unshare at all)
        ("clone", "0x10000000 | 17, 0, 0, 0, 0"),  # CLONE_NEWUSER | SIGCHLD
        ("io_uring_setup", "1, 0"),
        ("personality", "0xffffffff"),
    ],
)
def test_denied_syscalls_fail_with_eperm(pool: WorkerPool, name: str, args: str) -> None:
    report = pool.run(source=RAW_SYSCALL + f"import os\ncall({_nr(name)}, {args})\nprint('allowed')\n")
    assert report.status == "rejected", (report.status, report.exception)
    assert report.exception is not None and "Operation not permitted" in report.exception.message
    assert "allowed" not in report.stdout


def test_threads_and_subprocesses_still_work_under_the_filter(pool: WorkerPool) -> None:
    source = (
        "import subprocess, threading\n"
        "out = []\n"
        "t = threading.Thread(target=lambda: out.append('thread'))\n"
        "t.start(); t.join()\n"
        "out.append(subprocess.run(['echo', 'child'], capture_output=True, text=True).stdout.strip())\n"
        "print(' '.join(out))\n"
    )
    report = pool.run(source=source)
    assert report.status == "ok" and report.stdout.strip() == "thread child"


def test_deep_report_json_is_a_crash_with_the_reason(pool: WorkerPool) -> None:
    report = pool.run(source="import os\nopen('../report.json', 'w').write('[' * 100000 + ']' * 100000)\nos._exit(0)\n")
    assert report.status == "crash" and report.exception is not None
    assert "nested too deeply" in report.exception.message
    assert pool.run(source="print('next')\n").stdout.strip() == "next"


def test_report_json_in_another_encoding_is_a_crash_with_the_reason(pool: WorkerPool) -> None:
    report = pool.run(source="import os\nopen('../report.json', 'wb').write(b'{\"a\": \"\\xff\\xfe\"}')\nos._exit(0)\n")
    assert report.status == "crash" and report.exception is not None and "not UTF-8" in report.exception.message


def _png_bomb(side: int) -> bytes:
    """A grey PNG of side² pixels that compresses to well under a megabyte."""
    ihdr = side.to_bytes(4, "big") * 2 + bytes([8, 0, 0, 0, 0])
    comp = zlib.compressobj(9)
    row = b"\0" * (side + 1)
    body = b"".join(comp.compress(row) for _ in range(side)) + comp.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    return PNG_SIGNATURE + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def test_png_bomb_is_refused_from_its_header() -> None:
    bomb = _png_bomb(13000)
    assert len(bomb) < 1_000_000
    with pytest.raises(RenderRejected, match="declares 13000x13000"):
        check_png(bomb, 512, 512)
    with pytest.raises(RenderRejected, match="declares 13000x13000"):  # even when a (forged) report claims that size
        check_png(bomb, 13000, 13000)


def test_png_bomb_left_by_a_job_is_not_decoded(pool: WorkerPool, tmp_path: Path) -> None:
    bomb_maker = (
        "import zlib\n"
        "def chunk(kind, data):\n"
        "    return len(data).to_bytes(4, 'big') + kind + data + zlib.crc32(kind + data).to_bytes(4, 'big')\n"
        "comp = zlib.compressobj(9)\n"
        "body = b''.join(comp.compress(b'\\0' * 13001) for _ in range(13000)) + comp.flush()\n"
        "png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', (13000).to_bytes(4, 'big') * 2 + bytes([8, 0, 0, 0, 0]))\n"
        "png += chunk(b'IDAT', body) + chunk(b'IEND', b'')\n"
        "open(job['render_path'], 'wb').write(png)\n"
    )
    forge = (
        "import json, os\n"
        "forged = {'job_id': job['job_id'], 'schema_version': 1, 'status': 'ok', 'backend': 'bpy-module', 'sandbox': 'bwrap',\n"
        "          'render': {'path': job['render_path'], 'width': 13000, 'height': 13000, 'engine': 'X'}}\n"
        "json.dump(forged, open(job['report_path'], 'w'))\n"
        "os._exit(0)\n"
    )
    options = RunOptions(render=True, resolution=64, timeout=60)
    report = pool.run(source=STEAL_JOB + bomb_maker + forge, options=options, render_to=tmp_path / "out.png")
    assert report.render is None and not (tmp_path / "out.png").exists()
    assert report.status == "error" and report.exception is not None and "declares 13000x13000" in report.exception.message


def test_outputs_copy_never_follows_a_link_already_in_the_destination(pool: WorkerPool, tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    dest = tmp_path / "outputs"
    dest.mkdir()
    (dest / "sub").symlink_to(victim)  # e.g. committed in the repository being checked
    (dest / "top.txt").symlink_to(victim / "top.txt")
    source = "import os\nos.makedirs('sub', exist_ok=True)\nopen('sub/planted.txt', 'w').write('x')\nopen('top.txt', 'w').write('y')\n"
    report = pool.run(source=source, outputs_to=dest)
    assert report.status == "ok"
    assert list(victim.iterdir()) == []
    assert "sub" in report.stderr and "outputs not copied" in report.stderr
    assert (dest / "top.txt").read_text() == "y" and not (dest / "top.txt").is_symlink()  # the link replaced, not followed


def test_deep_long_named_outputs_are_reported_never_raised(pool: WorkerPool, tmp_path: Path) -> None:
    source = (
        "import os\n"
        "fd = os.open('.', os.O_RDONLY)\n"
        "for i in range(40):\n"
        "    name = ('d%02d' % i) + 'x' * 200\n"
        "    os.mkdir(name, dir_fd=fd)\n"
        "    new = os.open(name, os.O_RDONLY, dir_fd=fd)\n"
        "    os.close(fd)\n"
        "    fd = new\n"
        "    with open(os.open('f.txt', os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), 'w') as fh:\n"
        "        fh.write(str(i))\n"
    )
    dest = tmp_path / "outputs"
    report = pool.run(source=source, outputs_to=dest)
    assert report.status == "ok", report.exception
    assert "deeper than" in report.stderr
    assert (dest / ("d00" + "x" * 200) / "f.txt").read_text() == "0"


def test_copy_outputs_reports_an_unreadable_source(tmp_path: Path) -> None:
    assert copy_outputs(tmp_path / "missing", tmp_path / "dest", 1000)  # reported, not raised


@pytest.mark.parametrize(
    "attack",
    [
        "\x1b[2K\r\x1b[32m✔ ok\x1b[0m",  # a fake green verdict over the real one
        "\x1b]52;c;ZWNobyBwd25lZA==\x07",  # OSC 52: write the clipboard
        "\x1b]0;owned\x07",  # set the window title
        "\u202egnp.exe",  # a bidi override
    ],
)
def test_terminal_escapes_in_a_scripts_text_are_printed_escaped(pool: WorkerPool, attack: str) -> None:
    report = pool.run(source=f"print({attack!r})\nraise ValueError({attack!r})\n")
    assert report.status == "error"
    for text in (render_summary(report, "s.py"), one_line(report, "s.py")):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\x1b" in escape_controls(attack) or "\\u202e" in escape_controls(attack)


def test_seccomp_filter_is_the_one_bwrap_loads() -> None:
    from bpywright.harness.sandbox import Limits, SandboxView, sandbox_command

    cmd = sandbox_command(["true"], SandboxView(writable=Path("/tmp")), use_bwrap=True, limits=Limits())
    try:
        assert "--seccomp" in cmd.argv and "--as-pid-1" in cmd.argv
        fd = int(cmd.argv[cmd.argv.index("--seccomp") + 1])
        assert fd in cmd.inherited_fds and os.fstat(fd).st_size > 0
    finally:
        cmd.cleanup()


def test_report_files_written_as_json_still_work(pool: WorkerPool) -> None:
    report = pool.run(source="import json\nprint(json.dumps({'a': [1, 2]}))\n")
    assert report.status == "ok" and json.loads(report.stdout) == {"a": [1, 2]}


@pytest.fixture(scope="module")
def small() -> Iterator[WorkerPool]:
    """One warm worker with small aggregate caps: 1.5 GB for all its processes, a 20 MB job dir."""
    with WorkerPool(1, RunOptions(render=False, timeout=60, memory_mb=1536, disk_mb=20)) as p:
        yield p


def test_unlinked_but_open_files_count_against_the_disk_quota(small: WorkerPool) -> None:
    source = (
        "import os\n"
        "held = []\n"
        "for i in range(6):\n"
        "    fh = open(f'big{i}.bin', 'wb')\n"
        "    os.unlink(f'big{i}.bin')\n"
        "    fh.write(b'x' * (8 << 20))\n"
        "    fh.flush()\n"
        "    held.append(fh)\n"
        "print('held', len(held) * 8, 'MB')\n"
    )
    report = small.run(source=source)
    assert report.status == "rejected" and "held 48 MB" not in report.stdout
    assert report.exception is not None and ("No space left" in report.exception.message or "quota" in report.exception.message)
    assert small.run(source="open('f.txt', 'w').write('fits')\nprint('next')\n").stdout.strip() == "next"


def test_memory_spread_over_children_is_capped_for_the_whole_job(small: WorkerPool) -> None:
    from bpywright.harness.sandbox import PidsCgroup

    probe = PidsCgroup.create(16, 1 << 30)
    if probe is None or probe.memory is None:
        if probe is not None:
            probe.remove()
        pytest.fail("no writable memory cgroup here: the aggregate memory cap cannot be tested (doctor says so too)")
    probe.remove()
    source = (
        "import os, time\n"
        "kids = []\n"
        "for i in range(5):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        block = b'\\1' * (300 << 20)  # each well under the per-process limit\n"
        "        time.sleep(4)\n"
        "        os._exit(0)\n"
        "    kids.append(pid)\n"
        "codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in kids]\n"
        "print('codes', codes)\n"
    )
    report = small.run(source=source)
    assert "codes [0, 0, 0, 0, 0]" not in report.stdout
    assert report.status == "rejected" and report.exception is not None and "memory limit" in report.exception.message
    assert small.run(source="print('next')\n").stdout.strip() == "next"


def test_a_script_in_tmp_itself_is_refused_its_default_root(tmp_path: Path) -> None:
    import tempfile

    from bpywright.harness.job import RootError, script_input

    loose = Path(tempfile.gettempdir()) / f"bpywright-test-{os.getpid()}.py"
    loose.write_text("print('hi')\n")
    try:
        with pytest.raises(RootError, match="--root"):
            script_input(loose, None, None, RunOptions())
        given = script_input(loose, None, None, RunOptions(root=loose.parent))  # asked for: the caller's choice
        assert given.root == loose.parent.resolve()
    finally:
        loose.unlink()
    with pytest.raises(RootError, match="home folder"):
        script_input(None, "print(1)\n", Path.home() / "x.py", RunOptions())


def test_the_data_dir_under_a_project_root_is_masked(pool: WorkerPool, tmp_path: Path, monkeypatch) -> None:
    project = tmp_path / "proj"
    data = project / "artifacts"
    data.mkdir(parents=True)
    (data / "api_token").write_text("s3cret")
    (project / "README").write_text("visible")
    script = project / "peek.py"
    script.write_text(
        f"import os\nprint(open(os.path.join(os.path.dirname(__file__), 'README')).read())\nprint(sorted(os.listdir({str(data)!r})))\n"
    )
    monkeypatch.setenv("BPYWRIGHT_ARTIFACTS", str(data))
    report = pool.run(script)
    assert report.status == "ok", report.exception
    assert "visible" in report.stdout and "api_token" not in report.stdout and "[]" in report.stdout


def test_limits_come_from_the_environment_and_doctor_says_which_apply(monkeypatch, tmp_path: Path) -> None:
    from bpywright.config import Settings
    from bpywright.doctor import check_sandbox

    monkeypatch.chdir(tmp_path)  # no [tool.bpywright] above: the variables and the defaults only
    monkeypatch.setenv("BPYWRIGHT_MEMORY_MB", "2048")
    monkeypatch.setenv("BPYWRIGHT_DISK_MB", "64")
    settings = Settings.from_env()
    options = RunOptions(**settings.run_limits())
    assert options.memory_mb == 2048 and options.disk_mb == 64 and options.timeout == 60
    check = check_sandbox(settings)
    assert "memory ≤ 2048 MB" in check.detail and "job dir ≤ 64 MB" in check.detail and "seccomp on" in check.detail
    assert "memory_mb=2048 (BPYWRIGHT_MEMORY_MB)" in check.detail and "tmp_mb=256 (default)" in check.detail
    assert RunOptions().memory_mb == 6144  # below the front doors nothing reads the environment
    monkeypatch.setenv("BPYWRIGHT_MEMORY_MB", "lots")
    with pytest.raises(ValueError, match="BPYWRIGHT_MEMORY_MB"):
        Settings.from_env()


def test_limits_come_from_the_config_file_and_the_variable_wins(monkeypatch, tmp_path: Path) -> None:
    from bpywright.check.project_config import load_config
    from bpywright.config import Settings
    from bpywright.doctor import check_sandbox

    (tmp_path / ".git").mkdir()
    config = tmp_path / "pyproject.toml"
    config.write_text("[tool.bpywright]\nmemory-mb = 3072\ndisk_mb = 128\ntimeout = 90\nmax_processes = 32\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    monkeypatch.setenv("BPYWRIGHT_DISK_MB", "48")
    for name in ("BPYWRIGHT_MEMORY_MB", "BPYWRIGHT_TIMEOUT", "BPYWRIGHT_MAX_PROCESSES", "BPYWRIGHT_TMP_MB"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings.from_env()
    limits = settings.run_limits()
    assert limits["memory_mb"] == 3072 and limits["disk_mb"] == 48 and limits["timeout"] == 90.0 and limits["max_processes"] == 32
    assert settings.limit_source("memory_mb") == f"{config} [tool.bpywright] memory_mb"
    assert settings.limit_source("disk_mb") == "BPYWRIGHT_DISK_MB" and settings.limit_source("tmp_mb") == "default"
    detail = check_sandbox(settings).detail
    assert "memory ≤ 3072 MB" in detail and f"memory_mb=3072 ({config} [tool.bpywright] memory_mb)" in detail
    assert "timeout 90 s" in detail and "processes ≤ 32" in detail
    assert load_config(config).memory_mb == 3072  # `bpywright check` accepts the same table
    from bpywright.check.command import _limits
    from bpywright.check.project_config import CheckConfig

    checked = _limits(settings, CheckConfig(memory_mb=1024, disk_mb=16))  # the checked project's own file, found from its scripts
    # under `check` the project may lower the operator's ceilings (the variable's 48), never raise them: a config file
    # found from the working directory is the checked tree's too, so its 90 s is capped at the operator's default 60 s
    assert checked["memory_mb"] == 1024 and checked["disk_mb"] == 16 and checked["timeout"] == 60.0
    from types import SimpleNamespace

    from bpywright.service.work import _options

    pool = SimpleNamespace(options=RunOptions(**limits))  # the service's pool is opened with the settings' limits
    assert _options(pool, render=False, timeout=None).timeout == 90.0  # type: ignore[arg-type]  # a request without one
    assert _options(pool, render=False, timeout=5).timeout == 5  # type: ignore[arg-type]
    config.write_text("[tool.bpywright]\nmemory_mb = -5\n")
    with pytest.raises(ValueError, match="memory_mb"):
        Settings.from_env()


def test_pid_1_takeover_through_the_cli_batch_on_one_worker(tmp_path: Path) -> None:
    import subprocess
    import sys

    attack = tmp_path / "a.py"
    attack.write_text(RAW_SYSCALL + f"call({_nr('ptrace')}, 16, 1, 0, 0)\nprint('attached')\n", encoding="utf-8")
    victim = tmp_path / "b.py"
    victim.write_text("print('b-secret')\nraise ValueError('b fails')\n", encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "bpywright", "run", str(attack), str(victim), "-j", "1", "--no-render", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    reports = {Path(r["script_path"]).name: r for r in json.loads(proc.stdout)}
    assert reports["a.py"]["status"] == "rejected" and "attached" not in reports["a.py"]["stdout"]
    assert reports["b.py"]["status"] == "error" and reports["b.py"]["exception"]["type"] == "ValueError"
    assert reports["b.py"]["stdout"].strip() == "b-secret" and proc.returncode == 1


def test_root_only_files_in_a_jobs_view_stay_unreadable_and_homes_unlisted(pool: WorkerPool, tmp_path: Path) -> None:
    # The sandbox uid 65534 was host root when bpywright ran as root: a 0600 root file in the project was readable.
    from bpywright.harness.sandbox import job_uid_status

    if os.geteuid() != 0:
        pytest.skip("not root: the job's uid is already this unprivileged user's")
    safe, detail = job_uid_status()
    assert safe and "host uid 65534" in detail, detail
    project = tmp_path / "proj"
    project.mkdir(mode=0o755)
    project.chmod(0o755)  # umask-proof: what the job may read of its project is what any user may
    secret = project / "key.pem"
    secret.write_text("root-only-secret")
    secret.chmod(0o600)
    (project / "notes.txt").write_text("shared")
    (project / "notes.txt").chmod(0o644)
    script = project / "peek.py"
    script.write_text(
        "import os\n"
        "here = os.path.dirname(__file__)\n"
        "print('uid', os.getuid(), 'groups', os.getgroups())\n"
        "print(open(os.path.join(here, 'notes.txt')).read())\n"
        "for path in ('/root', os.path.dirname(os.path.dirname(here))):\n"
        "    try:\n"
        "        print('listed', path, os.listdir(path))\n"
        "    except PermissionError:\n"
        "        print('unlisted', path)\n"
        "os.makedirs('made', exist_ok=True)\n"
        "open('made/by_job.txt', 'w').write('kept')\n"
        "print(open(os.path.join(here, 'key.pem')).read())\n"
    )
    outputs = tmp_path / "outputs"
    report = pool.run(script, RunOptions(render=False, timeout=30, root=project), outputs_to=outputs)
    assert "root-only-secret" not in report.model_dump_json()
    assert report.status == "rejected" and report.exception is not None and report.exception.type == "PermissionError"
    assert "uid 65534 groups []" in report.stdout and "shared" in report.stdout
    assert "unlisted /root" in report.stdout and "listed" not in report.stdout.replace("unlisted", "")
    assert (outputs / "made" / "by_job.txt").read_text() == "kept"  # what the job wrote is still collected
    assert pool.run(source="print('next')\n").stdout.strip() == "next"


def test_where_root_cannot_make_its_own_user_namespace_doctor_says_the_fallback(monkeypatch) -> None:
    from bpywright.config import Settings
    from bpywright.doctor import check_sandbox
    from bpywright.harness import sandbox
    from bpywright.harness.sandbox import Limits, SandboxView, job_uid_status, sandbox_command

    if os.geteuid() != 0:
        assert job_uid_status()[0] and "your uid" in job_uid_status()[1]
        return
    own = sandbox.sandbox_command(["true"], SandboxView(writable=Path("/tmp")), use_bwrap=True, limits=Limits())
    try:
        assert "--userns" in own.argv and "--unshare-user" not in own.argv and own.job_owner == (65534, 65534)
    finally:
        own.cleanup()
    monkeypatch.setattr(sandbox, "_own_userns", lambda bwrap: "unshare(CLONE_NEWUSER) was refused in the helper")
    safe, detail = job_uid_status()
    assert not safe and detail.startswith("FALLBACK") and "host root" in detail
    check = check_sandbox(Settings())
    assert check.state == "warn" and "FALLBACK" in check.detail
    cmd = sandbox_command(["true"], SandboxView(writable=Path("/tmp")), use_bwrap=True, limits=Limits())
    try:
        assert "--userns" not in cmd.argv and "--disable-userns" in cmd.argv and cmd.job_owner is None
    finally:
        cmd.cleanup()


def test_only_folders_bwrap_made_are_chmodded_never_a_bound_host_folder() -> None:
    from bpywright.harness.sandbox import _traverse_only

    readable = [Path("/root/.pyenv/versions/3.11.7"), Path("/work/main/.venv"), Path("/work/wt/x"), Path("/work/wt/x/artifacts/rt")]
    args = _traverse_only(readable, Path("/tmp/bpywright-0/w1-0-abc"))
    chmodded = [Path(args[i + 2]) for i in range(0, len(args), 3)]
    assert all(args[i : i + 2] == ["--chmod", "0111"] for i in range(0, len(args), 3))
    assert set(chmodded) == {
        Path(p) for p in ("/root", "/root/.pyenv", "/root/.pyenv/versions", "/work", "/work/main", "/work/wt", "/tmp/bpywright-0")
    }
    assert not any(c.is_relative_to(r) for c in chmodded for r in readable)  # inside a bind: the host's own folder


def test_a_job_is_given_input_files_in_its_working_directory_under_plain_names_only(pool: WorkerPool, tmp_path: Path) -> None:
    source = "import os\nprint(sorted(os.listdir('.')), open('given.bin', 'rb').read())\nopen('given.bin', 'ab').write(b'+')\n"
    report = pool.run(source=source, inputs={"given.bin": b"\x00payload"}, outputs_to=tmp_path / "out")
    assert report.status == "ok", report.exception
    assert report.stdout.strip() == "['given.bin'] b'\\x00payload'"
    assert (tmp_path / "out" / "given.bin").read_bytes() == b"\x00payload+"  # the job's copy, not the caller's bytes
    # the next job on the same worker starts without it
    assert pool.run(source="import os\nprint(os.listdir('.'))\n").stdout.strip() == "[]"
    for name in ("../escape.py", "/etc/passwd", "sub/file", ".hidden", ""):
        with pytest.raises(ValueError, match="plain file name"):
            pool.run(source="pass\n", inputs={name: b"x"})
