"""Operator drift: size/radius/diameter per primitive, view_align, recorded transform keywords, renamed operators."""

from __future__ import annotations

import pytest

from .helpers import fired, fixed, healed_in_blender, healed_once, src


def test_primitive_size_keywords_follow_each_operators_parameters() -> None:
    old = """
    import bpy
    bpy.ops.mesh.primitive_cube_add(radius=1.5)
    bpy.ops.mesh.primitive_plane_add(radius=r)
    bpy.ops.mesh.primitive_uv_sphere_add(size=0.8)
    bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=2, size=2)
    bpy.ops.mesh.primitive_cylinder_add(diameter=0.6, depth=2)
    bpy.ops.mesh.primitive_cone_add(radius=1, depth=2)
    bpy.ops.mesh.primitive_cube_add(size=2)
    """
    assert "operator-keywords" in fired(old)
    new = fixed(old)
    assert "primitive_cube_add(size=3)" in new and "primitive_plane_add(size=2 * r)" in new
    assert "primitive_uv_sphere_add(radius=0.8)" in new and "primitive_ico_sphere_add(subdivisions=2, radius=2)" in new
    assert "primitive_cylinder_add(radius=0.3, depth=2)" in new and "primitive_cone_add(radius1=1, depth=2)" in new
    assert "primitive_cube_add(size=2)" in new


def test_recorded_279_operators() -> None:
    new = fixed("""
    import bpy
    bpy.ops.mesh.primitive_monkey_add(view_align=True, enter_editmode=False, layers=(True,) + (False,) * 19)
    bpy.ops.transform.rotate(value=0.5, axis=(0, 0, 1), constraint_orientation='GLOBAL', proportional='CONNECTED')
    bpy.ops.mesh.extrude_region_move(TRANSFORM_OT_translate={"value": (0, 0, 1), "constraint_orientation": 'GLOBAL'})
    bpy.ops.object.modifier_apply(apply_as='DATA', modifier="Subdivision")
    """)
    assert "primitive_monkey_add(align='VIEW', enter_editmode=False)" in new
    assert (
        "transform.rotate(value=0.5, orient_axis='Z', orient_type='GLOBAL', use_proportional_edit=True, use_proportional_connected=True)"
        in new
    )
    assert "TRANSFORM_OT_translate={'value': (0, 0, 1), 'orient_type': 'GLOBAL'" in new and "constraint_orientation" not in new
    assert 'modifier_apply(modifier="Subdivision")' in new


def test_renamed_io_operators_and_their_keywords() -> None:
    new = fixed("""
    import bpy
    bpy.ops.export_scene.obj(filepath="x.obj", use_selection=True, axis_forward='-Z', axis_up='Y')
    bpy.ops.object.select_name(name="Cube")
    """)
    assert "bpy.ops.wm.obj_export(filepath=\"x.obj\", export_selected_objects=True, forward_axis='NEGATIVE_Z', up_axis='Y')" in new
    assert 'bpy.ops.object.select_pattern(pattern="Cube")' in new


def test_function_keywords_from_runtime_errors() -> None:
    old = """
    import bpy
    me = bpy.data.meshes.new("M")
    me.update(calc_edges=True, calc_tessface=True)
    me.uv_layers.new("UV")
    bpy.data.objects.remove(bpy.data.objects["Cube"], True)
    """
    msg = "Mesh.update(): was called with invalid keyword argument(s) (calc_tessface), expected (calc_edges, calc_edges_loose)"
    assert "me.update(calc_edges=True)" in healed_once(old, "TypeError", msg, 3).script
    msg = 'UVLoopLayers.new(): required parameter "name" to be a keyword argument!'
    assert 'me.uv_layers.new(name="UV")' in healed_once(old, "TypeError", msg, 4).script
    msg = 'BlendDataObjects.remove(): required parameter "do_unlink" to be a keyword argument!'
    assert 'remove(bpy.data.objects["Cube"], do_unlink=True)' in healed_once(old, "TypeError", msg, 5).script


def test_to_mesh_with_scene_makes_a_new_mesh() -> None:
    new = fixed("""
    import bpy
    ob = bpy.data.objects["Cube"]
    me = ob.to_mesh(bpy.context.scene, True, 'PREVIEW')
    raw = ob.to_mesh(scene=bpy.context.scene, apply_modifiers=False, settings='RENDER')
    """)
    assert "me = bpy.data.meshes.new_from_object(ob.evaluated_get(bpy.context.evaluated_depsgraph_get()))" in new
    assert "raw = bpy.data.meshes.new_from_object(ob)" in new


def test_bevel_vertex_only_became_affect() -> None:
    assert "bpy.ops.mesh.bevel(offset=0.1, affect='VERTICES')" in fixed("import bpy\nbpy.ops.mesh.bevel(offset=0.1, vertex_only=True)\n")


# A small model's storage box: the operator's name called on the active object, then the modifier looked up by its default name.
OBJECT_OPERATOR = src("""
import bpy

bpy.ops.mesh.primitive_cube_add(size=1.0)
box = bpy.context.object
bpy.ops.mesh.primitive_cube_add(size=0.5, location=(0.0, 0.0, 0.5))
lid = bpy.context.object
bpy.ops.object.modifier_add(type="BEVEL")
box.modifier_add(type="BOOLEAN")
box.modifiers["Boolean"].object = lid
bpy.context.object.modifier_add("SUBSURF")
bpy.context.object.modifiers["Subdivision"].levels = 1
box.constraint_add(type='TRACK_TO')
""")


def test_operator_names_called_on_an_object_become_its_collections_new() -> None:
    assert "object-operator-call" not in fired(OBJECT_OPERATOR)  # only on the run's AttributeError
    healed = healed_once(OBJECT_OPERATOR, "AttributeError", "'Object' object has no attribute 'modifier_add'", 8)
    assert [r.rule for r in healed.applied] == ["object-operator-call"]
    assert "box.modifiers.new(name='Boolean', type=\"BOOLEAN\")\n" in healed.script
    assert "bpy.context.object.modifiers.new(name='Subdivision', type=\"SUBSURF\")\n" in healed.script
    assert "box.constraint_add(type='TRACK_TO')" in healed.script  # not what this run failed on
    assert 'bpy.ops.object.modifier_add(type="BEVEL")' in healed.script  # the operator itself is left alone


@pytest.mark.blender
def test_on_real_blender_operator_names_on_an_object_fail_and_the_fix_builds_the_modifiers(blender_run) -> None:
    outcome, report = healed_in_blender(blender_run, OBJECT_OPERATOR, "no attribute 'modifier_add'", max_rounds=3)
    assert "box.constraints.new(type='TRACK_TO')" in outcome.script  # the next run's failure, the same rule
    assert report.scene is not None
    # both found again by the names Blender would have given them (modifiers["Boolean"], modifiers["Subdivision"]: no KeyError)
    assert {"BOOLEAN", "SUBSURF"} <= {m for o in report.scene.objects for m in o.modifiers}


SUBSURF_BY_OLD_NAME = src("""
    import bpy
    bpy.ops.mesh.primitive_cube_add()
    bpy.ops.object.modifier_add(type='SUBSURF')
    bpy.context.object.modifiers["Subsurf"].levels = 3
    """)


def test_a_modifier_named_by_its_old_default_name_changes_only_where_the_run_failed() -> None:
    named = src("""
        import bpy
        ob = bpy.context.object
        ob.modifiers.new(name="Subsurf", type='SUBSURF')
        ob.modifiers["Subsurf"].levels = 2
        """)
    assert "modifier-default-name" not in fired(named)  # a name the script gave is not Blender's default
    result = healed_once(SUBSURF_BY_OLD_NAME, "KeyError", 'bpy_prop_collection[key]: key "Subsurf" not found', 4)
    assert result.explained == "modifier-default-name"
    assert 'bpy.context.object.modifiers["Subdivision"].levels = 3' in result.script


@pytest.mark.blender
def test_a_modifier_found_by_its_2_7x_default_name_heals_on_blender(blender_run) -> None:
    """Blender 2.90 renamed the default name of a new Subdivision Surface modifier from "Subsurf" to "Subdivision"."""
    check = "assert bpy.context.object.modifiers['Subdivision'].levels == 3\n"
    outcome, _ = healed_in_blender(blender_run, SUBSURF_BY_OLD_NAME, 'key "Subsurf" not found', check=check)
    assert outcome.rounds[0].explained == "modifier-default-name"
