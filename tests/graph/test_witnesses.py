"""Witnesses (graph/review/witnesses.py): where the store holds no verified exemplars of the kind, a plan-built answer is
compared with fresh plans of the same request. Real Blender measures every scene, the store is real SQLite, the
planner is the FAKE LLM on loopback (scripted plans: a deterministic path of the loop)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bpywright.exemplars.store import ExemplarStore
from bpywright.graph.loop.run import generate
from bpywright.graph.model.fake_llm import FakeLLM
from bpywright.graph.model.llm import VARIANT_TEMPERATURE
from bpywright.graph.review.witnesses import WITNESS_VARIANT, usable_witnesses

from .test_agreement import attempts_of
from .test_plan import BURGER as BURGER_PLAN
from .test_plan import BURGER_PROMPT


def scaled(plan_text: str, wide: float, tall: float = 1.0) -> str:
    """The same parts, wider (x, y) and taller (z) by these factors, still stacked."""
    plan = json.loads(plan_text)
    for part in plan["parts"]:
        part["size"] = [part["size"][0] * wide, part["size"][1] * wide, part["size"][2] * tall]
        part["location"] = [part["location"][0] * wide, part["location"][1] * wide, part["location"][2] * tall]
    return json.dumps(plan)


# A witness shaped like no burger: every part the request names, each a thin rod, laid end to end into one long pole.
POLE = json.dumps(
    {
        "object": "burger",
        "parts": [
            p | {"shape": "box", "size": [0.3, 0.02, 0.02], "location": [0.3 * i, 0, 0.01], "rotation": [0, 0, 0]}
            for i, p in enumerate(json.loads(BURGER_PLAN)["parts"])
        ],
    }
)


def empty_store(path: Path) -> ExemplarStore:
    return ExemplarStore(path / "exemplars.sqlite", path / "files", clip=None)


def planned(settings, witnesses: int):
    """Witnesses on, redraws off: the witnesses' verdict on the one answer is what these tests read."""
    return dataclasses.replace(
        settings, review="neighbours", strategy="plan", max_critic_rounds=0, witnesses=witnesses, redraws=0, llm_sampling=(("seed", 7.0),)
    )


def plan_requests(fake: FakeLLM) -> list[dict]:
    return [body for body in fake.chat_requests if body.get("response_format")]


@pytest.mark.blender
def test_an_answer_its_fresh_plans_agree_with_is_accepted_and_the_store_grows(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    config = planned(settings, witnesses=2)
    fake.script("plan", BURGER_PLAN, scaled(BURGER_PLAN, 1.1), scaled(BURGER_PLAN, 0.9, 1.1))
    events: list = []
    with empty_store(tmp_path / "store") as store:
        result = generate(BURGER_PROMPT, settings=config, pool=render_pool, store=store, on_event=events.append)
        assert result.outcome == "accepted", result.message
        assert "agrees with 2 fresh plans of the same request" in result.message
        grown = [e for e in store.list(limit=10).items if e.source == "generated"]
        assert len(grown) == 1 and grown[0].script == result.script
    asked = plan_requests(fake)
    # the answer greedy; each witness a sample of its own, from the same messages as the first plan
    assert [b.get("temperature") for b in asked] == [0.0, VARIANT_TEMPERATURE, VARIANT_TEMPERATURE]
    assert [b.get("seed") for b in asked[1:]] == [7 + WITNESS_VARIANT, 7 + WITNESS_VARIANT + 1]
    assert asked[1]["messages"] == asked[0]["messages"] and "critic" not in fake.roles_asked()
    # the witnesses are the witnesses node's, drawn between the critic's two visits: it reviews, it does not draw
    assert [e.node for e in events if e.node in ("critic", "witnesses")] == ["witnesses", "critic"]
    (answer,) = attempts_of(config, result.thread_id)
    assert answer.critique is not None and len(answer.critique.agreement) == 2
    assert all(n["witness"] and n["fscore"] > n["cube"] + 0.2 for n in answer.critique.agreement)


@pytest.mark.blender
def test_an_answer_its_fresh_plans_disagree_with_is_not_accepted(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    config = planned(settings, witnesses=2)
    fake.script("plan", BURGER_PLAN, scaled(BURGER_PLAN, 1.1), POLE)
    with empty_store(tmp_path / "store") as store:
        result = generate(BURGER_PROMPT, settings=config, pool=render_pool, store=store)
        assert result.outcome == "best_attempt" and result.script is not None, result.message
        assert "does not agree with the 2 fresh plans of the same request" in result.message
        assert not [e for e in store.list(limit=10).items if e.source == "generated"]
    (answer,) = attempts_of(config, result.thread_id)
    assert answer.critique is not None and [n["agrees"] for n in answer.critique.agreement] == [True, False]


@pytest.mark.blender
def test_too_few_usable_fresh_plans_give_no_verdict(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    config = planned(settings, witnesses=2)
    # the second witness is no plan twice (asked again once, as any plan is): one usable witness of the two needed
    fake.script("plan", BURGER_PLAN, scaled(BURGER_PLAN, 1.1), "no plan here", "still none")
    with empty_store(tmp_path / "store") as store:
        result = generate(BURGER_PROMPT, settings=config, pool=render_pool, store=store)
    assert result.outcome == "best_attempt", result.message
    assert "1 of the 2 fresh plans of the request needed to compare its shape with were usable" in result.message


@pytest.mark.blender
def test_no_fresh_plans_are_drawn_unless_configured(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    assert settings.witnesses == 0
    config = planned(settings, witnesses=0)
    fake.script("plan", BURGER_PLAN, scaled(BURGER_PLAN, 1.1))
    with empty_store(tmp_path / "store") as store:
        result = generate(BURGER_PROMPT, settings=config, pool=render_pool, store=store)
    # no fresh plans are drawn: the plan library's burger is what the answer is held against (agreement.against_archetype)
    assert len(plan_requests(fake)) == 1 and "fresh plans" not in result.message, result.message
    assert "archetype of its kind (plan:3)" in result.message


def test_a_witness_that_copies_what_the_prompt_showed_is_no_witness() -> None:
    assert usable_witnesses(["own plan", "the shown exemplar", None], lambda s: s == "the shown exemplar") == ["own plan"]
