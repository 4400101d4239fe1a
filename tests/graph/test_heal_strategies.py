"""The heal node's repair policy: its strategies in order, and which of them apply to a crafted attempt."""

from __future__ import annotations

from bpywright.config import Settings
from bpywright.graph.loop.context import RunContext
from bpywright.graph.loop.nodes.heal import STRATEGIES, Turn, heal_node
from bpywright.graph.loop.routing import MAX_RULE_STEPS
from bpywright.graph.loop.state import Attempt, GenState

from .samples import PROMPT, failed_run

NO_IMPORT = "bun = bpy.data.objects.new('Bun', None)\n"  # NameError 'bpy': the missing-import rule's, never capped
NO_IMPORT_RUN = failed_run("NameError", "name 'bpy' is not defined", 1)
DIVIDES = "import bpy\n\nsize = 1 / 0\n"  # no rule, camera, builder or helper repairs it: only a round does
DIVIDES_RUN = failed_run("ZeroDivisionError", "division by zero", 3)


def applying(state: GenState, settings: Settings) -> list[str]:
    """The names of the strategies that apply to state's current attempt, in the order the node tries them."""
    turn = Turn.of(state, RunContext(settings=settings, thread_id="policy"))
    return [s.name for s in STRATEGIES if s.applies(turn)]


def test_the_free_steps_come_first_then_the_rounds_and_a_patch_last() -> None:
    assert [s.name for s in STRATEGIES] == [
        "rules",
        "frame-camera",
        "call-builders",
        "borrow-helpers",
        "rounds-used",
        "regenerate-missing",
        "regenerate",
        "replan",
        "patch",
    ]


def test_a_missing_import_is_free_past_the_cap_and_never_made_twice(offline_settings: Settings) -> None:
    a = Attempt(index=0, origin="generate", script=NO_IMPORT, run=NO_IMPORT_RUN)
    state = GenState(prompt=PROMPT, attempts=[a], current=0, rule_steps=MAX_RULE_STEPS, max_rounds=0)
    assert applying(state, offline_settings) == ["rules", "rounds-used", "patch"]
    update = heal_node(state, RunContext(settings=offline_settings, thread_id="policy"))
    healed = update["attempts"][-1]
    assert healed.origin == "heal-rules" and healed.script.startswith("import bpy\n") and update["rule_steps"] == MAX_RULE_STEPS + 1
    again = state.model_copy(update={"attempts": [a, healed]})  # the same fix once more is no repair
    assert applying(again, offline_settings) == ["rounds-used", "patch"]
    assert heal_node(again, RunContext(settings=offline_settings, thread_id="policy")) == {}


def test_settings_repair_picks_a_fresh_script_or_a_patch_for_a_failing_script(offline_settings: Settings) -> None:
    a = Attempt(index=0, origin="generate", script=DIVIDES, run=DIVIDES_RUN)
    state = GenState(prompt=PROMPT, attempts=[a], current=0)
    assert applying(state.model_copy(update={"repair": "patch"}), offline_settings) == ["patch"]
    assert applying(state.model_copy(update={"repair": "regenerate"}), offline_settings) == ["regenerate", "patch"]
    assert applying(state.model_copy(update={"repair": "auto"}), offline_settings) == ["patch"]  # patch first
    patched = Attempt(index=1, origin="heal-llm", round=1, parent=0, script=DIVIDES.replace("0\n", "2\n"), run=DIVIDES_RUN)
    tried = state.model_copy(update={"repair": "auto", "attempts": [a, patched], "current": 1, "rounds": 1})
    assert applying(tried, offline_settings) == ["regenerate", "patch"]  # a patch of a failing script was tried


def test_no_script_is_regenerated_and_an_llm_that_cannot_answer_ends_the_run(offline_settings: Settings) -> None:
    a = Attempt(index=0, origin="generate", failure="no code in the reply")
    state = GenState(prompt=PROMPT, attempts=[a], current=0, rounds=1)
    assert applying(state, offline_settings) == ["regenerate-missing", "patch"]
    update = heal_node(state, RunContext(settings=offline_settings, thread_id="policy"))  # no LLM configured
    assert update["rounds"] == 2 and update["error"].startswith("no LLM configured") and "attempts" not in update


def test_a_rejected_plan_built_scene_is_replanned_under_the_plan_strategy_and_patched_under_code(offline_settings: Settings) -> None:
    from bpywright.graph.loop.state import Critique
    from bpywright.graph.plans.plan import build_script, parse_plan, plan_of_script
    from bpywright.harness.report import RunReport

    plan = parse_plan(
        '{"object": "chair", "parts": [{"name": "seat", "shape": "box", "size": [0.45, 0.45, 0.05], "location": [0, 0, 0.45]},'
        ' {"name": "backrest", "shape": "box", "size": [0.45, 0.05, 0.5], "location": [0, 0.2, 0.72]}]}'
    )
    script = build_script(plan, "4.5")
    assert plan_of_script(script) is not None and [p.location for p in plan_of_script(script).parts] == [p.location for p in plan.parts]
    assert plan_of_script(DIVIDES) is None and plan_of_script(None) is None
    rejected = Critique(score=0.5, reasons=["the chair has no legs"], objective_ok=True)
    a = Attempt(
        index=0, origin="generate", script=script, run=RunReport(status="ok", backend="bpy-module", sandbox="bwrap"), critique=rejected
    )
    state = GenState(prompt=PROMPT, attempts=[a], current=0, strategy="plan")
    assert applying(state, offline_settings) == ["replan", "patch"]
    assert applying(state.model_copy(update={"strategy": "code"}), offline_settings) == ["patch"]
    update = heal_node(state, RunContext(settings=offline_settings, thread_id="policy"))  # no LLM: the round ends the run
    assert update["rounds"] == 1 and update["error"].startswith("no LLM configured")
