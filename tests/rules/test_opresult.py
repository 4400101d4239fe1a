"""Operator results used as objects: the call stays, the name is bound to the active object it made."""

from __future__ import annotations

from .helpers import fired, fixed, healed_once

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
