"""Operator results used as objects: the call stays, the name is bound to the active object it made."""

from __future__ import annotations

import pytest

from .helpers import fired, fixed, healed_in_blender, healed_once, src

TABLE = """
import bpy
top = bpy.ops.mesh.primitive_cube_add(size=2, location=(0, 0, 1))
top.name = "TableTop"
for i in range(4):
    leg = bpy.ops.mesh.primitive_cylinder_add(radius=0.1, depth=1)
    leg.data.materials.append(mat)
"""


def test_an_operator_result_used_as_an_object_becomes_the_active_object() -> None:
    assert "operator-result-as-object" in fired(TABLE)
    new = fixed(TABLE)
    assert "bpy.ops.mesh.primitive_cube_add(size=2, location=(0, 0, 1))\ntop = bpy.context.active_object\ntop.name" in new
    assert "    bpy.ops.mesh.primitive_cylinder_add(radius=0.1, depth=1)\n    leg = bpy.context.active_object\n" in new
    compile(new, "fixed.py", "exec")


def test_a_result_only_compared_to_finished_is_left_alone() -> None:
    checked = """
    import bpy
    result = bpy.ops.mesh.primitive_cube_add()
    assert result == {'FINISHED'}
    """
    assert "operator-result-as-object" not in fired(checked)


def test_duplicate_is_fixed_only_where_the_run_failed() -> None:
    dup = """
    import bpy
    copy = bpy.ops.object.duplicate()
    copy.location.x += 2
    """
    assert "operator-result-as-object" not in fired(dup)
    healed = healed_once(dup, "AttributeError", "'set' object has no attribute 'location'", 2)
    assert "copy = bpy.context.active_object" in healed.script and "operator-result-as-object" in {r.rule for r in healed.applied}


# A small model's business card (generation benchmark, three heal rounds): a mesh primitive asked of bpy.data, wrapped in link().
CARD = src("""
import bpy

def link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj

body = link(bpy.data.meshes.primitive_cube_add(size=2.0, location=(0.0, 0.0, 0.0)))
body.name = "Body"
bpy.data.curves.primitive_bezier_circle_add(radius=0.5)
""")
ON_DATA = 'bpy_prop_collection: attribute "primitive_cube_add" not found'


def test_an_operator_asked_of_bpy_data_is_called_where_it_lives_and_its_object_bound() -> None:
    healed = healed_once(CARD, "AttributeError", ON_DATA, 7)
    assert [r.rule for r in healed.applied] == ["operator-on-data"] and healed.explained == "operator-on-data"
    assert "bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, 0.0))\nbody = bpy.context.active_object\n" in healed.script
    curve = healed_once(CARD, "AttributeError", ON_DATA.replace("cube", "bezier_circle"), 9)
    assert "\nbpy.ops.curve.primitive_bezier_circle_add(radius=0.5)\n" in curve.script
    assert "operator-on-data" not in fired(CARD)  # only with the run's error


@pytest.mark.blender
def test_on_real_blender_the_card_fails_and_the_fix_builds_its_body(blender_run) -> None:
    card = CARD.replace("bpy.data.curves.primitive_bezier_circle_add(radius=0.5)\n", "")
    healed_in_blender(blender_run, card, "primitive_cube_add", check="assert body.type == 'MESH' and len(body.data.vertices) == 8\n")
