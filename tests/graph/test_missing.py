"""Names a script uses and never defines: found by scope analysis, asked for in a short turn, inserted before first use."""

from __future__ import annotations

import pytest

from bpywright.graph.loop.run import generate
from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.graph.repair.missing import constants, insert_definitions, uses
from bpywright.rules.unbound import undefined_names

from .samples import CONSTANT_UNDEFINED, PROMPT, failed_run, fenced, src

SCRIPT = src("""
import bpy
import math

TABLE_W = 2.0
COLOR = (0.5, 0.3, 0.1, 1.0)


def leg(i):
    h = LEG_HEIGHT
    return [x for x in range(i) if x < TABLE_W], h


def counter():
    global COUNT
    COUNT = 1
    try:
        pass
    except Exception as exc:
        print(exc)


bpy.ops.mesh.primitive_cube_add(size=1, scale=TOP_SIZE)
clear_scene()
print(COUNT, math.pi, __name__, lambda q: q + 1)
""")


def test_scope_analysis_finds_what_is_never_bound_in_order_of_first_use() -> None:
    assert undefined_names(SCRIPT) == ["LEG_HEIGHT", "TOP_SIZE", "clear_scene"]
    assert undefined_names("import bpy\nfor i in range(2):\n    pass\nprint(i, [j for j in range(2)], len)\n") == []
    assert undefined_names("x = (\n") == []


def test_the_question_shows_the_uses_and_the_scripts_own_constants() -> None:
    lines = SCRIPT.splitlines()
    shown = uses(SCRIPT, ["LEG_HEIGHT", "TOP_SIZE"])
    assert [text for _, text in shown] == ["h = LEG_HEIGHT", "bpy.ops.mesh.primitive_cube_add(size=1, scale=TOP_SIZE)"]
    assert all(lines[n - 1].strip() == text for n, text in shown)
    assert constants(SCRIPT) == ["TABLE_W = 2.0", "COLOR = (0.5, 0.3, 0.1, 1.0)"]


def test_only_the_wanted_definitions_go_in_before_the_first_use() -> None:
    reply = "    TOP_SIZE = (TABLE_W, 1.0, 0.1)\n    LEG_HEIGHT = 0.7\n    print('chatter')\n    OTHER = 1\n    def clear_scene():\n        pass\n"
    new, defined = insert_definitions(SCRIPT, reply, undefined_names(SCRIPT)) or ("", [])
    assert defined == ["TOP_SIZE", "LEG_HEIGHT", "clear_scene"]
    assert "chatter" not in new and "OTHER" not in new
    assert new.index("COLOR = ") < new.index("TOP_SIZE = (TABLE_W") < new.index("def leg(i):")
    assert undefined_names(new) == []
    compile(new, "new.py", "exec")


def test_a_reply_that_defines_none_of_the_names_is_no_answer() -> None:
    assert insert_definitions(SCRIPT, "print('the names are fine')\n", ["TOP_SIZE"]) is None
    assert insert_definitions(SCRIPT, "TOP_SIZE = (\n", ["TOP_SIZE"]) is None
    assert insert_definitions(SCRIPT, "TOP_SIZE, OTHER = 1, 2\n", ["TOP_SIZE"]) is None  # binds a name nobody asked for


@pytest.mark.blender
def test_the_loop_asks_only_for_the_missing_constant(settings, fake: FakeLLM, render_pool, events) -> None:
    """A NameError on a constant the script never defines: one short turn (not the whole script), then it runs."""
    fake.script("generate", fenced(CONSTANT_UNDEFINED)).script("heal", "```python\nSPACING = 2.0\n```").script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted", result.message
    heal = next(e for e in events if e.node == "heal")
    assert heal.status == "LLM definitions" and "SPACING" in heal.detail
    asked = fake.chat_requests[1]["messages"]
    assert "write the definitions a script is missing" in asked[0]["content"] and "SPACING" in asked[1]["content"]
    assert "CUBE_SIZE = 1.0" in asked[1]["content"] and "for i in range(3):" not in asked[1]["content"]
    script = result.script or ""
    assert script.index("CUBE_SIZE = 1.0") < script.index("SPACING = 2.0") < script.index("for i in range(3):")


@pytest.mark.blender
def test_an_answer_without_the_definition_falls_back_to_a_patch_in_the_same_round(settings, fake: FakeLLM, render_pool, events) -> None:
    fixed = CONSTANT_UNDEFINED.replace("CUBE_SIZE = 1.0", "CUBE_SIZE = 1.0\nSPACING = 2.5")
    fake.script("generate", fenced(CONSTANT_UNDEFINED)).script("heal", "Spacing is the distance between cubes.", fenced(fixed))
    fake.script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == fixed, result.message
    assert fake.roles_asked() == ["generate", "heal", "heal", "critic"]
    assert "SPACING = 2.5" in (result.script or "")
    assert [e.status for e in events if e.node == "heal"] == ["LLM patch"]


def test_a_missing_import_is_the_rules_never_a_definitions_turn_even_with_the_rule_steps_used(settings, fake: FakeLLM) -> None:
    """The local model's hamburger: with the free rule steps used, `bpy` went to the definitions turn and came back as
    `bpy = "The Blender API"`. An import is added by the missing-import rule, past the cap; the model is never asked."""
    from bpywright.graph.loop.context import RunContext
    from bpywright.graph.loop.heal_llm import define_missing
    from bpywright.graph.loop.nodes.heal import heal_node
    from bpywright.graph.loop.routing import MAX_RULE_STEPS
    from bpywright.graph.loop.state import Attempt, GenState
    from bpywright.graph.model.llm import LLMClient

    script = "bun = bpy.data.objects.new('Bun', None)\nbun.location.z = PATTY_HEIGHT\n"
    failed = failed_run("NameError", "name 'bpy' is not defined", 1)
    a = Attempt(index=0, origin="generate", script=script, run=failed)
    state = GenState(prompt=PROMPT, attempts=[a], current=0, rule_steps=MAX_RULE_STEPS, max_rounds=2)
    ctx = RunContext(settings=settings, thread_id="imports", llm=LLMClient(fake.base_url, "fake-coder"))
    assert define_missing(state, ctx, a) is None and fake.chat_requests == []  # PATTY_HEIGHT is asked for later, never bpy
    update = heal_node(state, ctx)
    healed = update["attempts"][-1]
    assert healed.origin == "heal-rules" and healed.script.startswith("import bpy\n") and fake.chat_requests == []
