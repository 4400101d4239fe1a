"""A child linked through its parent's read-only `children`: fixed only where a run failed with "'tuple' object has no
attribute 'link'"."""

from __future__ import annotations

import pytest

from .helpers import fired, healed_in_blender, healed_once, src

# What a small model wrote in the generation benchmark (a drum kit's sticks on their stands), cut down.
CHILDREN_LINK = src("""
import bpy

scene = bpy.context.scene
stand = bpy.data.objects.new("Stand", None)
stick = bpy.data.objects.new("Stick", None)
scene.collection.objects.link(stand)
scene.collection.objects.link(stick)
stand.location = (2.0, 0.0, 0.0)
stand.children.link(stick)
""")
ERROR = "AttributeError", "'tuple' object has no attribute 'link'"


def test_never_a_finding_without_the_run() -> None:
    assert "children-link" not in fired(CHILDREN_LINK)


def test_the_child_names_its_parent() -> None:
    healed = healed_once(CHILDREN_LINK, *ERROR, 9)
    assert [r.rule for r in healed.applied] == ["children-link"] and healed.explained == "children-link"
    assert healed.script.endswith("stand.location = (2.0, 0.0, 0.0)\nstick.parent = stand\n")


def test_elsewhere_than_the_failing_line_nothing_changes() -> None:
    healed = healed_once(CHILDREN_LINK + "stand.children.append(stick)\n", *ERROR, 9)
    assert healed.script.endswith("stick.parent = stand\nstand.children.append(stick)\n")


@pytest.mark.blender
def test_on_real_blender_the_old_form_fails_and_the_fix_parents(blender_run) -> None:
    healed_in_blender(blender_run, CHILDREN_LINK, "no attribute 'link'", check="assert bpy.data.objects['Stick'].parent.name == 'Stand'\n")
