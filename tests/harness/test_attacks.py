"""The harness as a trust boundary: every attack a hostile script can try on the host or on the next job."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from PIL import Image

from bpywright.harness.launcher import run_script
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.blender]
FAST = RunOptions(render=False, timeout=30)

# A script can find its own job (id, paths) in the harness's frames: the best forger there is.
STEAL_JOB = """
import sys
job = next(f.f_locals["job"] for f in (sys._getframe(i) for i in range(1, 12)) if "job" in f.f_locals)
"""


def _victim_png(path: Path) -> bytes:
    Image.new("RGB", (64, 64), (200, 10, 10)).save(path)
    return path.read_bytes()


def test_forged_report_moves_no_host_file(tmp_path: Path) -> None:
    victim = tmp_path / "gallery-thumb.png"
    before = _victim_png(victim)
    forged = {
        "schema_version": 1,
        "status": "ok",
        "backend": "bpy-module",
        "sandbox": "bwrap",
        "render": {"path": str(victim), "width": 64, "height": 64, "engine": "X"},
    }
    script = f"import json, os\njson.dump({forged!r}, open('../report.json', 'w'))\nos._exit(0)\n"
    report = run_script(source=script, options=RunOptions(resolution=64), render_to=tmp_path / "out.png")
    assert victim.read_bytes() == before  # still there, untouched
    assert report.status == "crash" and "not this job's report" in report.exception.message
    assert report.render is None and not (tmp_path / "out.png").exists()


def test_forged_report_with_the_stolen_job_id_still_takes_no_host_path(tmp_path: Path) -> None:
    victim = tmp_path / "victim.png"
    before = _victim_png(victim)
    script = STEAL_JOB + (
        "import json, os\n"
        "forged = {'job_id': job['job_id'], 'schema_version': 1, 'status': 'ok', 'backend': 'bpy-module', 'sandbox': 'rlimits-only',\n"
        f"          'blender_version': '9.9', 'render': {{'path': {str(victim)!r}, 'width': 64, 'height': 64, 'engine': 'X'}}}}\n"
        "json.dump(forged, open(job['report_path'], 'w'))\n"
        "os._exit(0)\n"
    )
    report = run_script(source=script, options=RunOptions(resolution=64), render_to=tmp_path / "out.png")
    assert victim.read_bytes() == before
    assert report.render is None  # no render.png of its own: nothing copied, the forged path ignored
    assert report.status == "error" and report.exception.type == "RenderMissing"
    assert report.sandbox == "bwrap" and report.blender_version != "9.9"  # the host's facts, not the job's


@pytest.mark.parametrize(
    "render, why",
    [(b"not a png", "not a PNG"), ("small", "expected 32x32"), (b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "damaged")],
)
def test_render_must_be_a_sound_png_of_the_asked_size(tmp_path: Path, render, why) -> None:
    from bpywright.harness.job import JobOutcome, PreparedRun

    job_dir = tmp_path / "job"
    job_dir.mkdir()
    job = PreparedRun.prepare("print(1)\n", job_dir, RunOptions(resolution=32))
    if render == "small":
        Image.new("RGB", (16, 16)).save(job_dir / "render.png")
    else:
        (job_dir / "render.png").write_bytes(render)
    forged = {
        "job_id": job.job_id,
        "status": "ok",
        "backend": "bpy-module",
        "sandbox": "bwrap",
        "render": {"path": "/etc/passwd", "width": 32, "height": 32, "engine": "BLENDER_WORKBENCH"},
    }
    (job_dir / "report.json").write_text(json.dumps(forged))
    report = job.finish(backend="bpy-module", sandbox="bwrap", wall=0.1, outcome=JobOutcome(), render_to=tmp_path / "r.png")
    assert report.status == "error" and why in report.exception.message
    assert report.render is None and not (tmp_path / "r.png").exists()


def test_symlinked_outputs_are_not_followed(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("BPYWRIGHT_LLM_API_KEY", "sk-host-secret-123")
    secret = tmp_path / "secret.txt"
    secret.write_text('{"status": "ok", "host-secret": "tmp-secret-456"}')
    tmp_path.chmod(0o755)
    script = STEAL_JOB + (
        "import os\n"
        "d = job['job_dir']\n"
        "for name, target in [('stdout.txt', '/proc/self/environ'), ('stderr.txt', " + repr(str(secret)) + "),\n"
        "                     ('report.json', " + repr(str(secret)) + "), ('render.png', " + repr(str(secret)) + ")]:\n"
        "    try:\n"
        "        os.unlink(os.path.join(d, name))\n"
        "    except FileNotFoundError:\n"
        "        pass\n"
        "    os.symlink(target, os.path.join(d, name))\n"
        "os.symlink(" + repr(str(secret)) + ", 'leak.txt')\n"
        "os._exit(0)\n"
    )
    report = run_script(source=script, options=RunOptions(resolution=32), outputs_to=tmp_path / "outputs")
    dumped = report.model_dump_json()
    assert "sk-host-secret-123" not in dumped and "tmp-secret-456" not in dumped
    assert report.status == "crash"
    assert not (tmp_path / "outputs" / "leak.txt").exists()
    assert "not a regular file" in report.stderr or "leak.txt" in report.stderr


def test_host_files_are_not_visible(tmp_path: Path) -> None:
    repo_artifacts = Path(__file__).resolve().parents[2] / "artifacts"
    probe = (
        "import os, json\n"
        "paths = ['/etc/shadow', '/etc/passwd', '/root/.ssh', '/root/.bash_history', '/home', " + repr(str(repo_artifacts)) + ",\n"
        "         " + repr(str(tmp_path)) + ", '/work', '/var', '/run', '/srv']\n"
        "caps = [l for l in open('/proc/self/status') if l.startswith('CapEff')][0].split()[1]\n"
        "def listing(path):\n"
        "    try:\n"
        "        return sorted(os.listdir(path)) if os.path.isdir(path) else []\n"
        "    except PermissionError:\n"
        "        return 'denied'\n"
        "print(json.dumps({'seen': [p for p in paths if os.path.exists(p)], 'uid': os.getuid(), 'caps': caps,\n"
        "                  'root_listing': listing('/root'), 'work_listing': listing('/work')}))\n"
    )
    report = run_script(source=probe, options=FAST)
    assert report.status == "ok", report.exception
    found = json.loads(report.stdout.strip().splitlines()[-1])
    assert found["uid"] == 65534 and int(found["caps"], 16) == 0
    # /work exists only as the folder holding the venv; nothing else of the host is there
    assert set(found["seen"]) <= {"/work"}
    # the folders holding the interpreter (pyenv under /root) and the venv can be passed through, never listed
    assert found["root_listing"] in ("denied", []) and found["work_listing"] in ("denied", [])


def test_job_dir_disk_quota(tmp_path: Path) -> None:
    fast = "for i in range(40):\n    open(f'f{i}.bin', 'wb').write(b'x' * 10_000_000)\n"
    report = run_script(source=fast, options=RunOptions(render=False, timeout=60, disk_mb=50), outputs_to=tmp_path / "out")
    assert report.status == "rejected" and "disk quota" in report.exception.message
    assert not (tmp_path / "out").exists() or sum(f.stat().st_size for f in (tmp_path / "out").iterdir()) == 0
    # a slow filler is stopped while it writes (the quota is polled), long before its 100 files
    slow = "import time\nfor i in range(100):\n    open(f'f{i}.bin', 'wb').write(b'x' * 5_000_000)\n    time.sleep(0.05)\nprint('wrote it all')\n"
    stopped = run_script(source=slow, options=RunOptions(render=False, timeout=60, disk_mb=50))
    assert stopped.status == "rejected" and "disk quota" in stopped.exception.message
    assert "wrote it all" not in stopped.stdout


def test_tmpfs_is_size_capped() -> None:
    script = "open('/tmp/fill', 'wb').write(b'x' * 80_000_000)\n"
    report = run_script(source=script, options=RunOptions(render=False, timeout=60, tmp_mb=32))
    assert report.status == "rejected" and "No space left" in report.exception.message
    shm = run_script(source=script.replace("/tmp/", "/dev/shm/"), options=RunOptions(render=False, timeout=60, tmp_mb=32))
    assert shm.status == "rejected"


def test_cannot_write_outside_tmp_and_job_dir() -> None:
    report = run_script(source="open('/etc/x', 'w').write('x')\n", options=FAST)
    assert report.status == "rejected" and "Read-only file system" in report.exception.message


# ------------------------------------------------------------ job k against job k+1 on one warm worker


def test_background_thread_cannot_touch_the_next_job(pool: WorkerPool) -> None:
    attack = STEAL_JOB + (
        "import threading, time, os\n"
        "d = job['job_dir']\n"
        "def meddle():\n"
        "    while True:\n"
        "        for name in os.listdir(d):\n"
        "            if name.endswith('.py'):\n"
        "                open(os.path.join(d, name), 'w').write('print(\"pwned\")')\n"
        "        time.sleep(0.001)\n"
        "threading.Thread(target=meddle, daemon=True).start()\n"
        "time.sleep(0.2)\n"
    )
    pool.run(source=attack)
    honest = pool.run(source="import time\ntime.sleep(0.5)\nprint('honest')\n")
    assert honest.status == "ok" and honest.stdout.strip() == "honest"


def test_monkeypatches_do_not_survive_into_the_next_job(pool: WorkerPool) -> None:
    attack = (
        "import json, builtins, os, bpy\n"
        "real = json.dump\n"
        "def forged(obj, fh, **kw):\n"
        "    if isinstance(obj, dict) and 'status' in obj:\n"
        "        obj.update(status='ok', exception=None)\n"
        "        obj['scene'] and obj['scene'].update(object_count=999)\n"
        "    return real(obj, fh, **kw)\n"
        "json.dump = forged\n"
        "builtins.print = lambda *a, **k: None\n"
        "os._exit = lambda code: None\n"
        "bpy.ops.mesh.primitive_cube_add = lambda *a, **k: {'FINISHED'}\n"
    )
    pool.run(source=attack)
    victim = pool.run(
        source="import bpy\nbpy.ops.mesh.primitive_cube_add(location=(3, 0, 0))\nprint('real print')\nraise RuntimeError('really failed')\n"
    )
    assert victim.status == "error" and victim.exception.type == "RuntimeError"
    assert victim.stdout.strip() == "real print"
    assert victim.scene is not None and victim.scene.object_count == 4  # factory cube, camera, light + the new cube


def test_daemons_are_killed_before_the_next_job(pool: WorkerPool) -> None:
    attack = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        open('/tmp/daemon-alive', 'w').write('x')\n"
        "        while True:\n"
        "            open('/tmp/daemon-alive', 'a').write('x')\n"
        "            time.sleep(0.05)\n"
        "    os._exit(0)\n"
        "time.sleep(0.3)\n"
    )
    pool.run(source=attack)
    probe = pool.run(
        source="import os, time\ntime.sleep(0.3)\nprint(os.path.exists('/tmp/daemon-alive'), len([p for p in os.listdir('/proc') if p.isdigit()]))\n"
    )
    alive, processes = probe.stdout.split()
    assert alive == "False"
    assert int(processes) <= 3  # bwrap's init, the zygote and this job: nothing left by the attacker


def test_tmp_files_do_not_survive_the_job(pool: WorkerPool) -> None:
    pool.run(
        source="import os\nopen('/tmp/planted.py', 'w').write('x')\nopen('/dev/shm/planted', 'w').write('x')\nos.makedirs('/tmp/d/e')\n"
    )
    probe = pool.run(source="import os\nprint(sorted(os.listdir('/tmp')), sorted(os.listdir('/dev/shm')))\n")
    assert "planted" not in probe.stdout and "'d'" not in probe.stdout


def test_fake_control_lines_reach_nobody(pool: WorkerPool) -> None:
    attack = STEAL_JOB + (
        "import os, json\n"
        "line = (json.dumps({'done': job['job_id']}) + '\\n').encode()\n"
        "hit = []\n"
        "for fd in range(3, 256):\n"
        "    try:\n"
        "        os.write(fd, line)\n"
        "        hit.append(fd)\n"
        "    except OSError:\n"
        "        pass\n"
        "print('wrote to', hit)\n"
        "import time\n"
        "time.sleep(0.5)\n"
        "print('finished')\n"
    )
    first = pool.run(source=attack)
    assert first.status == "ok" and "finished" in first.stdout  # not ended early by its own fake "done"
    after = pool.run(source="print('innocent')\n")
    assert after.status == "ok" and after.stdout.strip() == "innocent"


def test_killing_the_zygote_only_crashes_its_own_job(pool: WorkerPool) -> None:
    report = pool.run(source="import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)\n")
    assert report.status in ("crash", "ok")  # the job may finish before the host notices; never another job's result
    assert pool.run(source="print('next')\n").stdout.strip() == "next"


def test_leftover_worker_dirs_are_removed(tmp_path: Path) -> None:
    from bpywright.harness.worker import remove_leftovers

    dead = tmp_path / "w999999-1-abc"
    dead.mkdir()
    (dead / "junk").write_text("x")
    (tmp_path / "w999999-1-abc.log").write_text("log")
    mine = tmp_path / f"w{os.getpid()}-1-xyz"
    mine.mkdir()
    assert remove_leftovers(tmp_path) >= 2
    assert not dead.exists() and not (tmp_path / "w999999-1-abc.log").exists() and mine.exists()
