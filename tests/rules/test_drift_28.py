"""2.80 rules: scene objects, selection, active object, scene.update, cursor, layers, render layers, handlers, lamps."""

from __future__ import annotations

import pytest

from .helpers import fired, fixed, healed_in_blender, healed_once, src


def test_scene_objects_link_becomes_collection_link() -> None:
    old = """
    import bpy
    ob = bpy.data.objects.new("O", None)
    bpy.context.scene.objects.link(ob)
    scene = bpy.context.scene
    scene.objects.link(ob)
    coll = bpy.data.collections.new("C")
    coll.objects.link(ob)
    """
    assert "scene-objects-link" in fired(old)
    new = fixed(old)
    assert "bpy.context.collection.objects.link(ob)" in new
    assert "scene.collection.objects.link(ob)" in new
    assert "coll.objects.link(ob)" in new  # a collection's link is left alone


def test_scene_objects_unlink_loops_over_users_collection() -> None:
    new = fixed("""
    import bpy
    scn = bpy.context.scene
    for obj in bpy.data.objects:
        scn.objects.unlink(obj)
    """)
    assert "for _coll in list(obj.users_collection):" in new and "_coll.objects.unlink(obj)" in new


@pytest.mark.blender
def test_scene_objects_remove_deletes_the_object(blender_run) -> None:
    """A small model's mug handle (generation benchmark, its last regeneration): scene.objects.remove(obj), never a method."""
    old = src("""
    import bpy
    scene = bpy.context.scene
    obj = bpy.data.objects.new("Scratch", bpy.data.meshes.new("Scratch"))
    scene.collection.objects.link(obj)
    scene.objects.remove(obj)
    """)
    assert "bpy.data.objects.remove(obj, do_unlink=True)\n" in fixed(old)
    healed_in_blender(blender_run, old, 'attribute "remove" not found', check="assert 'Scratch' not in bpy.data.objects\n")


def test_select_set_and_get_only_on_objects() -> None:
    old = """
    import bpy
    obj = bpy.data.objects["Cube"]
    obj.select = True
    print(obj.select)
    for v in obj.data.vertices:
        v.select = True
    """
    new = fixed(old)
    assert "obj.select_set(True)" in new and "print(obj.select_get())" in new
    assert "v.select = True" in new  # vertices still have .select


def test_unknown_receiver_select_is_fixed_only_at_the_failing_line() -> None:
    old = """
    import bpy
    thing = bpy.context.selected_objects[0]
    thing.select = False
    other = make()
    other.select = False
    """
    assert "object-select" not in fired("import bpy\nx = f()\nx.select = True\n")
    result = healed_once(old, "AttributeError", "'Object' object has no attribute 'select'", 3)
    assert "thing.select_set(False)" in result.script and "other.select = False" in result.script
    assert result.explained == "object-select"


def test_active_object_and_update_move_to_the_view_layer() -> None:
    new = fixed("""
    import bpy
    bpy.context.scene.objects.active = bpy.data.objects["Cube"]
    scene = bpy.context.scene
    print(scene.objects.active.name)
    scene.update()
    bpy.context.scene.update()
    """)
    assert new.count("bpy.context.view_layer.objects.active") == 2
    assert new.count("bpy.context.view_layer.update()") == 2


def test_cursor_layers_render_layers_handlers() -> None:
    new = fixed("""
    import bpy
    scene = bpy.context.scene
    scene.cursor_location = (1, 2, 3)
    scene.layers[2] = True
    bpy.data.objects["Cube"].layers = [True] + [False] * 19
    bpy.ops.object.select_by_layer(layers=3)
    scene.render.layers["RenderLayer"].use_pass_z = True
    bpy.app.handlers.scene_update_post.append(print)
    """)
    assert "scene.cursor.location = (1, 2, 3)" in new
    assert "scene.layers" not in new and ".layers =" not in new
    assert "bpy.ops.object.select_all(action='SELECT')" in new
    assert "scene.view_layers['ViewLayer'].use_pass_z = True" in new
    assert "bpy.app.handlers.depsgraph_update_post.append(print)" in new


def test_lamps_become_lights() -> None:
    old = """
    import bpy
    data = bpy.data.lamps.new("L", type='HEMI')
    bpy.ops.object.lamp_add(type='POINT')
    lamps = [o for o in bpy.data.objects if o.type == 'LAMP']
    key = bpy.data.objects['Lamp']
    """
    assert {"lamps-to-lights", "operator-renamed"} <= fired(old)
    new = fixed(old)
    assert "bpy.data.lights.new(\"L\", type='SUN')" in new
    assert "bpy.ops.object.light_add(type='POINT')" in new
    assert "o.type == 'LIGHT'" in new and 'bpy.data.objects["Light"]' in new


def test_untouched_lines_stay_byte_identical() -> None:
    old = src("""
    import bpy   # keep   this comment
    x = [1,2,  3]
    bpy.context.scene.objects.link(bpy.data.objects["Cube"])
    def f( a ):
        return a*2   # spacing kept
    """)
    new = fixed(old)
    kept = [line for line in old.splitlines() if "objects.link" not in line]
    assert all(line in new.splitlines() for line in kept)


@pytest.mark.blender
def test_an_assigned_active_object_is_set_on_the_view_layer(blender_run) -> None:
    """`bpy.context.object.active_object = cap` (a small model's bottle) and `bpy.context.active_object = cap`."""
    for receiver in ("bpy.context", "bpy.context.object"):
        old = f"import bpy\ncap = bpy.data.objects.new('Cap', None)\nbpy.context.scene.collection.objects.link(cap)\n{receiver}.active_object = cap\n"
        assert "active-object-assigned" in fired(old)
        assert fixed(old).endswith("bpy.context.view_layer.objects.active = cap\n")
        outcome, _ = healed_in_blender(blender_run, old)
        assert {a.rule for r in outcome.rounds for a in r.applied} == {"active-object-assigned"}
    assert "active-object-assigned" not in fired("import bpy\nobj = bpy.context.active_object\n")  # reading it is fine
