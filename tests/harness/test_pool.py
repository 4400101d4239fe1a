"""The warm pool: isolation between consecutive jobs, recycling, concurrency, crash survival."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool

pytestmark = pytest.mark.blender

PROBE = """
import bpy, sys, os
print({
    "object": "LeakyObject" in bpy.data.objects,
    "material": "LeakyMaterial" in bpy.data.materials,
    "handlers": len(bpy.app.handlers.frame_change_pre) + len(bpy.app.handlers.depsgraph_update_post),
    "module": "leaky_module" in sys.modules,
    "env": "LEAKY" in os.environ,
    "path": "/leaky" in sys.path,
    "operator": hasattr(bpy.types, "LEAKY_OT_op"),
    "cwd_file": os.path.exists("leaky.txt"),
    "prefs": bpy.context.preferences.view.ui_scale != 1.0,
})
"""

LEAK = (
    """
import bpy, sys, os, types
bpy.ops.mesh.primitive_cube_add(location=(5, 0, 0))
bpy.context.active_object.name = "LeakyObject"
bpy.data.materials.new("LeakyMaterial")

@bpy.app.handlers.persistent
def leaky_handler(scene, *args):
    pass

bpy.app.handlers.frame_change_pre.append(leaky_handler)
bpy.app.handlers.depsgraph_update_post.append(lambda *a: None)
sys.modules["leaky_module"] = types.ModuleType("leaky_module")
os.environ["LEAKY"] = "1"
sys.path.append("/leaky")
open("leaky.txt", "w").write("x")
bpy.context.preferences.view.ui_scale = 1.5

class LEAKY_OT_op(bpy.types.Operator):
    bl_idname = "leaky.op"
    bl_label = "Leaky"

    def execute(self, context):
        return {"FINISHED"}

bpy.utils.register_class(LEAKY_OT_op)
"""
    + PROBE
)


def _probe(report) -> dict:
    assert report.status == "ok", report.exception
    return ast.literal_eval(report.stdout.strip().splitlines()[-1])


def test_no_leaks_between_jobs(pool: WorkerPool) -> None:
    leaked = _probe(pool.run(source=LEAK))
    assert leaked == {
        "object": True,
        "material": True,
        "handlers": 2,
        "module": True,
        "env": True,
        "path": True,
        "operator": True,
        "cwd_file": True,
        "prefs": True,
    }
    clean = _probe(pool.run(source=PROBE))
    assert clean == {
        "object": False,
        "material": False,
        "handlers": 0,
        "module": False,
        "env": False,
        "path": False,
        "operator": False,
        "cwd_file": False,
        "prefs": False,
    }


def test_every_job_starts_from_the_factory_scene(pool: WorkerPool) -> None:
    pool.run(source="import bpy\nfor o in list(bpy.data.objects):\n    bpy.data.objects.remove(o)\n")
    report = pool.run(source="import bpy\nprint(sorted(o.name for o in bpy.data.objects))\n")
    assert report.stdout.strip() == "['Camera', 'Cube', 'Light']"


def test_pool_survives_crash_and_keeps_serving(pool: WorkerPool) -> None:
    before = pool.workers_started
    crash = pool.run(source="import ctypes\nctypes.string_at(0)\n")
    assert crash.status == "crash" and crash.exit.signal == "SIGSEGV"
    after = pool.run(source="print('alive')\n")
    assert after.status == "ok" and after.stdout.strip() == "alive"
    assert pool.workers_started == before  # only the job's forked child died: the zygote keeps serving


def test_timeout_kills_the_job_not_the_worker(pool: WorkerPool) -> None:
    before = pool.workers_started
    report = pool.run(source="while True:\n    pass\n", options=RunOptions(render=False, timeout=2))
    assert report.status == "timeout"
    assert pool.run(source="print('next')\n").stdout.strip() == "next"
    assert pool.workers_started == before


def test_os_exit_and_sys_exit_in_pool(pool: WorkerPool) -> None:
    assert pool.run(source="import os\nos._exit(7)\n").status == "crash"
    exited = pool.run(source="import sys\nsys.exit(3)\n")
    assert exited.status == "error" and exited.exception.type == "SystemExit"
    assert pool.run(source="print('ok')\n").status == "ok"


def test_stray_child_processes_are_reaped(pool: WorkerPool) -> None:
    pool.run(source="import subprocess\nsubprocess.Popen(['sleep', '1000'])\n")
    report = pool.run(
        source=(
            "import os\n"
            "cmds = []\n"
            "for pid in filter(str.isdigit, os.listdir('/proc')):\n"
            "    try:\n"
            "        cmds.append(open(f'/proc/{pid}/cmdline', 'rb').read())\n"
            "    except OSError:\n"
            "        pass\n"
            "print(any(c.startswith(b'sleep') for c in cmds))\n"
        )
    )
    assert report.stdout.strip() == "False"


def test_recycled_every_k_jobs() -> None:
    with WorkerPool(1, RunOptions(render=False), recycle_after=2) as pool:
        # the zygote's start time (the job's parent; pids repeat across pid namespaces, start times do not)
        probe = "import os\nprint(open(f'/proc/{os.getppid()}/stat').read().rsplit(')', 1)[1].split()[19])\n"
        pids = [pool.run(source=probe).stdout.strip() for _ in range(3)]
        assert pool.workers_started == 2
    assert pids[0] == pids[1] != pids[2]


def test_concurrent_jobs_keep_input_order(tmp_path: Path) -> None:
    scripts = []
    for i in range(4):
        path = tmp_path / f"s{i}.py"
        path.write_text(f"import bpy\nbpy.ops.mesh.primitive_cube_add(size={i + 1})\nprint({i})\n")
        scripts.append(path)
    with WorkerPool(2, RunOptions(resolution=64)) as pool:
        reports = pool.map(scripts, render_dir=tmp_path / "renders")
        assert pool.workers_started == 2
    assert [r.stdout.strip() for r in reports] == ["0", "1", "2", "3"]
    assert all(r.status == "ok" and Path(r.render.path).is_file() for r in reports)
    assert {Path(r.render.path).name for r in reports} == {"s0.png", "s1.png", "s2.png", "s3.png"}


def doomed(pid: int) -> bool:
    """Whether a process is gone, a zombie, or has a SIGKILL pending (sent, not yet acted on)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if fields["State"].strip()[0] in "ZXx":
        return True
    return any(int(fields[key], 16) & (1 << 8) for key in ("SigPnd", "ShdPnd"))  # bit 8 = signal 9


def wait_until_exited(threads: list) -> None:
    """Wait (deadline 60 s) until the OS threads behind these ended Python threads are gone from /proc/self/task.

    The kernel sends PR_SET_PDEATHSIG when the forking thread exits, which is after Thread.join() returns; once the
    task has left /proc, any such signal has been sent, so a worker it killed shows as doomed().
    """
    import time

    deadline = time.monotonic() + 60
    for thread in threads:
        if thread.is_alive() or thread.native_id is None:
            continue  # a thread that lives on (the pool's own) cannot have signalled anything
        while Path(f"/proc/self/task/{thread.native_id}").exists():
            assert time.monotonic() < deadline, f"thread {thread.name} ({thread.native_id}) did not exit"
            time.sleep(0.01)


def test_workers_outlive_the_threads_that_started_them(tmp_path: Path, monkeypatch) -> None:
    """bwrap's --die-with-parent follows the forking thread: workers started by warm() and map() (short-lived
    executor threads) were SIGKILLed when those threads ended, and a job sent meanwhile came back as a crash."""
    import threading

    started_threads: list[threading.Thread] = []
    start = threading.Thread.start

    def recording_start(self: threading.Thread) -> None:
        start(self)
        started_threads.append(self)

    monkeypatch.setattr(threading.Thread, "start", recording_start)
    script = tmp_path / "raises.py"
    script.write_text("import bpy\nbpy.data.objects['nope']\n")
    with WorkerPool(2, RunOptions(render=False)) as pool:
        pool.warm()
        done = threading.Thread(target=lambda: pool.run(source="import bpy\n"))  # a caller thread that ends
        done.start()
        done.join()
        wait_until_exited(started_threads)  # warm()'s and the caller's threads: their exit has sent any death signal
        assert not any(doomed(w.proc.pid) for w in pool._idle if w.proc is not None), [w.proc.returncode for w in pool._idle if w.proc]
        assert all(w.alive for w in pool._idle)
        assert pool.workers_started == 2  # warm() started both; the caller thread's job reused one
        first = pool.map([script, script], RunOptions(render=False))  # new workers showing the scripts' folder
        started = pool.workers_started
        wait_until_exited(started_threads)  # map()'s executor threads
        assert not any(doomed(w.proc.pid) for w in pool._idle if w.proc is not None)
        second = pool.map([script, script], RunOptions(render=False))
        assert pool.workers_started == started  # the first map's workers outlived its threads
    assert [r.status for r in (*first, *second)] == ["error"] * 4
