"""A material's 'index' taken for its slot's: fixed only where a run failed with "'Material' object has no attribute 'index'"."""

from __future__ import annotations

from bpywright.rules.healer import heal

from .helpers import fired, healed_once, src

# What the 1.5B wrote in the generation benchmark (and kept through three heal rounds).
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


def test_on_real_blender_the_old_form_fails_and_the_fix_uses_the_second_slot(blender_run) -> None:
    outcome = heal(MATERIAL_INDEX, run=blender_run, max_rounds=2)
    assert outcome.status_before == "error" and "has no attribute 'index'" in (outcome.failure_before or "")
    assert outcome.healed, outcome.failure_after
    assert {a.rule for r in outcome.rounds for a in r.applied} == {"material-slot-index"}
    report = blender_run(outcome.script + "assert arrow.data.polygons[0].material_index == 1, 'not the Green slot'\n")
    assert report.status == "ok", report.exception
    arrow = next(o for o in report.scene.objects if o.name == "Arrow")
    assert arrow.materials == ["Red", "Green"]
