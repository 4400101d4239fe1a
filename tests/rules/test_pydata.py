"""from_pydata on a mesh that already has geometry: cleared first, only where a run failed with Blender's array error."""

from __future__ import annotations

from bpywright.rules.healer import heal

from .helpers import fired, healed_once, src

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


def test_on_real_blender_the_second_fill_fails_and_the_fix_builds_every_vertex(blender_run) -> None:
    outcome = heal(REFILLED, run=blender_run, max_rounds=2)
    assert outcome.status_before == "error" and "internal error setting the array" in (outcome.failure_before or "")
    assert outcome.healed, outcome.failure_after
    assert {a.rule for r in outcome.rounds for a in r.applied} == {"from-pydata-refill"}
    report = blender_run(outcome.script)
    face = next(o for o in report.scene.objects if o.name == "Face")
    assert face.vertices == 4
