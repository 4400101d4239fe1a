"""Misspelt names: renamed only where a run failed with NameError on them, and only to the one close bound name."""

from __future__ import annotations

import pytest

from .helpers import fired, healed_in_blender, healed_once, src

# What a small model wrote in the generation benchmark (a storage box): the constant it defined, misspelt where used.
MISSPELT = src("""
import bpy

BOX_WIDTH = 2.0
LID_THICKNESS = 0.1

bpy.ops.mesh.primitive_cube_add(size=1.0)
box = bpy.context.active_object
box.scale = (BOX_WIDTH, BOX_WIDTH, 1.0)
bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0, 0, 1.0 + LEAD_THICKNESS / 2))
lid = bpy.context.active_object
lid.scale.z = LEAD_THICKNESS
""")


def test_never_a_finding_without_a_run() -> None:
    assert "misspelt-name" not in fired(MISSPELT)


def test_every_use_of_the_misspelt_name_is_renamed() -> None:
    healed = healed_once(MISSPELT, "NameError", "name 'LEAD_THICKNESS' is not defined", 8)
    assert [r.rule for r in healed.applied] == ["misspelt-name"]
    assert "LEAD_THICKNESS" not in healed.script and healed.script.count("LID_THICKNESS") == 3
    assert healed.script.replace("LID_THICKNESS", "LEAD_THICKNESS").replace("LEAD_THICKNESS = 0.1", "LID_THICKNESS = 0.1") == MISSPELT


def test_no_guess_when_nothing_or_two_names_are_close() -> None:
    far = "import bpy\nwidth = 2\nprint(height)\n"
    assert "misspelt-name" not in {r.rule for r in healed_once(far, "NameError", "name 'height' is not defined", 3).applied}
    two = "import bpy\nleg_a = 1\nleg_b = 2\nprint(leg_c)\n"
    assert "misspelt-name" not in {r.rule for r in healed_once(two, "NameError", "name 'leg_c' is not defined", 4).applied}


def test_a_local_is_matched_in_its_function_only() -> None:
    source = src("""
    import bpy

    def make(material_name):
        mat = bpy.data.materials.new(material_nme)
        return mat

    make("Wood")
    """)
    healed = healed_once(source, "NameError", "name 'material_nme' is not defined", 4)
    assert "bpy.data.materials.new(material_name)" in healed.script


@pytest.mark.blender
def test_on_real_blender_the_script_runs_after_the_rename(blender_run) -> None:
    outcome, _ = healed_in_blender(blender_run, MISSPELT, "LEAD_THICKNESS")
    assert {a.rule for r in outcome.rounds for a in r.applied} == {"misspelt-name"}
