"""Faults on a real `ray start` cluster (a head and a second node on this machine, token auth on).

A killed actor or a lost node costs a job one retry on another actor; a second loss makes it a `crash` naming both;
no job is lost or reported twice; the CLI and doctor work against the cluster; a driver without the token is refused.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from bpywright.cluster.connect import describe
from bpywright.cluster.localcluster import LocalRayCluster
from bpywright.cluster.raypool import RayPool
from bpywright.cluster.spec import ClusterSpec
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool

ray = pytest.importorskip("ray", reason="the [cluster] extra is not installed: `make setup` installs it")
pytestmark = [pytest.mark.slow, pytest.mark.blender, pytest.mark.ray]

OPTIONS = RunOptions(render=True, resolution=32, timeout=60)
SLOW = "import time, bpy\ntime.sleep({s})\nbpy.ops.mesh.primitive_cube_add()\n"


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalRayCluster]:
    """Head with 2 CPUs, a second node with 1 CPU: three actors, one of them on the node the last test loses."""
    c = LocalRayCluster()
    try:
        c.start_head(cpus=2)
        c.add_node(cpus=1)
        yield c
    finally:
        if ray.is_initialized():
            ray.shutdown()
        c.stop()


@pytest.fixture(scope="module")
def pool(cluster: LocalRayCluster) -> Iterator[RayPool]:
    """This process as the driver (joined by GCS address), one actor per CPU of the cluster."""
    with RayPool(ClusterSpec(cluster.address), None, OPTIONS) as p:
        p.warm()
        yield p


def _write(folder: Path, sources: dict[str, str]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    for name, source in sources.items():
        (folder / name).write_text(source)
    return [folder / name for name in sources]


def _wait_busy(pool: RayPool, origin: str, exclude: set[int] = frozenset(), timeout: float = 120) -> dict:  # type: ignore[assignment]
    """The actor that is running `origin` (and is not one of `exclude`), as soon as it runs it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for info in pool.actor_info():
            if info["busy"] and info["origin"] == origin and info["pid"] not in exclude:
                return info
        time.sleep(0.05)
    raise AssertionError(f"no actor picked up {origin} within {timeout}s: {pool.actor_info()}")


def test_cli_batch_through_ray_client_then_doctor_counts_nothing_left(cluster: LocalRayCluster, tmp_path: Path) -> None:
    scripts = _write(tmp_path / "s", {"a.py": SLOW.format(s=0), "b.py": "import bpy\nraise RuntimeError('boom')\n"})
    cmd = [
        sys.executable,
        "-m",
        "bpywright",
        "run",
        *map(str, scripts),
        "--cluster",
        cluster.client_address,
        "--jobs",
        "1",
        "--resolution",
        "32",
        "--out-dir",
        str(tmp_path / "out"),
        "--json",
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=400)
    assert proc.returncode == 1, proc.stderr[-3000:]  # b.py raised
    assert proc.stdout.strip(), proc.stderr[-3000:]
    reports = json.loads(proc.stdout)  # stdout is the one JSON document, whatever Ray prints (stdout_guard)
    assert [r["status"] for r in reports] == ["ok", "error"]
    assert [json.loads((tmp_path / "out" / f"{name}.json").read_text())["status"] for name in ("a", "b")] == ["ok", "error"]
    assert Image.open(tmp_path / "out" / "a.png").size == (32, 32)
    assert (tmp_path / "out" / "b.json").is_file()


def test_doctor_describes_the_cluster(cluster: LocalRayCluster, pool: RayPool) -> None:
    state, detail, _ = describe(ClusterSpec(cluster.address))
    assert state == "ok", detail
    assert "2 node(s), 3 CPUs" in detail and "3 bpywright worker actor(s)" in detail and "auth token" in detail


def test_killed_actor_mid_job_is_retried_once_elsewhere(pool: RayPool, tmp_path: Path) -> None:
    scripts = _write(tmp_path, {f"s{i}.py": SLOW.format(s=2) for i in range(4)})
    seen: Counter[Path] = Counter()
    lost = pool.actors_lost
    with ThreadPoolExecutor(1) as ex:
        batch = ex.submit(pool.map, scripts, OPTIONS, render_dir=tmp_path / "r", on_done=lambda s, r: seen.update([s]))
        victim = _wait_busy(pool, str(scripts[0]))
        os.kill(victim["pid"], signal.SIGKILL)
        reports = batch.result(timeout=400)
    assert [r.status for r in reports] == ["ok"] * 4, [r.exception for r in reports]
    assert seen == Counter(scripts)  # each reported exactly once, the retried one included
    assert pool.actors_lost == lost + 1
    assert all(Path(r.render.path).is_file() for r in reports if r.render) and all(r.render for r in reports)


def test_a_job_whose_actor_is_lost_twice_is_a_crash_naming_both(pool: RayPool, tmp_path: Path) -> None:
    (script,) = _write(tmp_path, {"doomed.py": SLOW.format(s=30)})
    with ThreadPoolExecutor(1) as ex:
        future = ex.submit(pool.run, script, OPTIONS)
        first = _wait_busy(pool, str(script))
        os.kill(first["pid"], signal.SIGKILL)
        second = _wait_busy(pool, str(script), exclude={first["pid"]})
        os.kill(second["pid"], signal.SIGKILL)
        report = future.result(timeout=400)
    assert report.status == "crash" and report.exception is not None and report.exception.type == "WorkerLost"
    assert "lost 2 times" in report.exception.message and str(first["pid"]) in report.exception.message
    assert str(second["pid"]) in report.exception.message and report.script_path == str(script)


def test_lost_node_mid_batch_every_job_once_same_statuses_as_local(cluster: LocalRayCluster, pool: RayPool, tmp_path: Path) -> None:
    sources = {f"n{i}.py": SLOW.format(s=3) for i in range(5)}
    sources |= {
        "err.py": "import bpy\nbpy.data.objects['missing'].hide_render = True\n",
        "segv.py": "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
    }
    scripts = _write(tmp_path / "s", sources)
    node_id = next(n["NodeID"] for n in ray.nodes() if n["Alive"] and n["NodeManagerPort"] == cluster.node_ports[0])
    seen: Counter[Path] = Counter()
    with ThreadPoolExecutor(1) as ex:
        batch = ex.submit(pool.map, scripts, OPTIONS, render_dir=tmp_path / "r", on_done=lambda s, r: seen.update([s]))
        deadline = time.monotonic() + 120
        while not any(i["busy"] and i["node_id"] == node_id for i in pool.actor_info()):
            assert time.monotonic() < deadline, pool.actor_info()
            time.sleep(0.05)
        cluster.kill_raylet(cluster.node_ports[0])
        reports = batch.result(timeout=500)
    assert seen == Counter(scripts)
    with WorkerPool(1, OPTIONS) as local:
        expected = local.map(scripts[-2:], OPTIONS)
    assert [r.status for r in expected] == ["error", "crash"]
    assert [r.status for r in reports] == ["ok"] * 5 + [r.status for r in expected], [(r.exception, r.stderr[-1500:]) for r in reports]
    assert all(r.render is not None and Path(r.render.path).is_file() for r in reports[:5])
    assert not any(i["node_id"] == node_id for i in pool.actor_info())  # nothing runs on the lost node


def test_a_driver_without_the_token_is_refused(cluster: LocalRayCluster, tmp_path: Path) -> None:
    scripts = _write(tmp_path, {"a.py": "import bpy\n", "b.py": "import bpy\n"})
    env = os.environ | {"RAY_AUTH_TOKEN": "0" * 64}  # a stranger's guess (it outranks the token file)
    cmd = [sys.executable, "-m", "bpywright", "run", *map(str, scripts), "--cluster", cluster.address]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 1
    assert "cannot connect to the Ray cluster" in proc.stderr and "token" in proc.stderr
