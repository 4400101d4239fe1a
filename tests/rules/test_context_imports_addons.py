"""Headless context (override dicts, viewport operators, active object, edit mode), missing imports, add-on registration."""

from __future__ import annotations

import pytest

from .helpers import fired, fixed, healed_in_blender, healed_once, src


def test_override_dict_becomes_temp_override() -> None:
    new = fixed("""
    import bpy
    for area in bpy.context.screen.areas:
        if area.type == 'VIEW_3D':
            ctx = bpy.context.copy()
            ctx['area'] = area
            bpy.ops.view3d.view_all(ctx, center=True)
            bpy.ops.object.join(ctx)
    bpy.ops.object.select_all('INVOKE_DEFAULT', action='SELECT')
    """)
    assert "with bpy.context.temp_override(**ctx):\n            bpy.ops.view3d.view_all(center=True)" in new
    assert "with bpy.context.temp_override(**ctx):\n            bpy.ops.object.join()" in new
    assert "select_all('INVOKE_DEFAULT', action='SELECT')" in new  # an execution context string is not an override


def test_viewport_operators_run_under_a_helper_override_once() -> None:
    new = fixed("""
    import bpy

    bpy.ops.view3d.snap_cursor_to_center()
    bpy.ops.anim.keyframe_insert_menu(type='Location')
    """)
    assert new.count("def _view3d_context():") == 1
    assert "with bpy.context.temp_override(**_view3d_context()):\n    bpy.ops.view3d.snap_cursor_to_center()" in new
    assert "with bpy.context.temp_override(**_view3d_context()):\n    bpy.ops.anim.keyframe_insert_menu(type='Location')" in new


def test_space_data_settings_are_dropped_headless() -> None:
    new = fixed("import bpy\nbpy.context.space_data.show_floor = False\nprint(1)\n")
    assert "space_data" not in new and "print(1)" in new


def test_missing_active_object_and_edit_mode_from_runtime_errors() -> None:
    old = """
    import bpy
    me = bpy.data.meshes.new("M")
    obj = bpy.data.objects.new("O", me)
    bpy.context.collection.objects.link(obj)
    bpy.ops.object.modifier_add(type='BEVEL')
    bpy.ops.mesh.subdivide()
    bpy.ops.mesh.remove_doubles()
    print("done")
    """
    result = healed_once(old, "RuntimeError", "Operator bpy.ops.object.modifier_add.poll() Context missing active object", 5)
    assert "bpy.context.view_layer.objects.active = obj\nobj.select_set(True)\nbpy.ops.object.modifier_add" in result.script
    result = healed_once(old, "RuntimeError", "Operator bpy.ops.mesh.subdivide.poll() failed, context is incorrect", 6)
    expected = (
        "mode_set(mode='EDIT')\nbpy.ops.mesh.subdivide()\nbpy.ops.mesh.remove_doubles()\nbpy.ops.object.mode_set(mode='OBJECT')\nprint"
    )
    assert expected in result.script


def test_the_object_made_through_the_prompts_link_helper_is_made_active() -> None:
    """The generator prompt's own idiom, `plate = link(bpy.data.objects.new(...))`, makes the object (a small model's storage box)."""
    old = """
    import bpy

    def link(obj):
        bpy.context.scene.collection.objects.link(obj)
        return obj

    latch = link(bpy.data.objects.new("Latch", bpy.data.meshes.new("Latch")))
    bpy.ops.object.modifier_add(type="BOOLEAN")
    """
    result = healed_once(old, "RuntimeError", "Operator bpy.ops.object.modifier_add.poll() Context missing active object", 8)
    assert "bpy.context.view_layer.objects.active = latch\nlatch.select_set(True)\nbpy.ops.object.modifier_add" in result.script
    called = old.replace('link(bpy.data.objects.new("Latch", bpy.data.meshes.new("Latch")))', "link(make())")
    assert "active-object-missing" not in {r.rule for r in healed_once(called, "RuntimeError", "Context missing active object", 8).applied}


def test_missing_imports_are_added_after_the_existing_ones() -> None:
    old = """
    import bpy

    x = math.radians(30) + radians(10)
    v = Vector((1, 2, 3)) * random.random()
    C.object.location = v
    def f(math):
        return math
    """
    assert "missing-import" in fired(old)
    new = fixed(old)
    head = new.split("\n\n")[0]
    assert head.splitlines() == [
        "import bpy",
        "import math",
        "import random",
        "from math import radians",
        "from mathutils import Vector",
        "C = bpy.context",
    ]


def test_defined_names_are_not_imported() -> None:
    old = src("""
    import bpy
    from math import *
    pi2 = 2 * pi
    for random in range(3):
        print(random)
    """)
    assert "missing-import" not in fired(old)


def test_addon_registration_drift() -> None:
    old = """
    import bpy

    class MyProps(bpy.types.PropertyGroup):
        size = bpy.props.FloatProperty(default=1.0)

    class OBJECT_OT_hello(bpy.types.Operator):
        bl_idname = "object.hello"
        bl_label = "Hello"
        count = bpy.props.IntProperty()

    def menu(self, context):
        pass

    def register():
        bpy.utils.register_module(__name__)
        bpy.types.INFO_MT_mesh_add.append(menu)

    def unregister():
        bpy.utils.unregister_module(__name__)
    """
    assert {"register-module", "menu-renamed", "props-annotations"} <= fired(old)
    new = fixed(old)
    assert "size: bpy.props.FloatProperty(default=1.0)" in new and "count: bpy.props.IntProperty()" in new
    assert "for _cls in ((MyProps, OBJECT_OT_hello)):\n        bpy.utils.register_class(_cls)" in new
    assert "for _cls in reversed((MyProps, OBJECT_OT_hello)):\n        bpy.utils.unregister_class(_cls)" in new
    assert "bpy.types.VIEW3D_MT_mesh_add.append(menu)" in new


def test_bmesh_radius_and_lookup_table() -> None:
    old = """
    import bmesh
    bm = bmesh.new()
    bmesh.ops.create_cone(bm, segments=8, diameter1=1.0, diameter2=0.5, depth=2)
    bmesh.ops.create_uvsphere(bm, u_segments=8, v_segments=6, diameter=2)
    bm.verts[0].co.z = 1
    """
    new = fixed(old)
    assert "radius1=1.0, radius2=0.5" in new and "diameter=2" not in new and "radius=2" in new
    result = healed_once(old, "IndexError", "BMElemSeq[index]: outdated internal index table, run ensure_lookup_table() first", 5)
    assert "bm.verts.ensure_lookup_table()\nbm.verts[0].co.z = 1" in result.script


# What a small model wrote in the generation benchmark: the prompt's link helper, without the `scene` it needs.
UNBOUND_SCENE = src("""
import bpy


def link(obj):
    scene.collection.objects.link(obj)
    return obj


def add(scene_name):
    return link(bpy.data.objects.new(scene_name, bpy.data.meshes.new(scene_name)))


arrow = add("Arrow")
""")


@pytest.mark.blender
def test_an_unbound_scene_is_bound_to_the_context_scene(blender_run) -> None:
    assert "missing-import" in fired(UNBOUND_SCENE)
    new = fixed(UNBOUND_SCENE)
    assert new.count("scene = bpy.context.scene\n") == 1 and new.index("scene = bpy.context.scene") < new.index("def link")
    healed_in_blender(blender_run, UNBOUND_SCENE, "name 'scene' is not defined")


def test_a_scene_parameter_or_assignment_is_left_alone() -> None:
    bound = src("""
    import bpy

    def on_frame(scene, depsgraph):
        scene.frame_current += 0

    scene = bpy.context.scene
    scene.render.resolution_x = 64
    """)
    assert "missing-import" not in fired(bound)
