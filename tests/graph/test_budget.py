"""A request always ends with its best attempt and the reason: a copy of the prompt's example is never the answer while
the model can be asked again, and the step budget (or LangGraph's recursion limit behind it) ends the loop like any stop."""

from __future__ import annotations

import itertools

import pytest

from bpywright.graph import routing
from bpywright.graph.copies import system_example
from bpywright.graph.fake_llm import FakeLLM, critic_json
from bpywright.graph.run import generate

from .samples import INDEX_BUG, PROMPT, THREE_CUBES, fenced


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


def _failing_variants():
    """A new failing script on every call (the same IndexError, a different comment), so no rule and no round ends it."""
    for i in itertools.count():
        yield fenced(f"# attempt {i}\n" + INDEX_BUG)


def test_the_step_budget_ends_the_loop_with_its_best_attempt(settings, fake: FakeLLM, render_pool, events, monkeypatch) -> None:
    monkeypatch.setattr(routing, "max_reviews", lambda max_rounds: 2)
    variants = _failing_variants()
    fake.script("generate", fenced(INDEX_BUG)).script("heal", *(lambda body: next(variants) for _ in range(6)))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events, max_rounds=5)
    assert result.outcome == "best_attempt" and result.script is not None
    assert "step budget is used (2 scripts reviewed" in result.message
    assert [e.node for e in events].count("critic") == 2


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
