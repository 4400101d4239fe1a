"""A material's 'index' taken for its slot's: fixed only where a run failed with "'Material' object has no attribute 'index'"."""

from __future__ import annotations

import pytest

from .helpers import fired, healed_in_blender, healed_once, src

# What a small model wrote in the generation benchmark (and kept through three heal rounds).
MATERIAL_INDEX = src("""
import bpy

mesh = bpy.data.meshes.new("Arrow")
mesh.from_pydata([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)], [], [(0, 1, 2, 3)])
green = bpy.data.materials.new("Green")
green.diffuse_color = (0.1, 0.6, 0.2, 1.0)
red = bpy.data.materials.new("Red")
mesh.materials.append(red)
for face in mesh.polygons:
    face.material_index = green.index
arrow = bpy.data.objects.new("Arrow", mesh)
bpy.context.scene.collection.objects.link(arrow)
""")


def test_never_a_finding_without_the_run() -> None:
    assert "material-slot-index" not in fired(MATERIAL_INDEX)


def test_the_face_gets_the_index_of_the_materials_slot() -> None:
    healed = healed_once(MATERIAL_INDEX, "AttributeError", "'Material' object has no attribute 'index'", 10)
    assert [r.rule for r in healed.applied] == ["material-slot-index"] and healed.explained == "material-slot-index"
    assert "    if mesh.materials.find(green.name) < 0:\n        mesh.materials.append(green)\n" in healed.script
    assert "    face.material_index = mesh.materials.find(green.name)\n" in healed.script


def test_outside_a_loop_over_the_meshs_faces_nothing_is_guessed() -> None:
    loose = "import bpy\nmat = bpy.data.materials.new('M')\npoly = bpy.data.meshes['M'].polygons[0]\npoly.material_index = mat.index\n"
    healed = healed_once(loose, "AttributeError", "'Material' object has no attribute 'index'", 4)
    assert "material-slot-index" not in {r.rule for r in healed.applied}


@pytest.mark.blender
def test_on_real_blender_the_old_form_fails_and_the_fix_uses_the_second_slot(blender_run) -> None:
    check = "assert arrow.data.polygons[0].material_index == 1, 'not the Green slot'\n"
    outcome, report = healed_in_blender(blender_run, MATERIAL_INDEX, "has no attribute 'index'", check=check)
    assert {a.rule for r in outcome.rounds for a in r.applied} == {"material-slot-index"}
    arrow = next(o for o in report.scene.objects if o.name == "Arrow")
    assert arrow.materials == ["Red", "Green"]


# A small model's storage box (generation benchmark): the latch object appended to the lid's materials ("# Append the latch
# material to the lid"), once as the object and once as its mesh.
LATCH = src("""
import bpy

def create_latch():
    mat = bpy.data.materials.new("Latch Material")
    mat.diffuse_color = (1.0, 0.0, 0.0, 1.0)
    latch = bpy.data.objects.new("Latch", bpy.data.meshes.new("Latch"))
    bpy.context.scene.collection.objects.link(latch)
    latch.data.materials.append(mat)
    return latch

lid = bpy.data.objects.new("Lid", bpy.data.meshes.new("Lid"))
bpy.context.scene.collection.objects.link(lid)
lid.data.materials.append(create_latch())
""")
OBJECT_ERROR = 'IDMaterials.append(): error with argument 1, "material" -  Function.material expected a Material type, not Object'


def test_an_object_given_as_a_material_gives_its_active_material() -> None:
    healed = healed_once(LATCH, "TypeError", OBJECT_ERROR, 13)
    assert [r.rule for r in healed.applied] == ["material-append-object"] and healed.explained == "material-append-object"
    assert "lid.data.materials.append(create_latch().active_material)\n" in healed.script


def test_object_data_given_as_a_material_gives_its_first_material() -> None:
    script = LATCH.replace("append(create_latch())", "append(create_latch().data)")
    healed = healed_once(script, "TypeError", OBJECT_ERROR.replace("not Object", "not Mesh"), 13)
    assert "lid.data.materials.append(next(iter(create_latch().data.materials), None))\n" in healed.script


def test_only_the_failing_line_and_only_for_that_error() -> None:
    assert "material-append-object" not in fired(LATCH)
    elsewhere = healed_once(LATCH, "TypeError", OBJECT_ERROR, 9)  # the latch's own (good) append
    assert "material-append-object" not in {r.rule for r in elsewhere.applied}
    image = healed_once(LATCH, "TypeError", OBJECT_ERROR.replace("not Object", "not Image"), 13)
    assert "material-append-object" not in {r.rule for r in image.applied}


@pytest.mark.blender
def test_on_real_blender_the_latch_is_built_once_and_its_material_reaches_the_lid(blender_run) -> None:
    _, report = healed_in_blender(blender_run, LATCH, "expected a Material type, not Object")
    by_name = {o.name: o for o in report.scene.objects}
    assert sorted(n for n in by_name if n.startswith("Latch")) == ["Latch"]  # the call that builds the latch ran once
    assert by_name["Lid"].materials == ["Latch Material"]


# A small model's solar inverters (generation benchmark, three heal rounds): a material copied from a mesh that has none.
INVERTERS = src("""
import bpy

def part(name):
    obj = bpy.data.objects.new(name, bpy.data.meshes.new(name))
    bpy.context.scene.collection.objects.link(obj)
    return obj

first_inverter = part("First Inverter")
mounting_brackets = part("Brackets")
first_inverter.data.materials.append(mounting_brackets.data.materials[0])
mounting_brackets.data.materials[0].diffuse_color = (0.2, 0.2, 0.2, 1.0)
""")
EMPTY = "bpy_prop_collection[index]: index 0 out of range, size 0"


def test_the_first_material_of_a_mesh_with_none_is_made_before_it_is_read() -> None:
    healed = healed_once(INVERTERS, "IndexError", EMPTY, 10)
    assert [r.rule for r in healed.applied] == ["material-first-of-none"] and healed.explained == "material-first-of-none"
    guard = "if not mounting_brackets.data.materials:\n    mounting_brackets.data.materials.append(bpy.data.materials.new('Mounting Brackets Material'))\n"
    assert guard + "first_inverter.data.materials.append(mounting_brackets.data.materials[0])\n" in healed.script
    assert healed.script.count("if not ") == 1  # the next line is not the one that failed
    assert "material-first-of-none" not in {r.rule for r in healed_once(INVERTERS, "IndexError", EMPTY, 9).applied}


@pytest.mark.blender
def test_on_real_blender_the_inverters_fail_and_both_share_the_bracket_material(blender_run) -> None:
    check = "assert first_inverter.data.materials[0] == mounting_brackets.data.materials[0]\n"
    healed_in_blender(blender_run, INVERTERS, EMPTY, check=check)
