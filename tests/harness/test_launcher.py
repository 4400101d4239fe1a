"""One-shot runs in real Blender (the bpy wheel): statuses, lines, signals, renders, timings."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from bpywright.harness.launcher import run_script
from bpywright.harness.options import RunOptions
from bpywright.harness.report import SCHEMA_VERSION

pytestmark = pytest.mark.blender

FAST = RunOptions(render=False, timeout=30)


def test_success_with_render_frames_the_scene(script, tmp_path: Path) -> None:
    path = script(
        """
        import bpy
        for obj in list(bpy.data.objects):
            bpy.data.objects.remove(obj, do_unlink=True)
        bpy.ops.mesh.primitive_torus_add(location=(10, 4, 2))
        print("built torus")
        """
    )
    png = tmp_path / "out" / "render.png"
    report = run_script(path, RunOptions(resolution=128), render_to=png)
    assert report.status == "ok", report.stderr
    assert report.backend == "bpy-module" and report.blender_version.startswith("4.5")
    assert report.stdout.strip() == "built torus"
    assert [o.type for o in report.scene.objects] == ["MESH"]
    assert report.scene.objects[0].vertices == 576
    # the script left no camera or light: the harness adds both, aimed at the torus far from origin
    assert report.camera_light_added == ["camera", "light"]
    assert report.render is not None and Path(report.render.path) == png.resolve()
    assert Image.open(png).size == (128, 128)
    assert report.render.nonblank_fraction > 0.05
    assert report.timings.script < report.timings.total
    assert report.exit.returncode == 0


def test_exception_reports_line_in_user_script(script) -> None:
    path = script(
        """
        import bpy

        cube = bpy.data.objects["Cube"]
        cube.location.x = 1.0
        cube.no_such_attribute = 3
        """
    )
    report = run_script(path, FAST)
    assert report.status == "error"
    assert report.exception.type == "AttributeError"
    assert report.exception.line == 5
    assert "no_such_attribute" in report.exception.message
    assert "harness/blender/" not in report.exception.traceback  # the harness's own frames (entry and siblings) are dropped
    assert report.schema_version == SCHEMA_VERSION  # as the entry wrote it
    assert report.scene is not None and report.scene.object_count == 3  # partial scene still summarised


def test_syntax_error(script) -> None:
    report = run_script(script("import bpy\n\nx = (1,\ny = 2 +\n"), FAST)
    assert report.status == "error"
    assert report.exception.type == "SyntaxError"
    assert report.exception.line in (3, 4)


def test_timeout_kills_the_script(script) -> None:
    report = run_script(script("while True:\n    pass\n"), RunOptions(render=False, timeout=2))
    assert report.status == "timeout"
    assert report.exception.type == "Timeout"
    assert report.timings.total < 30


def test_segfault_is_a_crash_with_signal(script) -> None:
    report = run_script(script("import ctypes\nprint('before')\nctypes.string_at(0)\n"), FAST)
    assert report.status == "crash"
    assert report.exit.signal == "SIGSEGV"
    assert "before" in report.stdout


def test_sys_exit_nonzero_is_error_and_zero_is_ok(script) -> None:
    bad = run_script(script("import sys\nsys.exit(3)\n", "three.py"), FAST)
    assert bad.status == "error"
    assert bad.exception.type == "SystemExit" and "3" in bad.exception.message and bad.exception.line == 2
    good = run_script(script("import sys\nsys.exit(0)\n", "zero.py"), FAST)
    assert good.status == "ok"


def test_os_exit_mid_script_is_a_crash(script) -> None:
    report = run_script(script("import os\nos._exit(0)\n"), FAST)
    assert report.status == "crash"
    assert "before writing a report" in report.exception.message


def test_blender_operator_errors_are_captured(script) -> None:
    path = script(
        """
        import bpy
        try:
            bpy.ops.wm.open_mainfile(filepath="/nonexistent/scene.blend")
        except RuntimeError:
            pass
        """
    )
    report = run_script(path, FAST)
    assert report.status == "ok"
    assert any("Cannot read file" in line for line in report.blender_errors)


def test_source_text_and_rejection_of_binary() -> None:
    assert run_script(source="import bpy\nbpy.ops.mesh.primitive_cube_add()\n", options=FAST).status == "ok"
    rejected = run_script(source="print(1)\x00", options=FAST)
    assert rejected.status == "rejected" and "NUL" in rejected.exception.message


def test_cycles_engine_renders(script, tmp_path: Path) -> None:
    path = script("import bpy\nbpy.ops.mesh.primitive_monkey_add()\n")
    report = run_script(path, RunOptions(engine="cycles", samples=2, resolution=64), render_to=tmp_path / "c.png")
    assert report.status == "ok", report.exception
    assert report.render.engine == "CYCLES" and report.render.nonblank_fraction > 0.05


def test_files_in_the_working_directory_are_collected(script, tmp_path: Path) -> None:
    path = script(
        "import os, json\nos.makedirs('sub', exist_ok=True)\njson.dump({'n': 3}, open('sub/data.json', 'w'))\nopen('a.txt', 'w').write('a')\n"
    )
    report = run_script(path, FAST, outputs_to=tmp_path / "collected")
    assert report.status == "ok"
    assert (tmp_path / "collected" / "sub" / "data.json").read_text() == '{"n": 3}'
    assert (tmp_path / "collected" / "a.txt").read_text() == "a"
