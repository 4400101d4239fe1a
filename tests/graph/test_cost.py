"""A request's own cost report (FAKE LLM on loopback, real lint, real Blender), and the rounds it no longer pays:
sure rule fixes before the first run, no rubric call when the objective checks already failed."""

from __future__ import annotations

import json
import math

import pytest

from bpywright.graph.command import cost_line
from bpywright.graph.loop.events import RequestCost
from bpywright.graph.loop.run import CHARS_PER_TOKEN, generate
from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.graph.model.llm import LLMClient, conversation_text, shared_prefix

from .samples import DRIFT_CUBES, PROMPT, THREE_CUBES, TWO_CUBES, fenced


def adds_up(cost: RequestCost) -> None:
    """Every total is the sum of its parts."""
    assert cost.llm_calls == len(cost.calls) > 0
    assert cost.tokens_written == sum(c.tokens for c in cost.calls) > 0
    assert cost.prompt_tokens == sum(c.prompt_tokens for c in cost.calls) > 0
    assert cost.prompt_tokens == (cost.prompt_tokens_processed or 0) + (cost.prompt_tokens_reused or 0)
    assert all(0 <= c.reused_tokens <= c.prompt_tokens for c in cost.calls)
    assert math.isclose(cost.llm_s, sum(c.seconds for c in cost.calls), abs_tol=0.01)
    assert cost.critic_calls == sum(1 for c in cost.calls if c.name == "critique")
    assert 0 <= cost.critic_s <= cost.llm_s and 0 < cost.blender_s < cost.wall_s and cost.blender_runs > 0
    waits = [c.first_token_s for c in cost.calls if c.first_token_s is not None]
    assert cost.first_token_s == cost.calls[0].first_token_s and cost.first_token_total_s == round(sum(waits), 3)


@pytest.mark.blender
def test_a_sure_fix_is_applied_before_the_first_run_one_blender_run_instead_of_two(settings, fake: FakeLLM, render_pool, events) -> None:
    """FAKE LLM: the first script uses scene.objects.link (2.7x API), a fix the rule pack is sure of. Before, it ran, failed,
    was fixed by the rules and ran again (2 Blender runs); now the fix comes before its first run (1 run)."""
    fake.script("generate", fenced(DRIFT_CUBES)).script("critic", critic_json(0.85))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.attempts == 1, result.message
    assert "collection.objects.link(cube)" in (result.script or "") and "scene.objects.link" not in (result.script or "")
    assert events.nodes() == ["retrieve", "generate", "rules", "lint", "run", "critic", "accept", "done"]
    step = next(e for e in events if e.node == "rules")
    assert step.status == "sure fixes before the run" and "scene-objects-link (line" in step.detail  # the user sees the step
    assert fake.roles_asked() == ["generate", "critic"]
    cost = result.cost
    assert cost is not None and cost.blender_runs == 1 and cost.sure_fixes == 1 and cost.rule_steps == 0 and cost.rounds == 0
    adds_up(cost)
    run_dir = settings.runs_dir / result.thread_id
    assert (run_dir / "attempts" / "00-as-written.py").read_text() == DRIFT_CUBES  # what the model wrote, kept
    assert RequestCost.model_validate(json.loads((run_dir / "cost.json").read_text())) == cost  # the run's JSON


@pytest.mark.blender
def test_the_critic_model_is_not_asked_when_the_objective_checks_already_failed(settings, fake: FakeLLM, render_pool, events) -> None:
    """FAKE LLM: two cubes for three: the objective checks reject it, the rubric could not change that, so it is not
    asked (one critic call, for the healed script); the report counts the review decided without it."""
    fake.script("generate", fenced(TWO_CUBES)).script("heal", fenced(THREE_CUBES)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES, result.message
    assert fake.roles_asked() == ["generate", "heal", "critic"]
    cost = result.cost
    assert cost is not None and cost.critic_calls == 1 and cost.critic_skipped == 1 and cost.rounds == 1
    assert cost.blender_runs == 2 and cost.prompt_source == "estimated"  # the FAKE's stream reports no usage, like llama.cpp
    adds_up(cost)
    line = cost_line(cost)
    for part in ("3 call(s)", "prompt ~", "processed", "reused", "critic", "1 review(s) decided without it", "2 run(s)", "1 round(s)"):
        assert part in line, line


def test_prompt_reuse_is_the_prefix_shared_with_the_last_prompt_and_answer(fake: FakeLLM) -> None:
    """A follow-up turn (the heal's 'the whole script, please') extends the last conversation: all of it is reusable by a
    one-slot prompt cache; a conversation with another system prompt shares only the role marker."""
    fake.script("generate", "first answer", "second answer", "third answer")
    llm = LLMClient(fake.base_url, "fake-coder")
    first = [{"role": "system", "content": "You write Blender scripts."}, {"role": "user", "content": "a cube"}]
    llm.chat(first, on_token=lambda piece, stats: None)
    follow = [*first, {"role": "assistant", "content": "first answer"}, {"role": "user", "content": "the whole script, please"}]
    llm.chat(follow, on_token=lambda piece, stats: None)
    other = [{"role": "system", "content": "You judge."}, {"role": "user", "content": "a cube"}]
    llm.chat(other)
    one, two, three = llm.stats
    assert one.reused_chars == 0 and one.prompt_chars == len(conversation_text(first))
    assert two.reused_chars == len(conversation_text(first)) + len("<|assistant|>\nfirst answer")
    assert three.reused_chars == len("<|system|>\nYou ")  # the common text, nothing a real cache would keep
    assert shared_prefix("abcdef", "abcxyz") == 3 and shared_prefix("", "abc") == 0 and shared_prefix("ab", "ab") == 2
    assert 2.5 <= CHARS_PER_TOKEN <= 3.5


@pytest.mark.blender
def test_a_client_shared_by_two_requests_reports_each_its_own_calls(settings, fake: FakeLLM, render_pool) -> None:
    """The benchmark passes one client to every request: the second request's cost.json held the first's calls too (a
    one-shot's 478 tokens in the next loop row's report)."""
    llm = LLMClient.from_settings(settings)
    assert llm is not None
    fake.script("generate", fenced(THREE_CUBES), fenced(THREE_CUBES)).script("critic", critic_json(0.9), critic_json(0.9))
    first = generate(PROMPT, settings=settings, pool=render_pool, llm=llm)
    second = generate(PROMPT, settings=settings, pool=render_pool, llm=llm)
    assert first.cost is not None and second.cost is not None and len(llm.stats) == 4
    assert first.cost.llm_calls == 2 and second.cost.llm_calls == 2
    adds_up(second.cost)


def test_a_server_that_keeps_several_prompt_states_reuses_a_prefix_from_before_the_last_call(fake: FakeLLM) -> None:
    """The local server's RAM cache (SERVER_OPTIONS) keeps several states: the plan revised after a critique reuses the
    plan prompt's prefix, which a one-slot cache lost to the critique. The estimate follows the server it talks to."""
    from bpywright.models.local import PROMPT_STATES

    plan = [{"role": "system", "content": "You plan parts. " * 20}, {"role": "user", "content": "a chair"}]
    review = [{"role": "system", "content": "You judge."}, {"role": "user", "content": "a chair"}]
    revised = [plan[0], {"role": "user", "content": "a chair, with its backrest upright"}]
    whole = shared_prefix(conversation_text(revised), conversation_text(plan))  # the system prompt and "a chair"
    assert whole > len(conversation_text(plan[:1]))
    for states, expected in ((1, len("<|system|>\nYou ")), (PROMPT_STATES, whole)):
        fake.script("generate", "plan", "verdict", "plan again")
        llm = LLMClient(fake.base_url, "fake-coder", prompt_states=states)
        for messages in (plan, review, revised):
            llm.chat(messages)
        assert llm.stats[-1].reused_chars == expected, states
