"""RayPool on an in-process Ray instance: the same statuses as the local pool for the same scripts, renders back as files."""

from __future__ import annotations

import os
import textwrap
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from bpywright.cluster.factory import open_pool
from bpywright.cluster.raypool import RayPool
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool

pytestmark = [pytest.mark.blender, pytest.mark.ray]

ray = pytest.importorskip("ray", reason="the [cluster] extra is not installed: `make setup` installs it")

SCRIPTS = {
    "cube.py": "import bpy\nbpy.ops.mesh.primitive_cube_add(size=2)\n",
    "raises.py": "import bpy\n\nbpy.data.objects['nope'].location.x = 1\n",
    "kills_worker.py": "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
    "sleeps.py": "import time\ntime.sleep(60)\n",
    "monkey.py": "import bpy\nbpy.ops.mesh.primitive_monkey_add()\n",
}
OPTIONS = RunOptions(render=True, resolution=32, timeout=4)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A Ray instance inside this process (2 CPUs), token auth on (conftest set this session's token)."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def scripts(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("scripts")
    paths = []
    for name, source in SCRIPTS.items():
        (folder / name).write_text(textwrap.dedent(source))
        paths.append(folder / name)
    (folder / "binary.py").write_bytes(b"import bpy\x00\x01")  # rejected before it runs, as locally
    return [*paths, folder / "binary.py"]


def _summary(report) -> tuple:
    return (report.status, report.exception.type if report.exception else None, report.render is not None)


def test_same_statuses_as_the_local_pool_each_reported_once_with_renders(local_ray, scripts: list[Path], tmp_path: Path) -> None:
    with WorkerPool(1, OPTIONS) as local:
        expected = local.map(scripts, OPTIONS, render_dir=tmp_path / "local")
    seen: Counter[Path] = Counter()
    with open_pool(OPTIONS, cluster=None, jobs=1) as plain:
        assert isinstance(plain, WorkerPool)  # no cluster named: the local pool, as before
    with RayPool(None, 2, OPTIONS) as pool:
        got = pool.map(scripts, OPTIONS, render_dir=tmp_path / "ray", on_done=lambda s, r: seen.update([s]))
    assert [_summary(r) for r in got] == [_summary(r) for r in expected], [(r.exception, r.stderr[-300:]) for r in got]
    assert [r.status for r in got] == ["ok", "error", "crash", "timeout", "ok", "rejected"]
    assert seen == Counter(scripts)  # every job reported exactly once
    assert [r.script_path for r in got] == [str(s) for s in scripts]
    for script, report in zip(scripts, got):
        if report.render is not None:
            assert report.render.path == str((tmp_path / "ray" / f"{script.stem}.png").resolve())
            assert Image.open(report.render.path).size == (32, 32)
    assert got[1].exception is not None and got[1].exception.line == 3


def test_run_by_source_with_a_render_destination(local_ray, tmp_path: Path) -> None:
    with RayPool(None, 1, OPTIONS) as pool:
        assert pool.size == 1 and pool.backend.name == "bpy-module"
        report = pool.run(source="import bpy\nbpy.ops.mesh.primitive_uv_sphere_add()\n", render_to=tmp_path / "s.png")
        assert report.ok and report.render is not None and Path(report.render.path) == (tmp_path / "s.png").resolve()
        assert report.script_path is None
        info = pool.actor_info()
        assert len(info) == 1 and info[0]["pid"] != os.getpid() and not info[0]["busy"]
    with pytest.raises(RuntimeError, match="closed"):
        pool.run(source="import bpy\n")
