"""The loop with a real model: SmolLM2-135M served by llama.cpp on loopback (loop behaviour is asserted, not script quality)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bpywright.graph.loop.build import build_graph, checkpoint_db, sqlite_checkpointer
from bpywright.graph.loop.context import RunContext
from bpywright.graph.loop.nodes.critic import RUBRIC_SCHEMA, Rubric, rubric
from bpywright.graph.loop.nodes.heal import heal_node
from bpywright.graph.loop.run import generate
from bpywright.graph.loop.state import Attempt, GenState
from bpywright.graph.model import llm as llm_module
from bpywright.graph.model.llm import LLMClient
from bpywright.harness.report import RunReport

from .samples import PROMPT, THREE_CUBES, failed_run

pytestmark = pytest.mark.model

MAX_TOKENS = 160  # enough to see a script start, a diff or a rubric; the loop's behaviour, not the model's quality, is tested


@pytest.mark.blender
def test_a_whole_generate_runs_the_loop_on_real_model_output(settings, smollm2, render_pool, events) -> None:
    # Short answers and no exemplars in the prompt: SmolLM2 on 2 shared cores reads ~30 tokens/s under load.
    real = dataclasses.replace(
        settings,
        llm_base_url=smollm2.base_url,
        llm_api_key=smollm2.api_key,
        llm_model=smollm2.alias,
        max_heal_rounds=1,
        budget_s=900.0,
        prompt_exemplars=0,
    )
    client = LLMClient(smollm2.base_url, smollm2.alias, max_tokens=MAX_TOKENS, api_key=smollm2.api_key)
    result = generate("a red cube on a grey floor", settings=real, pool=render_pool, on_event=events, llm=client)
    with sqlite_checkpointer(checkpoint_db(real)) as saver:
        state = GenState.model_validate(build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": result.thread_id}}).values)
    nodes = events.nodes()
    assert nodes[:2] == ["retrieve", "generate"] and nodes[-1] == "done"
    assert result.outcome in ("accepted", "best_attempt", "failed") and result.attempts == len(state.attempts) >= 1
    assert state.attempts[0].origin == "generate" and state.model == "smollm2-135m"
    if result.outcome != "accepted":  # the round was used: a heal turn (rules or the real model) or a regeneration followed
        assert state.rounds == 1 and any(a.round == 1 for a in state.attempts) and "heal" in nodes
        assert f"{state.rounds} heal round(s) used" in result.message or "budget" in result.message
    else:
        assert result.model == "smollm2-135m" and result.script and "written by smollm2-135m" in result.message
    first = next(e for e in events if e.node == "generate" and e.status != "writing")
    assert "tok/s" in first.detail and "first token" in first.detail  # streamed: speed and time to first token measured


@pytest.mark.blender
def test_the_critic_parses_a_real_servers_schema_constrained_reply(settings, smollm2, render_pool) -> None:
    llm_module._SCHEMA_FORM.pop(smollm2.base_url.rstrip("/"), None)
    client = LLMClient(
        smollm2.base_url, smollm2.alias, max_tokens=600, api_key=smollm2.api_key
    )  # room for the longest rubric the schema allows
    text = client.structured(
        [{"role": "user", "content": "Rate this scene for 'three red cubes': three red cubes exist."}], "critique", RUBRIC_SCHEMA
    )
    parsed = Rubric.model_validate(json.loads(text, strict=False))  # as the critic reads it
    assert 0.0 <= parsed.score <= 1.0 and len(parsed.reasons) <= 5
    assert llm_module._SCHEMA_FORM[smollm2.base_url.rstrip("/")] == "json_object"  # llama.cpp refused json_schema; learnt once
    ctx = RunContext(settings=settings, thread_id="critic-real", pool=render_pool, llm=client)
    attempt = Attempt(index=0, origin="generate", script=THREE_CUBES, run=RunReport(status="ok", backend="bpy-module", sandbox="bwrap"))
    answer, why = rubric(GenState(prompt=PROMPT), ctx, attempt, {"run": True}, [])
    assert answer is not None and why == "" and 0.0 <= answer.score <= 1.0


@pytest.mark.blender
def test_an_llm_heal_turn_gets_a_real_reply(settings, smollm2, render_pool) -> None:
    client = LLMClient(smollm2.base_url, smollm2.alias, max_tokens=MAX_TOKENS, api_key=smollm2.api_key)
    ctx = RunContext(settings=settings, thread_id="heal-real", pool=render_pool, llm=client)
    broken = "import bpy\nsize = compute_size()\nbpy.ops.mesh.primitive_cube_add(size=size)\n"
    failed = failed_run("NameError", "name 'compute_size' is not defined", 2)
    state = GenState(prompt="a cube", attempts=[Attempt(index=0, origin="generate", script=broken, run=failed, checked=True)], current=0)
    update = heal_node(state, ctx)
    new = update["attempts"][-1]
    assert update["rounds"] == 1 and new.origin == "heal-llm" and new.parent == 0  # no rule explains a NameError: the model was asked
    assert client.stats and client.stats[0].kind == "stream" and client.stats[0].tokens > 0
    assert (new.script is not None and new.script != broken) or new.failure  # a usable patch, or the reason it was not one
