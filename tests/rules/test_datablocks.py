"""Object data taken for its object: fixed only where a run failed with "'Mesh' object has no attribute 'data'"."""

from __future__ import annotations

import pytest

from bpywright.harness.report import ExceptionInfo

from .helpers import fired, fixed, healed_in_blender, healed_once, src

# What a small model wrote in the generation benchmark (and kept through three heal rounds), cut down.
DATA_OF_DATA = src("""
import bpy


def build():
    body = bpy.data.meshes.new("Body")
    body.from_pydata([(0, 0, 0), (1, 0, 0), (1, 1, 0)], [], [(0, 1, 2)])
    red = bpy.data.materials.new("Red")
    body.data.materials.append(red)
    wire = bpy.data.meshes.new("Wire")
    wire.from_pydata([(0, 0, 1), (1, 0, 1), (1, 1, 1)], [], [(0, 1, 2)])
    wire.data.materials.append(red)
    body = bpy.data.objects.new("Body", body)
    bpy.context.scene.collection.objects.link(body)
    body.data.materials.append(red)
    return body, wire


build()
""")
ERROR = "'Mesh' object has no attribute 'data'"


def test_never_a_finding_without_the_run() -> None:
    assert "data-of-data" not in fired(DATA_OF_DATA)


def test_every_data_of_a_made_datablock_is_read_as_the_datablock() -> None:
    healed = healed_once(DATA_OF_DATA, "AttributeError", ERROR, 8)
    assert [r.rule for r in healed.applied] == ["data-of-data"] and healed.explained == "data-of-data"
    assert "    body.materials.append(red)\n    wire = " in healed.script
    assert "    wire.materials.append(red)\n" in healed.script
    # once `body` is the object made from the mesh, its .data is the mesh again: left alone
    assert "    bpy.context.scene.collection.objects.link(body)\n    body.data.materials.append(red)\n" in healed.script


def test_on_the_failing_line_a_single_data_is_read_as_the_datablock() -> None:
    given = "import bpy\n\ndef paint(mesh, mat):\n    mesh.data.materials.append(mat)\n"
    healed = healed_once(given, "AttributeError", "'Curve' object has no attribute 'data'", 4)
    assert "    mesh.materials.append(mat)\n" in healed.script
    elsewhere = healed_once(given + "    other.data.materials.clear()\n", "AttributeError", ERROR, 4)
    assert "other.data.materials.clear()" in elsewhere.script  # not on the failing line, not made here: left alone


def test_an_object_s_data_is_left_alone() -> None:
    given = "import bpy\nobj = bpy.context.object\nobj.data.materials.clear()\nx = obj.data.missing\n"
    healed = healed_once(given, "AttributeError", ERROR, 4)
    assert "obj.data.materials.clear()" in healed.script


@pytest.mark.blender
def test_on_real_blender_the_old_form_fails_and_the_fix_gives_both_meshes_the_material(blender_run) -> None:
    check = "assert [m.name for m in bpy.data.meshes['Wire'].materials] == ['Red']\n"
    outcome, report = healed_in_blender(blender_run, DATA_OF_DATA, ERROR, check=check)
    assert {a.rule for r in outcome.rounds for a in r.applied} == {"data-of-data"}
    body = next(o for o in report.scene.objects if o.name == "Body")
    assert body.materials == ["Red", "Red"]


# A small model's arrow: the prompt's `link` helper given the mesh, and a scene link of a curve.
LINK_DATA = src("""
import bpy

scene = bpy.context.scene


def link(obj):
    scene.collection.objects.link(obj)
    return obj


mesh = bpy.data.meshes.new("Arrow")
mesh.from_pydata([(0, 0, 0), (1, 0, 0), (1, 1, 0)], [], [(0, 1, 2)])
arrow = link(mesh)
arrow.location = (0.0, 0.0, 1.0)
curve = bpy.data.curves.new("Path", "CURVE")
scene.collection.objects.link(curve)
""")
LINK_ERROR = "TypeError", 'CollectionObjects.link(): error with argument 1, "object" -  Function.object expected a Object type, not Mesh'


def test_a_link_of_made_data_links_an_object_made_from_it() -> None:
    assert "link-object-data" not in fired(LINK_DATA)
    healed = healed_once(LINK_DATA, *LINK_ERROR, 8)
    assert [r.rule for r in healed.applied] == ["link-object-data"]
    assert "arrow = link(bpy.data.objects.new(mesh.name, mesh))\n" in healed.script
    assert "scene.collection.objects.link(bpy.data.objects.new(curve.name, curve))\n" in healed.script
    assert "    scene.collection.objects.link(obj)\n" in healed.script  # the helper's parameter: not made data here


def test_a_link_whose_result_takes_the_datas_name_is_fixed_too() -> None:
    """A small model's hamburger ended three heal rounds on `bun = link(bun)` with bun a mesh: the name was taken as rebound
    (to what link returns) before its argument was read."""
    rebound = "import bpy\n\n\ndef build():\n    bun = bpy.data.meshes.new('Bun')\n    bun = link(bun)\n    bun.location = (0, 0, 1)\n"
    healed = healed_once(rebound, *LINK_ERROR, 6)
    assert [r.rule for r in healed.applied] == ["link-object-data"]
    assert "    bun = link(bpy.data.objects.new(bun.name, bun))\n" in healed.script


@pytest.mark.blender
def test_on_real_blender_a_link_of_mesh_data_fails_and_the_fix_links_objects(blender_run) -> None:
    check = "assert tuple(bpy.data.objects['Arrow'].location) == (0.0, 0.0, 1.0)\n"
    _, report = healed_in_blender(blender_run, LINK_DATA, "expected a Object type, not Mesh", check=check)
    arrow = next(o for o in report.scene.objects if o.name == "Arrow")
    assert arrow.type == "MESH" and arrow.faces == 1
    assert any(o.name == "Path" and o.type == "CURVE" for o in report.scene.objects)


# A small model's candy jar: the class asked to make the datablock, two ways, three heal rounds in a row.
TYPES_NEW = src("""
import bpy

camera_data = bpy.types.BlendDataCameras.new(name="Jar Camera")
camera = bpy.data.objects.new("Jar Camera", camera_data)
bpy.context.scene.collection.objects.link(camera)
sun_data = bpy.types.Light.new(name="Jar Sun", type="SUN")
bpy.types.BlendDataNodeTrees.new("Jar Nodes", "GeometryNodeTree")
""")


def test_a_class_asked_for_a_datablock_becomes_bpy_data_s_collection() -> None:
    assert "types-new" in fired(TYPES_NEW)  # sure without a run: bpy.types classes make nothing
    new = fixed(TYPES_NEW)
    assert 'bpy.data.cameras.new(name="Jar Camera")' in new and 'bpy.data.lights.new(name="Jar Sun", type="SUN")' in new
    assert 'bpy.data.node_groups.new("Jar Nodes", "GeometryNodeTree")' in new and "bpy.types." not in new
    assert "types-new" not in fired("import bpy\nbpy.types.Scene.my_prop = 1\nclass P(bpy.types.Panel):\n    pass\n")


@pytest.mark.blender
def test_on_real_blender_the_class_call_fails_and_the_fix_makes_the_datablocks(blender_run) -> None:
    assert "has no attribute 'new'" in (blender_run(TYPES_NEW).exception or ExceptionInfo(type="", message="")).message
    report = blender_run(fixed(TYPES_NEW) + "assert bpy.data.lights['Jar Sun'].type == 'SUN'\n")
    assert report.ok, report.exception


# A small model's smartwatch: a made light handed to the world's lighting settings, as if they listed the scene's lights.
ADD_DATA = src("""
import bpy

sun = bpy.data.lights.new(name="Sun", type="SUN")
sun.energy = 3.0
bpy.context.scene.world.light_settings.append(sun)
mat = bpy.data.materials.new("Band")
""")
ADD_ERROR = "AttributeError", "'WorldLighting' object has no attribute 'append'"


def test_made_data_appended_to_a_guessed_holder_is_linked_as_an_object() -> None:
    assert "add-data-to-scene" not in fired(ADD_DATA)  # only with the run's error
    healed = healed_once(ADD_DATA, *ADD_ERROR, 5)
    assert [r.rule for r in healed.applied] == ["add-data-to-scene"]
    assert "bpy.context.scene.collection.objects.link(bpy.data.objects.new(sun.name, sun))\n" in healed.script
    assert "light_settings" not in healed.script
    materials = "import bpy\nmesh = bpy.data.meshes.new('M')\nmat = bpy.data.materials.new('R')\nmesh.materials.append(mat)\n"
    assert not healed_once(materials, "AttributeError", "'Mesh' object has no attribute 'append'", 4).applied  # not made object data


@pytest.mark.blender
def test_on_real_blender_appending_a_light_fails_and_the_fix_lights_the_scene(blender_run) -> None:
    setup = "import bpy\nif bpy.context.scene.world is None:\n    bpy.context.scene.world = bpy.data.worlds.new('World')\n"
    script = ADD_DATA.replace("import bpy\n", setup, 1)
    check = "assert bpy.data.objects['Sun'].data.energy == 3.0\n"
    _, report = healed_in_blender(blender_run, script, "has no attribute 'append'", check=check)
    assert any(o.name == "Sun" and o.type == "LIGHT" for o in report.scene.objects)
