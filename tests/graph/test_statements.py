"""A heal reply that holds only the few statements a small model changed: merged by the name they assign, or put in
place of the statement the run failed on; anything else is left to the follow-up turn."""

from __future__ import annotations

from bpywright.graph.repair.patch import merge_statements

SCRIPT = """import bpy

offsets = [0.0, 2.0]
stage = bpy.data.objects.new("Stage", None)
for i in range(3):
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(offsets[i], 0.0, 0.0))
    stage.collection.objects.link(bpy.context.active_object)
"""


def test_a_changed_value_replaces_the_one_assignment_of_its_name() -> None:
    merged = merge_statements(SCRIPT, "offsets = [0.0, 2.0, 4.0]\n", 6)
    assert merged is not None
    assert merged[0] == SCRIPT.replace("offsets = [0.0, 2.0]", "offsets = [0.0, 2.0, 4.0]") and "offsets" in merged[1]


def test_a_rewritten_failing_line_takes_its_place_at_its_indentation() -> None:
    reply = "bpy.context.scene.collection.objects.link(bpy.context.active_object)\n"
    merged = merge_statements(SCRIPT, reply, 7)
    assert merged is not None and "line 7" in merged[1]
    assert merged[0] == SCRIPT.replace("    stage.collection.objects.link(", "    bpy.context.scene.collection.objects.link(")


def test_two_lines_for_one_keep_their_order_and_the_block() -> None:
    reply = "    coll = stage.users_collection[0]\n    coll.objects.link(bpy.context.active_object)\n"
    merged = merge_statements(SCRIPT, reply, 7)
    assert merged is not None
    assert merged[0].endswith("    coll = stage.users_collection[0]\n    coll.objects.link(bpy.context.active_object)\n")


def test_what_is_not_a_few_changed_statements_is_refused() -> None:
    assert merge_statements(SCRIPT, "print('hello')\n", 7) is None  # shares no name with the failing line
    assert merge_statements(SCRIPT, "stage.name = 'S'\n", None) is None  # no failing line to put it at
    assert merge_statements(SCRIPT, "import bmesh\nstage.name = 'S'\n", 7) is None  # imports: not a line's rewrite
    assert merge_statements(SCRIPT, "def f():\n    pass\n", 7) is None
    assert merge_statements(SCRIPT, "\n".join(f"stage.name = '{i}'" for i in range(9)), 7) is None  # too long
    same = "    stage.collection.objects.link(bpy.context.active_object)\n"
    assert merge_statements(SCRIPT, same, 7) is None  # changes nothing
    twice = SCRIPT + "offsets = []\n"
    assert merge_statements(twice, "offsets = [1.0]\n", None) is None  # assigned twice: which one is meant is unclear
