"""A modifier or constraint of a type Blender never had: left out with its setup, only where a run failed on it."""

from __future__ import annotations

import pytest

from .helpers import fired, healed_in_blender, healed_once, src

# A small model's syringe (generation benchmark): "connect" the plunger to the needle with a modifier that does not exist.
SYRINGE = src("""
import bpy

bpy.ops.mesh.primitive_cylinder_add(radius=0.2, depth=2.0)
needle = bpy.context.active_object
bpy.ops.mesh.primitive_cube_add(size=0.5, location=(0.0, 0.0, 1.5))
plunger = bpy.context.active_object
plunger.name = "Plunger"
bpy.context.object.modifiers.new("Connect", type='CONNECT')
bpy.context.object.modifiers["Connect"].object = needle
bevel = plunger.modifiers.new("Round", "BEVEL")
bevel.width = 0.05
plunger.location = (0.0, 0.0, 1.6)
""")
CONNECT = (
    'ObjectModifiers.new(): error with keyword argument "type" -  enum "CONNECT" not found in '
    "('DATA_TRANSFER', 'MESH_CACHE', 'ARRAY', 'BEVEL', 'BOOLEAN', 'SUBSURF', 'WAVE')"
)


def test_never_a_finding_without_the_run() -> None:
    assert "made-up-modifier" not in fired(SYRINGE)


def test_the_made_up_modifier_and_its_lookup_are_left_out_the_rest_kept() -> None:
    healed = healed_once(SYRINGE, "TypeError", CONNECT, 8)
    assert [r.rule for r in healed.applied] == ["made-up-modifier"] and healed.explained == "made-up-modifier"
    assert "CONNECT" not in healed.script and 'modifiers["Connect"]' not in healed.script
    assert 'bevel = plunger.modifiers.new("Round", "BEVEL")\nbevel.width = 0.05\nplunger.location' in healed.script


def test_a_bound_modifier_goes_with_its_setup_until_the_name_is_bound_again() -> None:
    bound = SYRINGE.replace("bpy.context.object.modifiers.new", "link = bpy.context.object.modifiers.new").replace(
        'bpy.context.object.modifiers["Connect"].object', "link.object"
    )
    bound = bound.replace("bevel = ", "link = ").replace("bevel.width", "link.width")
    healed = healed_once(bound, "TypeError", CONNECT, 8)
    assert "link.object" not in healed.script and "CONNECT" not in healed.script
    assert 'link = plunger.modifiers.new("Round", "BEVEL")\nlink.width = 0.05\n' in healed.script


def test_a_spelling_close_to_a_real_type_or_a_name_read_in_a_condition_is_not_guessed() -> None:
    close = CONNECT.replace('"CONNECT"', '"BEVELS"')
    assert "made-up-modifier" not in {r.rule for r in healed_once(SYRINGE.replace("CONNECT", "BEVELS"), "TypeError", close, 8).applied}
    tested = SYRINGE.replace("bpy.context.object.modifiers.new", "link = bpy.context.object.modifiers.new") + "if link:\n    print(1)\n"
    assert "made-up-modifier" not in {r.rule for r in healed_once(tested, "TypeError", CONNECT, 8).applied}


@pytest.mark.blender
def test_on_real_blender_the_syringe_fails_and_runs_with_its_bevel(blender_run) -> None:
    healed_in_blender(blender_run, SYRINGE, 'enum "CONNECT" not found', check="assert [m.type for m in plunger.modifiers] == ['BEVEL']\n")
