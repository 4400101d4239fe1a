"""No rule makes a script run by doing less of what the user asked for: renders, file writes, exports and saves survive
every rule, each given a failed run's evidence on every line; a headless viewport render (`bpy.ops.render.opengl`,
which fails under `blender -b`) becomes a Workbench render that writes the image, on real Blender."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.harness.report import RunReport
from bpywright.rules.base import FixScope
from bpywright.rules.pack import ALL_RULES, apply_rules, drift_check, fix_all

from .helpers import healed_in_blender, src

PURPOSE = src("""
    import bpy
    scene = bpy.context.scene
    scene.render.filepath = "/tmp/out/frame.png"
    bpy.ops.render.render(write_still=True)
    bpy.ops.render.render(animation=True)
    bpy.data.images["Render Result"].save_render("/tmp/out/again.png")
    bpy.ops.export_scene.gltf(filepath="/tmp/out/scene.glb")
    bpy.ops.wm.obj_export(filepath="/tmp/out/scene.obj")
    bpy.ops.wm.save_as_mainfile(filepath="/tmp/out/scene.blend")
    with open("/tmp/out/stats.txt", "w") as fh:
        fh.write(str(len(bpy.data.objects)))
    """)
KEPT = (
    "bpy.ops.render.render(write_still=True)",
    "bpy.ops.render.render(animation=True)",
    'save_render("/tmp/out/again.png")',
    "export_scene.gltf(",
    "wm.obj_export(",
    "wm.save_as_mainfile(",
    "fh.write(",
)
EVERY_LINE = frozenset(range(1, PURPOSE.count("\n") + 2))


@pytest.mark.parametrize("rule", ALL_RULES, ids=lambda r: r.id)
def test_no_rule_leaves_out_a_render_write_export_or_save(rule) -> None:
    errors = [p.replace("\\", "") for p in rule.explains] or [""]
    for error in errors:
        out, _ = apply_rules(PURPOSE, [(rule, FixScope("4.5", EVERY_LINE, error))])
        missing = [k for k in KEPT if k not in out]
        assert not missing, f"{rule.id} left out {missing}"


def test_every_rule_says_what_it_leaves_out_in_words() -> None:
    for rule in ALL_RULES:
        assert not rule.leaves_out or (len(rule.leaves_out) > 20 and "render" not in rule.leaves_out.split(":")[0]), rule.id


OPENGL = src("""
    import bpy
    scene = bpy.context.scene
    scene.render.resolution_x = 64
    scene.render.resolution_y = 48
    scene.render.filepath = "//viewport.png"
    bpy.ops.render.opengl(write_still=True, view_context=True)
    """)


@pytest.mark.blender
def test_opengl_render_headless_becomes_a_workbench_render(tmp_path: Path) -> None:
    options = RunOptions(render=False, timeout=30, root=None)
    with WorkerPool(1, options) as pool:
        run: Callable[[str], RunReport] = lambda source: pool.run(source=source, options=options)  # noqa: E731
        check = "\nimport os\nassert os.path.exists('viewport.png') and scene.render.engine != 'BLENDER_WORKBENCH'\n"
        outcome, report = healed_in_blender(run, OPENGL, "Cannot use OpenGL render in background mode", check=check)
    assert outcome.rounds[0].explained == "opengl-render-headless"
    assert "_viewport_render(write_still=True, view_context=True)" in outcome.script
    assert "def _viewport_render(**options):" in outcome.script and "bpy.ops.render.opengl(**options)" in outcome.script
    assert "ran for validation" in report.stderr  # the image is written: the render ran, at validation size


def test_a_viewport_render_is_a_finding_that_never_blocks_lint() -> None:
    """An add-on's operator that renders the viewport runs in a window, where bpy.ops.render.opengl works: lint says
    what fails headless without blocking, and heal still makes the headless form."""
    addon = src("""
        import bpy
        class SnapshotOperator(bpy.types.Operator):
            bl_idname = "view3d.snapshot"
            bl_label = "Snapshot"
            def execute(self, context):
                bpy.ops.render.opengl(write_still=True)
                return {'FINISHED'}
        """)
    found = [d for d in drift_check(addon) if d.code == "opengl-render-headless"]
    assert [(d.line, d.severity) for d in found] == [(6, "advisory")]
    assert "_viewport_render(write_still=True)" in fix_all(addon)[0]
