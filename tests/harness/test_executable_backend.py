"""The blender-exe backend against a real Blender binary (Debian's, a different version from the wheel)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.harness.backend import Backend
from bpywright.harness.launcher import run_script
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool

pytestmark = [pytest.mark.blender, pytest.mark.runtimes]


def test_executable_runs_and_renders(blender_exe: Path, script, tmp_path: Path) -> None:
    version = Backend.resolve(blender_exe).version()
    path = script("import bpy\nbpy.ops.mesh.primitive_monkey_add(location=(0, 0, 1))\nprint(bpy.app.version_string)\n")
    report = run_script(path, RunOptions(blender=blender_exe, resolution=64), render_to=tmp_path / "exe.png")
    assert report.status == "ok", report.stderr
    assert report.backend == "blender-exe"
    assert report.blender_version.split()[0] == version.split()[0]
    assert report.stdout.strip().splitlines()[-1].startswith(version.split()[0])
    assert report.render.nonblank_fraction > 0.05


def test_executable_error_line_and_exit_code(blender_exe: Path, script) -> None:
    report = run_script(script("import bpy\n\nraise ValueError('boom')\n"), RunOptions(blender=blender_exe, render=False))
    assert report.status == "error"
    assert report.exception.type == "ValueError" and report.exception.line == 3
    assert report.exit.returncode == 1


def test_executable_pool_isolation(blender_exe: Path) -> None:
    with WorkerPool(1, RunOptions(blender=blender_exe, render=False)) as pool:
        pool.run(source="import bpy\nbpy.data.materials.new('Leaky')\n")
        report = pool.run(source="import bpy\nprint('Leaky' in bpy.data.materials)\n")
    assert report.backend == "blender-exe"
    assert report.stdout.strip() == "False"
