"""The healer with real Blender: multi-problem scripts heal in few rounds; unrelated bugs stay; a worse fix is reverted."""

from __future__ import annotations

import pytest

from bpywright.harness.diagnostics import Diagnostic, LintReport
from bpywright.rules.healer import compare_runs, heal, heal_once

from .helpers import failed, healed_in_blender, src

THREE_PROBLEMS = src("""
import bpy

bpy.ops.mesh.primitive_uv_sphere_add(size=1.5, location=(0, 0, 1))
ball = bpy.context.object
mat = bpy.data.materials.new("Red")
mat.diffuse_color = (0.8, 0.1, 0.1)
ball.data.materials.append(mat)
lamp = bpy.data.objects.new("Sun", bpy.data.lamps.new("Sun", 'SUN'))
bpy.context.scene.objects.link(lamp)
""")

UNRELATED_BUG = src("""
import bpy

sizes = []
average = sum(sizes) / len(sizes)
print(average)
""")

# A user class that happens to look like a scene: the static link rule rewrites it (a guess that is wrong
# here) while the lamp rule fixes the real failure further down; the combined round fails earlier.
LOOKS_LIKE_A_SCENE = src("""
import bpy


class FakeScene:
    class objects:
        @staticmethod
        def link(name):
            print("linked", name)


scene = FakeScene()
scene.objects.link("ghost")
light = bpy.data.lamps.new("L", 'POINT')
""")


@pytest.mark.blender
def test_three_drift_problems_heal_within_three_rounds(blender_run) -> None:
    outcome, _ = healed_in_blender(blender_run, THREE_PROBLEMS, max_rounds=5)
    assert 1 <= len(outcome.rounds) <= 3
    applied = {a.rule for r in outcome.rounds for a in r.applied}
    assert {"operator-keywords", "rgba-length", "lamps-to-lights", "scene-objects-link"} <= applied
    assert "primitive_uv_sphere_add(radius=1.5" in outcome.script and "bpy.data.lights.new" in outcome.script


@pytest.mark.blender
def test_unrelated_bug_is_left_alone(blender_run) -> None:
    outcome = heal(UNRELATED_BUG, run=blender_run)
    assert not outcome.healed and outcome.script == UNRELATED_BUG and outcome.rounds == []
    assert outcome.failure_after == "ZeroDivisionError: division by zero"


@pytest.mark.blender
def test_a_fix_that_fails_earlier_is_reverted_and_its_rule_excluded(blender_run) -> None:
    outcome, _ = healed_in_blender(blender_run, LOOKS_LIKE_A_SCENE, max_rounds=4)
    first = outcome.rounds[0]
    assert first.reverted and "scene-objects-link" in first.note
    assert 'scene.objects.link("ghost")' in outcome.script and "bpy.data.lights.new" in outcome.script


def test_heal_once_is_deterministic_and_reports_the_explaining_rule() -> None:
    report = failed("AttributeError", "'BlendData' object has no attribute 'lamps'", 13)
    one = heal_once(LOOKS_LIKE_A_SCENE, report, None)
    assert one == heal_once(LOOKS_LIKE_A_SCENE, report, None)
    assert one.changed and one.explained == "lamps-to-lights" and one.diff.startswith("--- a/script.py")
    assert {a.rule for a in one.applied} == {"lamps-to-lights", "scene-objects-link"}


def test_lint_findings_point_guesses_at_their_lines() -> None:
    source = src("""
    import bpy
    thing = get_thing()
    thing.select = True
    """)
    lint = LintReport(diagnostics=[Diagnostic(tool="rules", code="object-select", severity="blocking", line=3, message="x")])
    assert "thing.select_set(True)" in heal_once(source, None, lint).script
    assert not heal_once(source, None, None).changed


def test_compare_orders_failures_by_how_far_the_script_got() -> None:
    old = failed("NameError", "name 'x' is not defined", 5)
    assert compare_runs("a\nb\nc\nd\ne\n", old, "a\nb\nc\nd\ne\n", failed("KeyError", "k", 3)) == "worse"
    assert compare_runs("a\nb\nc\nd\ne\n", old, "a\nb\nc\nd\ne\n", failed("KeyError", "k", 5)) == "better"
    assert compare_runs("a\nb\nc\nd\ne\n", old, "a\nb\nc\nd\ne\n", failed("NameError", "name 'x' is not defined", 5)) == "same"
    # an inserted import shifts lines: the same statement is still line 5 of the old script
    assert compare_runs("a\nb\nc\nd\ne\n", old, "import math\na\nb\nc\nd\ne\n", failed("KeyError", "k", 6)) == "better"
    crash = old.model_copy(update={"status": "crash", "exception": None})
    assert compare_runs("a\n", old, "a\n", crash) == "worse"
