"""from_pydata on a mesh that already has geometry: cleared first, only where a run failed with Blender's array error."""

from __future__ import annotations

import pytest

from .helpers import fired, healed_in_blender, healed_once, src

# The shape of what a small model wrote in the generation benchmark: extend the lists, fill the same mesh again.
REFILLED = src("""
import bpy

verts = [(0, 0, 0), (1, 0, 0), (1, 1, 0)]
edges = [(0, 1), (1, 2)]
mesh = bpy.data.meshes.new("Face")
mesh.from_pydata(verts, edges, [])
verts.append((0, 1, 0))
edges.append((2, 3))
mesh.from_pydata(verts, edges, [])
face = bpy.data.objects.new("Face", mesh)
bpy.context.scene.collection.objects.link(face)
""")


def test_never_a_finding_without_the_run() -> None:
    assert "from-pydata-refill" not in fired(REFILLED)


def test_the_failing_call_clears_the_mesh_first_and_nothing_else_changes() -> None:
    healed = healed_once(REFILLED, "RuntimeError", "internal error setting the array", 9)
    assert [r.rule for r in healed.applied] == ["from-pydata-refill"] and healed.explained == "from-pydata-refill"
    assert "edges.append((2, 3))\nmesh.clear_geometry()\nmesh.from_pydata(verts, edges, [])\n" in healed.script
    assert healed.script.count("clear_geometry") == 1


@pytest.mark.blender
def test_on_real_blender_the_second_fill_fails_and_the_fix_builds_every_vertex(blender_run) -> None:
    outcome, report = healed_in_blender(blender_run, REFILLED, "internal error setting the array")
    assert {a.rule for r in outcome.rounds for a in r.applied} == {"from-pydata-refill"}
    face = next(o for o in report.scene.objects if o.name == "Face")
    assert face.vertices == 4


# A small model's paperclip (generation benchmark): an edge of four indices. The refill rule, wrong about the cause, cleared the
# mesh eight times over before the LLM's rounds.
PAPERCLIP = src("""
import bpy

clip = bpy.data.objects.new("Triangular Paperclip", bpy.data.meshes.new("Triangular Paperclip"))
bpy.context.scene.collection.objects.link(clip)
clip.data.clear_geometry()
clip.data.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], [(0, 0, 1, 2)], [(0, 1, 2, 3)])
""")
ARRAY = "internal error setting the array"


def test_an_edge_of_four_indices_is_left_out_and_the_mesh_is_not_cleared_again() -> None:
    healed = healed_once(PAPERCLIP, "RuntimeError", ARRAY, 6)
    assert [r.rule for r in healed.applied] == ["from-pydata-shapes"] and healed.script.count("clear_geometry") == 1
    assert "clip.data.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)], [], [(0, 1, 2, 3)])\n" in healed.script


def test_colours_given_as_faces_and_faces_past_the_vertices_are_left_out_through_a_name() -> None:
    """A small model's badge (one-shot): RGBA colours where the faces go; a list assigned once above the call is fixed there."""
    colours = src("""
    import bpy
    faces = [(0, 1, 2), (1, 0, 0, 1.0), (0, 1, 7)]
    letter = bpy.data.meshes.new("Letter")
    letter.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [], faces)
    """)
    healed = healed_once(colours, "TypeError", "couldn't access the py sequence", 4)
    assert "faces = [(0, 1, 2)]\n" in healed.script and "letter.from_pydata([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [], faces)" in healed.script
    grown = colours.replace("letter = ", "faces.append((0, 1, 3))\nletter = ")  # changed after: its length is not known
    assert "from-pydata-shapes" not in {r.rule for r in healed_once(grown, "TypeError", "couldn't access the py sequence", 5).applied}


def test_2d_vertices_get_z_zero() -> None:
    flat = "import bpy\nmesh = bpy.data.meshes.new('Flat')\nmesh.from_pydata([(0, 0), (1, 0), (0, 1.5)], [], [(0, 1, 2)])\n"
    healed = healed_once(flat, "RuntimeError", ARRAY, 3)
    assert "mesh.from_pydata([(0, 0, 0.0), (1, 0, 0.0), (0, 1.5, 0.0)], [], [(0, 1, 2)])" in healed.script


@pytest.mark.blender
def test_on_real_blender_the_paperclip_fails_and_the_fix_builds_its_face(blender_run) -> None:
    healed_in_blender(blender_run, PAPERCLIP, ARRAY, check="assert len(clip.data.polygons) == 1 and len(clip.data.vertices) == 4\n")
