"""`run --cluster … --json`: stdout is exactly one JSON document while Ray prints cluster errors on the driver.

Ray's driver prints every error the cluster pushes to it ("(raylet) …": workers slow to register under load, a node
marked dead…) with print() on sys.stdout from a background thread, log_to_driver or not. Here the errors are pushed
on purpose, to every driver, for as long as the batch runs.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bpywright.cluster.localcluster import LocalRayCluster
from bpywright.stdout_guard import json_stdout

ray = pytest.importorskip("ray", reason="the [cluster] extra is not installed: `make setup` installs it")
NOISE = "BPYW-NOISE pushed to every driver"


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalRayCluster]:
    c = LocalRayCluster()
    try:
        c.start_head(cpus=1)
        yield c
    finally:
        c.stop()


def _push_errors_until(cluster: LocalRayCluster, stop: threading.Event) -> None:
    """Publish an error for all drivers (nil job id) every 0.2 s: each driver's error listener prints it."""
    from ray._private.utils import publish_error_to_driver
    from ray._raylet import GcsClient  # type: ignore[attr-defined]

    gcs = GcsClient(address=cluster.address)
    i = 0
    while not stop.wait(0.2):
        publish_error_to_driver("bpywright_test", f"{NOISE} #{i}", gcs)
        i += 1


@pytest.mark.blender
@pytest.mark.ray
@pytest.mark.slow
def test_run_json_stdout_is_one_document_while_ray_prints(cluster: LocalRayCluster, tmp_path: Path) -> None:
    scripts = []
    for name, source in {"a.py": "import time, bpy\ntime.sleep(4)\nbpy.ops.mesh.primitive_cube_add()\n", "b.py": "import bpy\n"}.items():
        (tmp_path / name).write_text(source)
        scripts.append(str(tmp_path / name))
    cmd = [sys.executable, "-m", "bpywright", "run", *scripts, "--cluster", cluster.address, "--jobs", "1", "--no-render", "--json"]
    stop = threading.Event()
    noise = threading.Thread(target=_push_errors_until, args=(cluster, stop), daemon=True)
    noise.start()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=400)
    finally:
        stop.set()
        noise.join()
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert NOISE in proc.stderr  # Ray did print the pushed errors: on stderr
    reports = json.loads(proc.stdout)  # and nothing but the one document on stdout
    assert [r["status"] for r in reports] == ["ok", "ok"]
    assert proc.stdout.lstrip().startswith("[") and NOISE not in proc.stdout


def test_json_stdout_keeps_the_commands_own_prints_and_moves_everything_else(tmp_path: Path) -> None:
    """Other threads' prints and file descriptor 1 (children, native code) go to stderr; the caller's thread keeps stdout."""
    code = (
        "import os, subprocess, sys, threading\n"
        "from bpywright.stdout_guard import json_stdout\n"
        "with json_stdout():\n"
        "    t = threading.Thread(target=print, args=('from a thread',)); t.start(); t.join()\n"
        "    os.write(1, b'fd one\\n')\n"
        "    subprocess.run(['echo', 'a child'])\n"
        "    print('{\"ok\": true}')\n"
        "print('after', flush=True)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == '{"ok": true}\nafter\n'
    assert proc.stderr.splitlines() == ["from a thread", "fd one", "a child"]


def test_json_stdout_under_a_capturing_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    """In-process callers (tests, capsys) have no descriptor to guard: the thread split still applies."""
    with json_stdout():
        t = threading.Thread(target=print, args=("noise",))
        t.start()
        t.join()
        print("[1]")
    time.sleep(0)
    out, err = capsys.readouterr()
    assert out == "[1]\n" and err == "noise\n"
