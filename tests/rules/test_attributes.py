"""Renamed properties, removed settings, no-op calls, and the 4.1 auto smooth replacement."""

from __future__ import annotations

import pytest

from bpywright.rules.pack import drift_check

from .helpers import fired, fixed, healed_in_blender, healed_once, src


def test_renamed_properties() -> None:
    new = fixed("""
    import bpy
    ob = bpy.data.objects["Cube"]
    ob.draw_type = 'WIRE'
    ob.show_x_ray = True
    ob.dupli_type = 'VERTS'
    ob.hide = True
    ob.data.uv_textures.new()
    grp = bpy.data.groups.new("G")
    prefs = bpy.context.user_preferences
    """)
    for text in (
        "ob.display_type",
        "ob.show_in_front",
        "ob.instance_type",
        "ob.hide_viewport",
        "ob.data.uv_layers.new()",
        "bpy.data.collections.new",
        "bpy.context.preferences",
    ):
        assert text in new


def test_hide_and_faces_are_not_renamed_on_other_types() -> None:
    old = """
    import bmesh
    bm = bmesh.new()
    for f in bm.faces:
        f.hide = True
    """
    assert fixed(old) == fixed(old).replace("polygons", "faces") and "hide_viewport" not in fixed(old)


def test_removed_settings_are_dropped_on_known_structs() -> None:
    old = """
    import bpy
    scene = bpy.context.scene
    scene.render.tile_x = 64
    scene.render.resolution_x = 640
    scene.eevee.use_bloom = True
    mat = bpy.data.materials.new("M")
    mat.use_shadeless = True
    bpy.types.Scene.my_setting = bpy.props.IntProperty()
    scene.my_setting = 3
    """
    assert "missing-property" in fired(old)
    new = fixed(old)
    assert "tile_x" not in new and "use_bloom" not in new and "use_shadeless" not in new
    assert "scene.render.resolution_x = 640" in new and "scene.my_setting = 3" in new


@pytest.mark.blender
def test_a_scene_guessed_from_a_name_alone_is_not_sure_where_another_struct_has_the_property(blender_run) -> None:
    """A generator's `scene_root = make_empty(...)` is an Object: 'Scene has no property "location"' blocked a script that runs."""
    script = src("""
    import bpy
    def make_empty(name):
        empty = bpy.data.objects.new(name, None)
        bpy.context.scene.collection.objects.link(empty)
        return empty
    scene_root = make_empty("root")
    scene_root.location = (0, 0, 1)
    scene_root.scale = (2, 2, 2)
    scene_root.use_sky_blend = True
    """)
    hits = [d for d in drift_check(script) if d.code == "missing-property"]
    assert [h.line for h in hits] == [9], hits  # a name no struct has is still sure: use_sky_blend (2.7x World)
    report = blender_run(script.replace("scene_root.use_sky_blend = True\n", ""))
    assert report.ok, report.exception


def test_missing_property_from_the_runtime_spreads_to_the_same_receiver() -> None:
    old = """
    import bpy
    sun = make_light()
    sun.distance = 20
    sun.energy = 2
    sun.distance = 25
    other.distance = 1
    sun.use_specular = False
    other.use_specular = False
    mat.raytrace_mirror.use = True
    """
    result = healed_once(old, "AttributeError", "'SunLight' object has no attribute 'distance'", 3)
    assert "sun.distance" not in result.script and "other.distance = 1" in result.script  # other types have a distance
    result = healed_once(old, "AttributeError", "'SunLight' object has no attribute 'use_specular'", 7)
    assert "use_specular" not in result.script  # no type has it any more
    result = healed_once(old, "AttributeError", "'Material' object has no attribute 'raytrace_mirror'", 9)
    assert "raytrace_mirror" not in result.script and "sun.energy = 2" in result.script


def test_runtime_rename_checks_the_struct() -> None:
    old = "import bpy\nps = get()\nps.draw_method = 'DOT'\nobj.locaton = (1, 2, 3)\n"
    result = healed_once(old, "AttributeError", "'ParticleSettings' object has no attribute 'draw_method'", 3)
    assert "ps.display_method = 'DOT'" in result.script
    result = healed_once(old, "AttributeError", "'Object' object has no attribute 'locaton'", 4)
    assert "obj.location = (1, 2, 3)" in result.script


def test_a_guessed_property_name_becomes_the_real_one_only_where_the_run_failed() -> None:
    """A small model's drum kit set `stick.rotation`; a light's `intensity`: names LLMs guess, fixed on the failing line."""
    old = "import bpy\nstick = get()\nstick.rotation = (0.5, 0, 0)\nlamp = light()\nlamp.data.intensity = 3\nother.rotation = 1\n"
    result = healed_once(old, "AttributeError", "'Object' object has no attribute 'rotation'", 3)
    assert "stick.rotation_euler = (0.5, 0, 0)" in result.script and "other.rotation = 1" in result.script
    result = healed_once(old, "AttributeError", "'PointLight' object has no attribute 'intensity'", 5)
    assert "lamp.data.energy = 3" in result.script
    assert "renamed-attribute" not in fired(old)  # never without the run: `rotation` is real on other types
    result = healed_once(old, "AttributeError", "'Scene' object has no attribute 'rotation'", 3)
    assert "stick.rotation = (0.5, 0, 0)" in result.script or "stick.rotation" not in result.script  # Scene has no alias
    assert "rotation_euler" not in result.script
    # A small model's microscope linked a part into "the stage's collection": an object has collections it is in.
    old = "import bpy\nstage = add_floor(1.0)\nstage.collection.objects.link(eyepiece)\n"
    result = healed_once(old, "AttributeError", "'Object' object has no attribute 'collection'", 3)
    assert "stage.users_collection[0].objects.link(eyepiece)" in result.script
    # A small model's hamburger (three heal rounds, and the loop ended on it): a material appended to the object, not its mesh.
    old = "import bpy\nbun = make_bun()\nbun.materials.append(bread)\n"
    result = healed_once(old, "AttributeError", "'Object' object has no attribute 'materials'", 3)
    assert "bun.data.materials.append(bread)" in result.script
    old = "import bpy\nlid = make_lid()\nlid.scene.collection.objects.link(knob)\n"
    result = healed_once(old, "AttributeError", "'Object' object has no attribute 'scene'", 3)
    assert "lid.users_scene[0].collection.objects.link(knob)" in result.script


def test_auto_smooth_becomes_sharp_edges_by_angle() -> None:
    old = """
    import bpy
    import math
    me = bpy.data.objects["Cube"].data
    me.use_auto_smooth = True
    me.auto_smooth_angle = math.radians(40)
    me.calc_normals_split()
    """
    assert {"auto-smooth", "removed-noop-call"} <= fired(old)
    assert "auto-smooth" not in fired(old, target="4.0")
    new = fixed(old)
    assert "me.set_sharp_from_angle(angle=math.radians(40))" in new and "auto_smooth" not in new and "calc_normals_split" not in new


def test_moved_settings_follow_their_new_home() -> None:
    new = fixed("""
    import bpy
    scene = bpy.context.scene
    scene.eevee.use_motion_blur = True
    scene.render.alpha_mode = 'TRANSPARENT'
    """)
    assert "scene.render.use_motion_blur = True" in new and "scene.render.film_transparent = True" in new


@pytest.mark.blender
def test_on_real_blender_guessed_names_fail_and_the_healed_script_runs(blender_run) -> None:
    guessed = src("""
    import bpy
    scene = bpy.context.scene
    stage = bpy.data.objects.new("Stage", None)
    scene.collection.objects.link(stage)
    eyepiece = bpy.data.objects.new("Eyepiece", None)
    scene.collection.objects.link(eyepiece)
    stage.collection.objects.link(eyepiece)
    stick = bpy.data.objects.new("Stick", None)
    scene.collection.objects.link(stick)
    stick.rotation = (0.5, 0.0, 0.0)
    bun = bpy.data.objects.new("Bun", bpy.data.meshes.new("Bun"))
    scene.collection.objects.link(bun)
    bun.materials.append(bpy.data.materials.new("Bread"))
    """)
    check = "assert abs(bpy.data.objects['Stick'].rotation_euler.x - 0.5) < 1e-6\nassert bpy.data.objects['Bun'].data.materials[0].name == 'Bread'\n"
    outcome, _ = healed_in_blender(blender_run, guessed, "no attribute 'collection'", check=check, max_rounds=5)
    rules = [["renamed-attribute"], ["link-already-linked"], ["renamed-attribute"], ["renamed-attribute"]]
    assert [[a.rule for a in r.applied] for r in outcome.rounds] == rules


@pytest.mark.blender
def test_on_real_blender_an_objects_scene_and_its_active_object_are_healed_in_two_steps(blender_run) -> None:
    """A small model's storage box ended three heal rounds on `obj.scene.collection.objects.active = obj`."""
    guessed = src("""
    import bpy
    lid = bpy.data.objects.new("Lid", bpy.data.meshes.new("Lid"))
    bpy.context.scene.collection.objects.link(lid)
    lid.scene.collection.objects.active = lid
    """)
    check = "assert bpy.context.view_layer.objects.active.name == 'Lid'\n"
    outcome, _ = healed_in_blender(blender_run, guessed, "no attribute 'scene'", check=check, max_rounds=3)
    assert [[a.rule for a in r.applied] for r in outcome.rounds] == [["renamed-attribute"], ["scene-objects-active"]]
