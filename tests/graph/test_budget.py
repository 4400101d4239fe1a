"""A request always ends with its best attempt and the reason: a copy of the prompt's example is never the answer while
the model can be asked again, and the step budget (or LangGraph's recursion limit behind it) ends the loop like any stop."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from bpywright.graph.loop import routing
from bpywright.graph.loop.run import generate
from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.graph.review.copies import system_example

from .samples import INDEX_BUG, PROMPT, THREE_CUBES, fenced


@pytest.mark.blender
def test_a_copy_of_the_system_prompt_example_is_never_accepted_and_a_fresh_script_is_asked_for(
    settings, fake: FakeLLM, render_pool, events
) -> None:
    copy = "import bpy\nimport math\n" + system_example("4.5").script
    fake.script("generate", fenced(copy), fenced(THREE_CUBES)).script("critic", critic_json(1.0), critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES
    first = next(e for e in events if e.node == "critic")
    assert "rejected" in first.status and "a copy of the system prompt's API example" in first.detail
    fresh = fake.chat_requests[1]["messages"][-1]["content"]
    assert "was a copy of the system prompt's API example" in fresh
    assert fake.roles_asked() == ["generate", "generate", "critic"]  # no rubric for the copy: it failed its checks
    cost = result.cost  # the request's own report of where its time went
    assert cost is not None and cost.llm_calls == 3 and cost.tokens_written > 0 and cost.rounds == 1
    assert 0 < cost.critic_s <= cost.llm_s and 0 < cost.blender_s < cost.wall_s


def _failing_variants():
    """A new failing script on every call (the same IndexError, a different comment), so no rule and no round ends it."""
    for i in itertools.count():
        yield fenced(f"# attempt {i}\n" + INDEX_BUG)


@pytest.mark.blender
def test_the_step_budget_ends_the_loop_with_its_best_attempt(settings, fake: FakeLLM, render_pool, events, monkeypatch) -> None:
    monkeypatch.setattr(routing, "max_reviews", lambda max_rounds: 2)
    variants = _failing_variants()
    fake.script("generate", fenced(INDEX_BUG)).script("heal", *(lambda body: next(variants) for _ in range(6)))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events, max_rounds=5)
    assert result.outcome == "best_attempt" and result.script is not None
    assert "step budget is used (2 scripts reviewed" in result.message
    assert [e.node for e in events].count("critic") == 2


@pytest.mark.blender
def test_langgraphs_recursion_limit_ends_the_loop_with_its_best_attempt_not_a_traceback(
    settings, fake: FakeLLM, render_pool, events, monkeypatch
) -> None:
    """The burger that died with GraphRecursionError after 687 s: the same limit reached here on purpose."""
    monkeypatch.setattr(routing, "max_reviews", lambda max_rounds: 1000)
    monkeypatch.setattr(routing, "recursion_limit", lambda max_rounds: 9)
    variants = _failing_variants()
    fake.script("generate", fenced(INDEX_BUG)).script("heal", *(lambda body: next(variants) for _ in range(6)))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events, max_rounds=5)
    assert result.outcome == "best_attempt" and result.script is not None and result.attempts >= 2
    assert "step limit (9 steps) was reached" in result.message
    assert events[-1].node == "done"


@pytest.mark.parametrize("rounds", [0, 3, 10])
def test_routing_stops_before_langgraphs_limit(rounds: int) -> None:
    """Every step the routing allows fits under the recursion limit: 4 first steps, 3 per review, the end."""
    assert 4 + 3 * routing.max_reviews(rounds) + 1 <= routing.recursion_limit(rounds)


CHAIR = "a wooden dining chair with four legs and a backrest"


@pytest.mark.blender
def test_the_plan_strategy_builds_the_script_from_the_models_parts(settings, fake: FakeLLM, render_pool, events) -> None:
    """BPYWRIGHT_STRATEGY=plan: the model writes parts as JSON, the builder writes the script, the loop runs it; a plan
    missing the parts the request names is asked again once, told what it lacks, before anything runs."""
    import dataclasses
    import json

    # Legs under the seat's corners (four legs "on the ground" all stand at one spot: the coincident check rejects that)
    leg = {"shape": "box", "size": [0.04, 0.04, 0.45], "on": "seat", "side": "bottom", "color": "brown"}
    bad = {"object": "chair", "parts": [{"name": "seat", "shape": "box", "size": [0.45, 0.45, 0.05], "on": "ground", "color": "brown"}]}
    good = {
        "object": "chair",
        "parts": [
            {"name": "seat", "shape": "box", "size": [0.45, 0.45, 0.05], "on": "ground", "color": "brown"},
            *({"name": f"leg_{c}", **leg, "at": c} for c in ("front_left", "front_right", "back_left", "back_right")),
            {"name": "backrest", "shape": "box", "size": [0.45, 0.04, 0.45], "on": "seat", "at": "back", "color": "brown"},
        ],
    }
    settings = dataclasses.replace(settings, strategy="plan")
    fake.script("plan", json.dumps(bad), json.dumps(good)).script("critic", critic_json(0.9))
    result = generate(CHAIR, settings=settings, pool=render_pool, on_event=events)
    assert result.script is not None and "PARTS = [" in result.script
    assert result.run_report is not None and result.run_report.ok and result.run_report.scene is not None
    names = {o.name for o in result.run_report.scene.objects}
    assert {"seat", "backrest", "leg_front_left", "leg_back_right"} <= names
    asked = [r for r in fake.chat_requests if fake_role(r) == "plan"]
    assert len(asked) == 2 and "leg" in asked[1]["messages"][-1]["content"]  # the revision is told what the plan lacks
    # the revision is the revise_plan node's, an edge between generate and the run
    assert [e.node for e in events if e.node in ("generate", "revise_plan", "run", "critic")] == [
        "generate",
        "revise_plan",
        "run",
        "critic",
    ]
    assert result.outcome == "accepted", result.message
    # the critic reviews the PARTS table; the fixed builder (the same in every plan-built script) is named, not shown
    review = next(r for r in fake.chat_requests if fake_role(r) == "critic")["messages"][-1]["content"]
    assert "('backrest', 'box'" in review and "fixed builder" in review
    assert "def add_part" in result.script and "def add_part" not in review


@pytest.mark.blender
def test_n_plan_candidates_are_n_plans_not_one_plan_n_times(settings, fake: FakeLLM, render_pool) -> None:
    """--n 2 under the plan strategy: two plan requests (sent together), the first greedy, the second sampled with the
    configured seed + 1; a seeded server would otherwise write the same plan twice."""
    import dataclasses
    import json

    def stool(height: float) -> str:
        leg = {"shape": "box", "size": [0.04, 0.04, height], "on": "seat", "side": "bottom", "color": "brown"}
        seat = {"name": "seat", "shape": "box", "size": [0.4, 0.4, 0.04], "on": "ground", "color": "brown"}
        legs = [{"name": f"leg_{c}", **leg, "at": c} for c in ("front_left", "front_right", "back_left", "back_right")]
        return json.dumps({"object": "stool", "parts": [seat, *legs]})

    settings = dataclasses.replace(settings, strategy="plan", max_heal_rounds=0, llm_sampling=(("seed", 7.0),))
    fake.script("plan", stool(0.45), stool(0.7)).script("critic", critic_json(0.9), critic_json(0.9))
    result = generate("a wooden stool with four legs", settings=settings, pool=render_pool, n=2)
    plans = [r for r in fake.chat_requests if fake_role(r) == "plan"]
    assert sorted((r["temperature"], r["seed"]) for r in plans) == [(0.0, 7), (0.8, 8)]
    assert result.script is not None and result.attempts == 2


def fake_role(body) -> str:
    from bpywright.graph.model.fake_llm import role_of

    return role_of(body)


def chair_plans() -> tuple[dict, dict]:
    """Two plans of a chair with its legs under the seat's corners: the backrest lying flat on the seat, and upright."""

    def part(name: str, size: list[float], on: str, side: str = "top", at: str = "center") -> dict:
        return {"name": name, "shape": "box", "size": size, "on": on, "side": side, "at": at, "color": "brown"}

    legs = [part(f"leg_{c}", [0.04, 0.04, 0.45], "seat", "bottom", c) for c in ("front_left", "front_right", "back_left", "back_right")]
    flat = {"object": "chair", "parts": [part("seat", [0.45, 0.45, 0.05], "ground"), *legs, part("backrest", [0.3, 0.3, 0.04], "seat")]}
    upright = {
        "object": "chair",
        "parts": [part("seat", [0.45, 0.45, 0.05], "ground"), *legs, part("backrest", [0.45, 0.04, 0.45], "seat", "top", "back")],
    }
    return flat, upright


@pytest.mark.blender
def test_a_plan_the_critic_rejects_is_revised_as_a_plan_with_its_findings(settings, fake: FakeLLM, render_pool, events) -> None:
    """Under the plan strategy the critic's round revises the plan (shown the plan it built and the critic's reasons),
    never a patch of the builder's code: the local model's patch of a plan-built chair broke the builder (a tuple size)."""
    import dataclasses
    import json

    flat, upright = chair_plans()
    settings = dataclasses.replace(settings, strategy="plan", max_heal_rounds=1)
    fake.script("plan", json.dumps(flat), json.dumps(upright))
    fake.script("critic", critic_json(0.4, "the backrest lies flat on the seat"), critic_json(0.9))
    result = generate(CHAIR, settings=settings, pool=render_pool, on_event=events)
    asked = [r for r in fake.chat_requests if fake_role(r) == "plan"]
    assert len(asked) == 2
    revision = asked[1]["messages"][-1]["content"]
    assert "the backrest lies flat on the seat" in revision and '"name": "backrest"' in revision  # findings and its plan
    assert not [r for r in fake.chat_requests if fake_role(r) not in ("plan", "critic")]  # no code patch was asked
    assert any(e.node == "heal" and e.status == "replanned" for e in events)
    assert result.outcome == "accepted", result.message
    assert result.script is not None and "(0.45, 0.04, 0.45)" in result.script


@pytest.mark.blender
def test_a_revised_plan_that_repeats_the_rejected_one_is_sampled_again_not_run_again(settings, fake: FakeLLM, render_pool) -> None:
    """A greedy revision that ignores the critic writes the same plan: its run and review could only repeat the
    verdict, so it is sampled again (temperature, its own seed) before anything runs. A plan-built script is not
    linted: its code is the fixed builder, which the checkers pass (test_plan), and the first lint of a request costs
    10 to 15 s of daemon start-up on a CPU."""
    import dataclasses
    import json

    flat, upright = chair_plans()
    settings = dataclasses.replace(settings, strategy="plan", max_heal_rounds=1, llm_sampling=(("seed", 5.0),))
    fake.script("plan", json.dumps(flat), json.dumps(flat), json.dumps(upright))
    fake.script("critic", critic_json(0.4, "the backrest lies flat on the seat"), critic_json(0.9))
    result = generate(CHAIR, settings=settings, pool=render_pool)
    asked = [r for r in fake.chat_requests if fake_role(r) == "plan"]
    assert [(r["temperature"], r["seed"]) for r in asked] == [(0.0, 5), (0.0, 5), (0.8, 6)]
    assert len([r for r in fake.chat_requests if fake_role(r) == "critic"]) == 2  # the repeat was never reviewed
    assert result.outcome == "accepted" and result.attempts == 2
    assert result.script is not None and "(0.45, 0.04, 0.45)" in result.script
    assert result.lint_report is not None and {t.status for t in result.lint_report.tools} == {"skipped"}
    assert result.lint_report.blocking == []


@pytest.mark.blender
def test_the_budget_stops_a_first_answer_that_is_still_being_written(settings, fake: FakeLLM, render_pool, events) -> None:
    """A model call cannot take the request past its budget: the answer is abandoned, and the request ends with the
    budget named as the reason (there is no attempt yet to return)."""
    fake.word_delay_s = 0.1
    fake.script("generate", fenced(" ".join(["x = 1;"] * 300)))  # 30 s of writing
    result = generate(PROMPT, settings=dataclasses.replace(settings, budget_s=5.0), pool=render_pool, on_event=events)
    assert result.outcome == "failed" and result.script is None
    assert "time budget ran out during a model" in result.message and "BPYWRIGHT_BUDGET_S" in result.message
    assert len(fake.chat_requests) <= 1 and events[-1].node == "done"


@pytest.mark.blender
def test_the_budget_stops_a_heal_call_and_the_best_attempt_is_returned(settings, fake: FakeLLM, render_pool, events) -> None:
    """The first script ran and failed; the repair the model is writing will not finish inside the budget: the request
    returns the script it has, saying the budget ran out, instead of waiting for the repair."""

    def slow_repair(body: dict) -> str:
        fake.word_delay_s = 1.0  # this answer and any after it: a word a second (a heal turn may take 100: 100 s)
        return fenced(" ".join(["x = 1;"] * 600))

    fake.script("generate", fenced(INDEX_BUG)).script("heal", slow_repair)
    result = generate(PROMPT, settings=dataclasses.replace(settings, budget_s=60.0), pool=render_pool, on_event=events)
    assert result.outcome == "best_attempt" and result.script == INDEX_BUG
    assert "time budget ran out during a model's answer" in result.message
    assert fake.roles_asked() == ["generate", "heal"]  # the repair was asked once, and not asked again
