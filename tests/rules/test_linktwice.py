"""Linking an object an operator already linked: fixed only where a run failed with "already in collection", on real Blender."""

from __future__ import annotations

import pytest

from .helpers import fired, healed_in_blender, healed_once, src

# What a small model wrote in the generation benchmark: its link helper called again on an object it had linked.
LINKED_TWICE = src("""
import bpy

scene = bpy.context.scene


def link(obj):
    scene.collection.objects.link(obj)
    return obj


body = link(bpy.data.objects.new("Body", bpy.data.meshes.new("Body")))
lid = link(bpy.data.objects.new("Lid", bpy.data.meshes.new("Lid")))
link(lid).parent = body
""")


def test_a_link_call_is_never_a_finding_on_its_own() -> None:
    assert "link-already-linked" not in fired(LINKED_TWICE)  # linking a new object is right: only a run can tell


def test_the_failing_link_becomes_conditional_and_nothing_else_changes() -> None:
    healed = healed_once(LINKED_TWICE, "RuntimeError", "Error: Object 'Lid' already in collection 'Scene Collection'", 7)
    assert [r.rule for r in healed.applied] == ["link-already-linked"] and healed.explained == "link-already-linked"
    assert "    if obj.name not in scene.collection.objects:\n        scene.collection.objects.link(obj)\n" in healed.script
    assert healed.script.count(".objects.link(") == 1
    compile(healed.script, "healed.py", "exec")


def test_a_computed_object_is_not_evaluated_twice() -> None:
    computed = "import bpy\nbpy.context.scene.collection.objects.link(bpy.data.objects.new('A', None))\n"
    healed = healed_once(computed, "RuntimeError", "Error: Object 'A' already in collection 'Scene Collection'", 2)
    assert "link-already-linked" not in {r.rule for r in healed.applied}


@pytest.mark.blender
def test_on_real_blender_the_old_form_fails_and_the_fix_passes(blender_run) -> None:
    outcome, _ = healed_in_blender(blender_run, LINKED_TWICE, "already in collection")
    assert {a.rule for r in outcome.rounds for a in r.applied} == {"link-already-linked"}
