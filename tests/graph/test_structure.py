"""Structural checks without a reference (parts named, counts, assembled, visible geometry, factory cube) and the free fix
for builders defined and never called; the parts and scenes are real requests and summaries of real Blender runs."""

from __future__ import annotations

import pytest

from bpywright.graph.repair.builders import call_builders, uncalled_builders
from bpywright.graph.review.structure import requested_parts, structure_checks
from bpywright.harness.options import RunOptions
from bpywright.harness.report import BoundingBox, ObjectSummary, SceneSummary
from bpywright.recipes import all_recipes

from .samples import src

pytestmark = pytest.mark.blender

BURGER = "a burger with a sesame seed bun, a beef patty, a slice of cheese, lettuce, tomato and pickles"
CHAIR = "a wooden dining chair with four legs and a backrest"


def test_the_parts_a_request_names_are_read_from_its_own_words() -> None:
    assert requested_parts(BURGER) == {"bun": 1, "patty": 1, "cheese": 1, "lettuce": 1, "tomato": 1, "pickle": 1}
    assert requested_parts(CHAIR) == {"leg": 4, "backrest": 1}
    orange = "Design an orange that is spherical with a diameter of about 7 centimeters. Add a small, round stem at the top."
    assert requested_parts(orange) == {"stem": 1}  # a measure and its unit are not parts
    assert requested_parts("a cube") == {} and requested_parts("three red cubes in a row") == {}


def summary(run, script, path) -> SceneSummary:
    path.write_text(src(script), encoding="utf-8")
    report = run(path)
    assert report.ok, report.failure
    assert report.scene is not None
    return report.scene


CLEAR = """
import bpy
for o in list(bpy.data.objects):
    bpy.data.objects.remove(o, do_unlink=True)
"""

ONE_CUBE_BURGER = (
    CLEAR
    + """
bpy.ops.mesh.primitive_cube_add(size=1.0)
bpy.context.active_object.name = "Burger"
"""
)

BURGER_PARTS = (
    CLEAR
    + """
def disc(name, z, h, r=1.0):
    bpy.ops.mesh.primitive_cylinder_add(radius=r, depth=h, location=(0, 0, z))
    bpy.context.active_object.name = name

disc("Bun_Bottom", 0.15, 0.3)
disc("Patty", 0.4, 0.2)
disc("Cheese", 0.52, 0.04, 1.05)
disc("Lettuce", 0.56, 0.04, 1.1)
disc("Tomato", 0.6, 0.05, 0.9)
for i in range(3):
    disc(f"Pickle{i}", 0.645, 0.04, 0.2)
    bpy.context.active_object.location.x = (i - 1) * 0.5  # side by side: three pickles in one place look like one
disc("Bun_Top", 0.8, 0.3)
"""
)

FLOATING_CHAIR = (
    CLEAR
    + """
def box(name, size, loc):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=loc)
    o = bpy.context.active_object
    o.name = name
    o.scale = size

box("Seat", (1, 1, 0.1), (0, 0, 1))
for i, (x, y) in enumerate([(-0.45, -0.45), (0.45, -0.45), (-0.45, 0.45), (0.45, 0.45)]):
    box(f"Leg{i}", (0.1, 0.1, 0.95), (x, y, 0.475))
box("Backrest", (1, 0.1, 1), (0, 0.45, 3.0))  # a metre above the seat
"""
)

HIDDEN_AND_FACELESS = (
    CLEAR
    + """
mesh = bpy.data.meshes.new("Tie")
mesh.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1), (1, 2)], [])
tie = bpy.data.objects.new("Necktie", mesh)
bpy.context.scene.collection.objects.link(tie)
bpy.ops.mesh.primitive_cube_add(size=1.0)
bpy.context.active_object.name = "Knot"
bpy.context.active_object.hide_render = True
bpy.context.active_object.hide_viewport = True
"""
)

LEFTOVER_CUBE = """
import bpy
bpy.ops.mesh.primitive_uv_sphere_add(radius=1.0, location=(0, 0, 3))
bpy.context.active_object.name = "Ball"
"""


def test_structure_checks_on_real_scenes(pool, tmp_path) -> None:
    run = pool.run
    one_cube = structure_checks(BURGER, summary(run, ONE_CUBE_BURGER, tmp_path / "a.py"))
    assert one_cube[0]["parts"] is False and "bun, patty, cheese" in one_cube[1][0]

    burger = structure_checks(BURGER, summary(run, BURGER_PARTS, tmp_path / "b.py"))
    assert burger == ({}, [])

    chair = structure_checks(CHAIR, summary(run, FLOATING_CHAIR, tmp_path / "c.py"))
    assert chair[0] == {"assembled": False} and "Backrest" in chair[1][0] and "Seat" not in chair[1][0]
    assert structure_checks(CHAIR, summary(run, FLOATING_CHAIR.replace("3.0))", "1.55))"), tmp_path / "d.py")) == ({}, [])

    necktie = structure_checks("a necktie", summary(run, HIDDEN_AND_FACELESS, tmp_path / "e.py"))
    assert necktie[0] == {"geometry": False} and "Necktie" in " ".join(necktie[1]) and "hidden" in " ".join(necktie[1])

    ball = structure_checks("a ball", summary(run, LEFTOVER_CUBE, tmp_path / "f.py"))
    assert ball[0].get("factory-cube") is False
    assert "factory-cube" not in structure_checks("a ball on a box", summary(run, LEFTOVER_CUBE, tmp_path / "g.py"))[0]


def test_every_bundled_recipe_passes_the_structural_checks_for_its_own_request(tmp_path) -> None:
    """Verified scripts must not be rejected: the checks' false-rejection floor, on real renders of real recipes."""
    from bpywright.harness.pool import WorkerPool

    failures = {}
    with WorkerPool(1, RunOptions(render=False, timeout=60)) as pool:
        for recipe in all_recipes("4.5"):
            report = pool.run(recipe.path)
            assert report.ok, (recipe.name, report.failure)
            checks, reasons = structure_checks(recipe.prompt, report.scene)
            if checks:
                failures[recipe.name] = (recipe.prompt, reasons)
    assert failures == {}


NEVER_CALLED = """
import bpy

def clear():
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o, do_unlink=True)

def trunk(height=2.0):
    bpy.ops.mesh.primitive_cylinder_add(radius=0.2, depth=height, location=(0, 0, height / 2))

def main():
    clear()
    trunk()
"""


def test_builders_defined_and_never_called_are_found() -> None:
    assert uncalled_builders(src(NEVER_CALLED)) == ["main"]
    without_main = src(NEVER_CALLED).split("def main")[0]
    assert uncalled_builders(without_main) == ["clear", "trunk"]
    assert uncalled_builders(src(NEVER_CALLED) + "\nif __name__ == '__main__':\n    main()\n") == []
    assert uncalled_builders("import bpy\n\ndef make(name):\n    pass\n") == []  # needs an argument: not guessed


def test_calling_the_builders_builds_the_scene_in_blender(pool, tmp_path) -> None:
    path = tmp_path / "never.py"
    path.write_text(src(NEVER_CALLED), encoding="utf-8")
    before = pool.run(path)
    assert before.ok and before.scene is not None and [o.name for o in before.scene.objects if o.type == "MESH"] == ["Cube"]
    fixed = call_builders(src(NEVER_CALLED), before)
    assert fixed is not None and fixed.rstrip().endswith("main()")
    path.write_text(fixed, encoding="utf-8")
    after = pool.run(path)
    assert after.ok and after.scene is not None and [o.name for o in after.scene.objects if o.type == "MESH"] == ["Cylinder"]
    assert call_builders(fixed, after) is None


def test_two_parts_in_the_same_space_are_found_and_parts_side_by_side_are_not(pool, tmp_path) -> None:
    from bpywright.graph.review.structure import coincident

    wallpaper = (
        CLEAR
        + """
for name in ("pattern", "background"):
    bpy.ops.mesh.primitive_plane_add(size=1.0)
    bpy.context.active_object.name = name
"""
    )
    scene = summary(pool.run, wallpaper, tmp_path / "w.py")
    assert coincident(scene) == [("pattern", "background")]
    checks, reasons = structure_checks("a wallpaper pattern", scene)
    assert checks.get("coincident") is False and "pattern and background" in reasons[-1]
    burger = summary(pool.run, BURGER_PARTS, tmp_path / "b.py")
    assert coincident(burger) == []  # layers stacked, pickles side by side: each its own place


def test_thin_layers_stacked_are_not_one_hidden_in_the_other_and_a_part_inside_another_is(pool, tmp_path) -> None:
    """A sandwich's fillings, 8 mm each on a 2 m loaf, agree within 1 % of the scene's size along every axis but touch
    without overlapping: each is seen from the side. A microphone's grille and electronics, one box in one place, are
    one hidden in the other."""
    from bpywright.graph.review.structure import coincident

    sandwich = (
        CLEAR
        + """
def box(name, size, z):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 0.0, z))
    o = bpy.context.active_object
    o.name = name
    o.scale = size

box("bread_bottom", (2.0, 2.0, 0.2), 0.1)
for i, name in enumerate(("lettuce", "tomato", "cheese")):
    box(name, (1.9, 1.9, 0.008), 0.204 + i * 0.008)
box("bread_top", (2.0, 2.0, 0.2), 0.324)
"""
    )
    scene = summary(pool.run, sandwich, tmp_path / "s.py")
    assert coincident(scene) == []
    assert structure_checks("a sandwich with lettuce, tomato and cheese", scene)[0].get("coincident") is not False
    microphone = (
        CLEAR
        + """
bpy.ops.mesh.primitive_cylinder_add(radius=0.05, depth=0.1, location=(0.0, 0.0, 0.5))
bpy.context.active_object.name = "grille"
bpy.ops.mesh.primitive_cube_add(size=0.1, location=(0.0, 0.0, 0.5))
bpy.context.active_object.name = "electronics"
bpy.ops.mesh.primitive_cylinder_add(radius=0.02, depth=0.45, location=(0.0, 0.0, 0.225))
bpy.context.active_object.name = "handle"
"""
    )
    assert coincident(summary(pool.run, microphone, tmp_path / "m.py")) == [("grille", "electronics")]


def test_a_count_short_of_the_request_is_said_in_its_own_plural() -> None:
    """The benchmark's bookshelf came back with "5 shelfs asked, 1 built"."""

    def part(name: str, z: float) -> ObjectSummary:
        box = BoundingBox(min=(0.0, 0.0, z), max=(0.8, 0.3, z + 0.02))
        return ObjectSummary(name=name, type="MESH", vertices=8, faces=6, visible=True, bbox=box)

    frame = ObjectSummary(
        name="Frame", type="MESH", vertices=8, faces=6, visible=True, bbox=BoundingBox(min=(0, 0, 0), max=(0.8, 0.3, 1.8))
    )
    scene = SceneSummary(object_count=2, objects=[frame, part("Shelf", 0.9)], bbox=frame.bbox, camera=True, light=True)
    checks, reasons = structure_checks("a bookshelf with a frame and five shelves", scene)
    assert checks.get("counts") is False
    assert any("5 shelves asked, 1 built" in r for r in reasons), reasons
