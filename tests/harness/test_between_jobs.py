"""A job leaves nothing to the next one on the same warm worker: each attack runs as job A, then job B checks it is
unaffected (same worker: the pool started no other), whatever modes, IPC objects or signals A used."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.harness.seccomp import _libseccomp

pytestmark = [pytest.mark.blender, pytest.mark.usefixtures("bwrap")]

SYSV = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
IPC_CREAT = 0o1000
def check(value, what):
    if value == -1 or value == ctypes.c_void_p(-1).value:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return value
"""


def _warm(pool: WorkerPool) -> int:
    """Run a first job (the worker starts), and return how many workers the pool has started."""
    assert pool.run(source="pass\n").status == "ok"
    return pool.workers_started


@pytest.fixture(scope="module")
def render_pool() -> Iterator[WorkerPool]:
    """One warm worker that renders with workbench: its zygote keeps the shader cache template."""
    with WorkerPool(1, RunOptions(render=True, engine="workbench", resolution=64, timeout=90)) as p:
        yield p


@pytest.fixture(scope="module")
def memory_pool() -> Iterator[WorkerPool]:
    """One warm worker whose processes together may use 2048 MB (the memory cgroup)."""
    with WorkerPool(1, RunOptions(render=False, timeout=90, memory_mb=2048)) as p:
        yield p


def test_a_rewritten_read_only_shader_cache_is_not_the_next_render_s(render_pool: WorkerPool, tmp_path: Path) -> None:
    first = render_pool.run(source="import bpy\nbpy.ops.mesh.primitive_cube_add()\n", render_to=tmp_path / "first.png")
    assert first.status == "ok" and first.render is not None
    started = _warm(render_pool)
    attack = render_pool.run(
        source=(
            "import os\n"
            "CACHE = '/tmp/.bpywright-shader-cache'\n"
            "rewritten = 0\n"
            "for folder, dirs, files in os.walk(CACHE, topdown=False):\n"
            "    for name in files:\n"
            "        path = os.path.join(folder, name)\n"
            "        size = os.path.getsize(path)\n"
            "        with open(path, 'r+b') as fh:\n"
            "            fh.write(b'\\xff' * max(size, 64))\n"
            "        os.chmod(path, 0o444)\n"
            "        rewritten += 1\n"
            "    os.chmod(folder, 0o555)\n"
            "print('rewritten', rewritten)\n"
        )
    )
    assert attack.status == "ok", attack.exception
    assert int(attack.stdout.split()[-1]) > 0  # the job saw the cache entries and rewrote them
    victim = render_pool.run(
        source=(
            "import bpy, os\n"
            "bpy.ops.mesh.primitive_cube_add()\n"
            "modes = {oct(os.stat(os.path.join(d, f)).st_mode & 0o777) for d, _, fs in os.walk('/tmp/.bpywright-shader-cache') for f in fs}\n"
            "print(sorted(modes))\n"
        ),
        render_to=tmp_path / "victim.png",
    )
    assert victim.status == "ok", (victim.status, victim.exit, victim.exception)
    assert victim.render is not None and (tmp_path / "victim.png").stat().st_size > 0
    assert victim.stdout.strip() == "['0o600']"  # a fresh copy of the zygote's own cache, not the attacker's
    assert render_pool.workers_started == started  # the same warm worker served both


def test_sysv_ipc_objects_of_one_job_are_gone_for_the_next(pool: WorkerPool) -> None:
    started = _warm(pool)
    attack = pool.run(
        source=SYSV
        + (
            "shm = check(libc.shmget(0x5EC, 4096, IPC_CREAT | 0o666), 'shmget')\n"
            "addr = check(libc.shmat(shm, None, 0), 'shmat')\n"
            "ctypes.memmove(addr, b'secret of job A', 15)\n"
            "check(libc.semget(0x5ED, 1, IPC_CREAT | 0o666), 'semget')\n"
            "check(libc.msgget(0x5EE, IPC_CREAT | 0o666), 'msgget')\n"
            "print('left', open('/proc/sysvipc/shm').read().count('\\n') - 1)\n"
        )
    )
    assert attack.status == "ok" and attack.stdout.strip() == "left 1", (attack.stdout, attack.exception)
    victim = pool.run(
        source=SYSV
        + (
            "found = [libc.shmget(0x5EC, 0, 0), libc.semget(0x5ED, 0, 0), libc.msgget(0x5EE, 0)]\n"
            "listed = [len(open(f'/proc/sysvipc/{k}').readlines()) - 1 for k in ('shm', 'sem', 'msg')]\n"
            "print(found, listed)\n"
        )
    )
    assert victim.status == "ok" and victim.stdout.strip() == "[-1, -1, -1] [0, 0, 0]", victim.stdout
    assert pool.workers_started == started


def test_shared_memory_segments_left_behind_do_not_count_against_the_next_job(memory_pool: WorkerPool) -> None:
    # The cap (2048 MB) bounds both the worker's processes together and each one's address space, of which Blender
    # itself takes over 1 GB: B holds 700 MB; A leaves 1400 MB of segments, filled one 200 MB piece at a time.
    big = "block = b'\\1' * (700 << 20)\nprint('held', len(block) >> 20)\n"
    started = _warm(memory_pool)
    alone = memory_pool.run(source=big)
    assert alone.status == "ok" and alone.stdout.strip() == "held 700", (alone.status, alone.exception)
    attack = memory_pool.run(
        source=SYSV
        + (
            "size = 200 << 20\n"
            "for key in range(0x600, 0x607):\n"
            "    shm = check(libc.shmget(key, size, IPC_CREAT | 0o600), 'shmget')\n"
            "    addr = check(libc.shmat(shm, None, 0), 'shmat')\n"
            "    ctypes.memset(addr, 1, size)\n"
            "    check(libc.shmdt(ctypes.c_void_p(addr)), 'shmdt')\n"
            "print('left', 7 * size >> 20)\n"
        )
    )
    assert attack.status == "ok" and attack.stdout.strip() == "left 1400", (attack.status, attack.exception)
    victim = memory_pool.run(source=big)
    assert victim.status == "ok" and victim.stdout.strip() == "held 700", (victim.status, victim.exception)
    assert memory_pool.workers_started == started


def test_read_only_folders_and_changed_modes_do_not_survive_the_wipe(pool: WorkerPool) -> None:
    started = _warm(pool)
    attack = pool.run(
        source=(
            "import os\n"
            "for top in ('/tmp', '/dev/shm'):\n"
            "    os.makedirs(f'{top}/keep/deeper')\n"
            "    with open(f'{top}/keep/deeper/fill.bin', 'wb') as fh:\n"
            "        fh.write(b'x' * (75 << 20))\n"
            "    os.chmod(f'{top}/keep/deeper/fill.bin', 0o400)\n"
            "    os.chmod(f'{top}/keep/deeper', 0o500)\n"
            "    os.chmod(f'{top}/keep', 0o000)\n"
            "    os.setxattr(top, 'user.note', b'for job B')\n"
            "    os.chmod(top, 0o555)\n"
            "os.setxattr(os.getcwd(), 'user.note', b'for job B')\n"
            "os.chmod(os.getcwd(), 0o500)\n"
            "print('done')\n"
        )
    )
    assert attack.status == "ok" and attack.stdout.strip() == "done", attack.exception
    # The job folder's own root (its tmpfs): unwritable, even this job's report cannot be written there.
    pool.run(source="import os\nroot = os.path.dirname(os.getcwd())\nos.setxattr(root, 'user.note', b'for B')\nos.chmod(root, 0o500)\n")
    victim = pool.run(
        source=(
            "import bpy, os, sys\n"
            "for top in ('/tmp', '/dev/shm'):\n"
            "    fs = os.statvfs(top)\n"
            "    free = fs.f_bavail * fs.f_frsize >> 20\n"
            "    own = (os.getcwd() + '/', os.path.normpath(bpy.app.tempdir) + '/')\n"
            "    mounted = os.path.realpath(sys.prefix) + '/'  # the sandbox's own mount of the venv (a checkout under /tmp)\n"
            "    names = [n for n in os.listdir(top) if not own[0].startswith(f'{top}/{n}/') and f'{top}/{n}/' != own[1]\n"
            "             and not mounted.startswith(f'{top}/{n}/')]\n"
            "    print(top, free, fs.f_blocks * fs.f_frsize >> 20, names, oct(os.stat(top).st_mode & 0o777), os.listxattr(top))\n"
            "print('job folders', [os.listxattr(p) for p in (os.getcwd(), os.path.dirname(os.getcwd()))])\n"
            "open('/tmp/mine', 'w').write('writable')\n"
        )
    )
    assert victim.status == "ok", (victim.stdout, victim.exception)
    lines = victim.stdout.strip().splitlines()
    for line in lines[:2]:
        top, free, total, rest = line.split(" ", 3)
        assert free == total, line  # B starts with all of it free
        assert rest == "[] 0o755 []", line
    assert lines[2] == "job folders [[], []]"
    assert pool.workers_started == started


def test_a_job_cannot_signal_pid_1_away(pool: WorkerPool) -> None:
    started = _warm(pool)
    attack = pool.run(
        source=(
            "import os, signal\n"
            "sent = []\n"
            "for sig in sorted(signal.valid_signals()):\n"
            "    try:\n"
            "        os.kill(1, sig)\n"
            "        sent.append(int(sig))\n"
            "    except OSError:\n"
            "        pass\n"
            "mask = int([l for l in open('/proc/1/status') if l.startswith('SigCgt:')][0].split()[1], 16)\n"
            "print([n for n in range(1, 65) if mask >> (n - 1) & 1 and n not in (32, 33)])  # glibc's own two aside\n"
            "print(len(sent))\n"
        )
    )
    handled, sent = attack.stdout.strip().split("\n")
    assert handled == "[]", handled  # pid 1 has no handler a signal could run
    assert attack.status == "ok" and int(sent) >= 60, (attack.stdout, attack.exception)  # SIGINT, SIGTERM, … all sent
    victim = pool.run(source="import os, signal\nprint('b ran')\nos.kill(os.getpid(), signal.SIGINT)\n")
    assert victim.stdout.strip() == "b ran"
    # The script's own SIGINT is Python's as ever (KeyboardInterrupt), only pid 1 keeps no handler.
    assert victim.status == "error" and victim.exception is not None and victim.exception.type == "KeyboardInterrupt"
    assert pool.workers_started == started


def _nr(name: str) -> int:
    lib = _libseccomp()
    assert lib is not None, "libseccomp.so.2 is needed for the sandbox's filter"
    nr = lib.seccomp_syscall_resolve_name(name.encode())
    assert nr >= 0, name
    return nr


# Each call with harmless arguments that succeed (or fail otherwise than EPERM) without the filter.
REFUSED_CALLS = {
    "memfd_secret": "0",
    "modify_ldt": "0, ctypes.addressof(buf), 16",  # read the LDT
    "set_mempolicy": "0, 0, 0",  # MPOL_DEFAULT
    "mbind": "ctypes.addressof(page), 4096, 0, 0, 0, 0",
    "mq_open": "ctypes.c_char_p(b'/bpywright-q'), os.O_CREAT | os.O_RDWR, 0o600, 0",
    "socket/AF_NETLINK": "16, 3, 0",  # NETLINK_ROUTE, SOCK_RAW
    "socket/AF_VSOCK": "40, 1, 0",
    "socket/AF_PACKET": "17, 2, 0",
    "socket/AF_BLUETOOTH": "31, 1, 0",
    "socket/AF_NETLINK|1<<32": "16 | (1 << 32), 3, 0",  # the kernel reads an int: the upper half is no way round
    "socketpair/AF_NETLINK": "16, 3, 0, ctypes.addressof(pair)",
}


def test_the_added_calls_and_socket_families_are_refused_in_every_thread(pool: WorkerPool) -> None:
    calls = {key: (_nr(key.split("/")[0]), args) for key, args in REFUSED_CALLS.items()}
    source = (
        "import ctypes, os, socket, threading\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.syscall.restype = ctypes.c_long\n"
        "buf = ctypes.create_string_buffer(16)\n"
        "page = ctypes.create_string_buffer(8192)\n"
        "pair = (ctypes.c_int * 2)()\n"
        f"CALLS = {calls!r}\n"
        "def attempt(where):\n"
        "    for key, (nr, args) in CALLS.items():\n"
        "        values = eval('(' + args + ',)')\n"
        "        ret = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(v) if isinstance(v, int) else v for v in values])\n"
        "        print(where, key, 'EPERM' if ret < 0 and ctypes.get_errno() == 1 else f'ret={ret} errno={ctypes.get_errno()}')\n"
        "attempt('main')\n"
        "t = threading.Thread(target=attempt, args=('thread',))\n"
        "t.start(); t.join()\n"
        "for family in (socket.AF_UNIX, socket.AF_INET, socket.AF_INET6):\n"
        "    socket.socket(family, socket.SOCK_STREAM).close()\n"
        "a, b = socket.socketpair(); a.close(); b.close()\n"
        "print('local and IP sockets open')\n"
        "print('getaddrinfo', len(socket.getaddrinfo('127.0.0.1', 80, flags=socket.AI_ADDRCONFIG)) > 0)  # netlink refused\n"
        "tasks = [f'/proc/{p}/task/{t}/status' for p in (1, os.getpid()) for t in os.listdir(f'/proc/{p}/task')]\n"
        "modes = {[l for l in open(s) if l.startswith('Seccomp:')][0].split()[1] for s in tasks}\n"
        "print('seccomp modes of', len(tasks), 'threads:', sorted(modes))\n"
    )
    report = pool.run(source=source)
    assert report.status == "ok", (report.stdout, report.exception)
    lines = report.stdout.strip().splitlines()
    for where in ("main", "thread"):
        for key in REFUSED_CALLS:
            assert f"{where} {key} EPERM" in lines, (where, key, report.stdout)
    assert "local and IP sockets open" in lines and "getaddrinfo True" in lines
    assert lines[-1].startswith("seccomp modes of") and lines[-1].endswith("threads: ['2']")  # the zygote's threads too


@pytest.mark.parametrize("where", ["/tmp", "."])
def test_a_worker_whose_wipe_cannot_finish_is_replaced_before_the_next_job(pool: WorkerPool, where: str) -> None:
    # Folders nested deeper than the wipe follows: what it cannot remove is found, and the worker goes.
    started = _warm(pool)
    attack = pool.run(source=f"import os\nos.chdir({where!r})\nfor _ in range(260):\n    os.mkdir('d')\n    os.chdir('d')\nprint('deep')\n")
    assert attack.status == "ok" and attack.stdout.strip() == "deep", attack.exception
    victim = pool.run(
        source="import bpy, os, sys\n"
        "own = (os.getcwd() + '/', os.path.normpath(bpy.app.tempdir) + '/')  # the job's folder and Blender's, both empty\n"
        "mounted = os.path.realpath(sys.prefix) + '/'  # the sandbox's own mount of the venv (a checkout under /tmp)\n"
        "print([n for n in os.listdir('/tmp') if not own[0].startswith(f'/tmp/{n}/') and f'/tmp/{n}/' != own[1]\n"
        "       and not mounted.startswith(f'/tmp/{n}/')], os.listdir('.'))\n"
        "print(os.listdir(bpy.app.tempdir))\n"
    )
    assert victim.status == "ok" and victim.stdout.split() == ["[]", "[]", "[]"], victim.stdout
    assert pool.workers_started == started + 1  # a fresh worker took the next job


def test_a_masked_folder_under_a_project_root_holds_nothing_for_the_next_job(
    pool: WorkerPool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    data = project / "artifacts"
    data.mkdir(parents=True)
    project.chmod(0o755)
    tmp_path.chmod(0o755)
    monkeypatch.setenv("BPYWRIGHT_ARTIFACTS", str(data))
    writer = project / "leave.py"
    writer.write_text(f"open({str(data / 'note')!r}, 'w').write('from job A')\nprint('left')\n")
    reader = project / "look.py"
    reader.write_text(f"import os\nprint(sorted(os.listdir({str(data)!r})))\n")
    attack = pool.run(writer)
    assert attack.status == "rejected" and "left" not in attack.stdout  # the mask is read-only
    assert "Read-only file system" in (attack.exception.message if attack.exception else "")
    victim = pool.run(reader)
    assert victim.status == "ok" and victim.stdout.strip() == "[]", (victim.stdout, victim.exception)
    assert not (data / "note").exists()
