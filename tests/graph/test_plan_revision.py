"""A part plan that fails its own checks is revised by the revise_plan node, an edge of the graph: generate →
revise_plan → validate, one model call a step, until the plan passes or its revisions are used (routing.plan_due).
These runs stop before validate (LangGraph's interrupt), so no Blender is needed: the path and the drafts are the graph's."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from bpywright.config import Settings
from bpywright.graph.loop import routing
from bpywright.graph.loop.build import CHECKPOINT_TYPES, build_graph, sqlite_checkpointer
from bpywright.graph.loop.context import RunContext
from bpywright.graph.loop.drafts import finished, new_plan
from bpywright.graph.loop.events import ProgressEvent
from bpywright.graph.loop.state import Attempt, GenState, PlanDraft
from bpywright.graph.model.fake_llm import FakeLLM, role_of
from bpywright.graph.model.llm import LLMClient
from bpywright.graph.plans.plan import parse_plan

CHAIR = "a wooden dining chair with four legs and a backrest"
LEG = {"shape": "box", "size": [0.04, 0.04, 0.45], "on": "seat", "side": "bottom", "color": "brown"}
SEAT = {"name": "seat", "shape": "box", "size": [0.45, 0.45, 0.05], "on": "ground", "color": "brown"}
BAD = json.dumps({"object": "chair", "parts": [SEAT]})  # no legs, no backrest: its own checks fail
GOOD = json.dumps(
    {
        "object": "chair",
        "parts": [
            SEAT,
            *({"name": f"leg_{c}", **LEG, "at": c} for c in ("front_left", "front_right", "back_left", "back_right")),
            {"name": "backrest", "shape": "box", "size": [0.45, 0.04, 0.45], "on": "seat", "at": "back", "color": "brown"},
        ],
    }
)


class Run:
    """One request through the compiled graph, stopped before validate: the nodes it went through, its events, state."""

    def __init__(
        self, settings: Settings, fake: FakeLLM, *, n: int = 1, checkpointer: Any = None, stop: str = "validate", prompt: str = CHAIR
    ) -> None:
        self.events: list[ProgressEvent] = []
        self.path: list[str] = []
        graph = build_graph(
            checkpointer=checkpointer or InMemorySaver(serde=JsonPlusSerializer(allowed_msgpack_modules=list(CHECKPOINT_TYPES)))
        )
        ctx = RunContext(settings=settings, thread_id="t1", llm=LLMClient.from_settings(settings), on_event=self.events.append)
        start = GenState(prompt=prompt, n=n, strategy="plan", max_rounds=1, budget_s=600.0)
        config = {"configurable": {"thread_id": "t1"}, "recursion_limit": 50}
        for update in graph.stream(start, config, context=ctx, stream_mode="updates", interrupt_before=[stop]):
            self.path.extend(k for k in update if not k.startswith("__"))
        snapshot = graph.get_state(config)
        self.next = list(snapshot.next)
        self.state = GenState.model_validate(snapshot.values)
        self.plans = [r for r in fake.chat_requests if role_of(r) == "plan"]


@pytest.fixture
def plan_settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, strategy="plan", plan_examples=0)


def test_a_plan_that_fails_its_checks_goes_generate_revise_plan_validate(plan_settings: Settings, fake: FakeLLM) -> None:
    fake.script("plan", BAD, GOOD)
    run = Run(plan_settings, fake)
    assert run.path == ["retrieve", "generate", "revise_plan"] and run.next == ["validate"]
    assert [e.node for e in run.events if e.node in ("generate", "revise_plan")] == ["generate", "revise_plan"]
    first, revised = run.plans
    asked = revised["messages"][-1]["content"]
    assert "leg" in asked and '"name": "seat"' in asked  # told the findings, shown the plan it revises
    assert '"name": "seat"' not in first["messages"][-1]["content"]
    [a] = run.state.attempts
    assert a.draft is None and a.script is not None and "'backrest'" in a.script and a.failure is None
    assert a.note.startswith("plan 1: 1 part(s); ") and a.note.endswith("; plan 2: 6 part(s)")
    revise = next(e for e in run.events if e.node == "revise_plan")
    assert revise.status == "revised, settled" and revise.attempt == 0
    generate = next(e for e in run.events if e.node == "generate")
    assert "#0: plan 1: 1 part(s)" in generate.detail and "to revise" in generate.detail


def test_a_plan_that_passes_its_checks_goes_straight_to_validate(plan_settings: Settings, fake: FakeLLM) -> None:
    fake.script("plan", GOOD)
    run = Run(plan_settings, fake)
    assert run.path == ["retrieve", "generate"] and run.next == ["validate"] and len(run.plans) == 1
    assert run.state.attempts[0].note == "plan 1: 6 part(s)" and run.state.attempts[0].draft is None


def test_the_revision_limit_ends_revising_with_the_plan_in_hand(plan_settings: Settings, fake: FakeLLM) -> None:
    fake.script("plan", BAD, BAD, GOOD)  # GOOD is never asked for: one revision is the limit
    run = Run(plan_settings, fake)
    assert routing.MAX_PLAN_REVISIONS == 1
    assert run.path == ["retrieve", "generate", "revise_plan"] and run.next == ["validate"] and len(run.plans) == 2
    [a] = run.state.attempts
    assert a.draft is None and a.script is not None and "'seat'" in a.script and "'backrest'" not in a.script
    notes = a.note.split("; plan 2: ")
    assert notes[0].startswith("plan 1: 1 part(s)") and notes[1].startswith("1 part(s)")  # both plans' findings noted


def test_unusable_plan_json_is_the_next_revisions_feedback(plan_settings: Settings, fake: FakeLLM) -> None:
    fake.script("plan", '{"object": "chair", "parts": []}', GOOD)
    run = Run(plan_settings, fake)
    assert run.path == ["retrieve", "generate", "revise_plan"] and len(run.plans) == 2
    assert "the last plan was unusable: the plan has no parts" in run.plans[1]["messages"][-1]["content"]
    [a] = run.state.attempts
    assert a.note.startswith("plan 1 unusable (the plan has no parts") and a.note.endswith("plan 2: 6 part(s)")
    assert a.script is not None and a.failure is None


def test_two_unusable_plans_leave_an_attempt_that_says_why(plan_settings: Settings, fake: FakeLLM) -> None:
    fake.script("plan", "not json", '{"parts": []}')
    run = Run(plan_settings, fake)
    [a] = run.state.attempts
    assert run.next == ["validate"] and a.script is None and a.draft is None
    assert a.failure is not None and a.failure.startswith("no usable part plan: plan 1 unusable (") and "plan 2 unusable (" in a.failure


def test_n_candidates_are_each_revised_in_one_step(plan_settings: Settings, fake: FakeLLM) -> None:
    fake.script("plan", BAD, GOOD, GOOD)  # one candidate needs a revision: three calls in all
    run = Run(plan_settings, fake, n=2)
    assert run.path == ["retrieve", "generate", "revise_plan"] and len(run.plans) == 3
    assert [a.draft for a in run.state.attempts] == [None, None]
    assert sorted(len(re.findall(r"\bplan \d: ", a.note)) for a in run.state.attempts) == [1, 2]
    variants = sorted((r["temperature"], r.get("seed")) for r in run.plans)
    assert len({v for v in variants if v[0] > 0}) == 1  # the revision of a candidate keeps its own sampling


def test_a_draft_is_checkpointed_and_revived(plan_settings: Settings, fake: FakeLLM, tmp_path: Path) -> None:
    """The plan on its way to revise_plan is part of the checkpoint: a run stopped there resumes with it."""
    fake.script("plan", BAD)
    with sqlite_checkpointer(tmp_path / "checkpoints.sqlite") as saver:
        run = Run(plan_settings, fake, checkpointer=saver, stop="revise_plan")
    assert run.next == ["revise_plan"]
    draft = run.state.attempts[0].draft
    assert isinstance(draft, PlanDraft) and draft.drawn == 1 and draft.findings and draft.plan is not None
    assert draft.previous == draft.plan and "leg" in draft.feedback
    assert parse_plan(BAD).parts[0].name == "seat"


def test_a_repeated_plan_is_sampled_again_and_a_caller_outside_the_graph_gets_it_settled(plan_settings: Settings, fake: FakeLLM) -> None:
    """finished() asks as the revise_plan edges do: a plan whose script repeats an earlier attempt's is drawn again
    once with a variant of its own, asked what the first was asked."""
    fake.script("plan", GOOD, GOOD, GOOD.replace("0.45]", "0.5]"))
    settings = dataclasses.replace(plan_settings, llm_sampling=(("seed", 5.0),))
    llm = LLMClient.from_settings(settings)
    ctx = RunContext(settings=settings, thread_id="t2", llm=llm)
    state = GenState(prompt=CHAIR, strategy="plan")
    first = new_plan(state, ctx, 0, 0, None, "")
    assert first.draft is None and first.script is not None
    state = state.model_copy(update={"attempts": [first.model_copy(update={"checked": True})]})
    again = new_plan(state, ctx, 1, 1, 0, "the critic said so")
    assert again.draft is not None and again.draft.resample and again.draft.repeated == 0 and routing.plan_due(again.draft)
    [done] = finished(state, ctx, [again])
    plans = [r for r in fake.chat_requests if role_of(r) == "plan"]
    assert [(r["temperature"], r["seed"]) for r in plans] == [(0.0, 5), (0.0, 5), (0.8, 6)]
    assert "the critic said so" in plans[2]["messages"][-1]["content"]
    assert done.draft is None and done.note.startswith("the plan repeated attempt #0's, sampled again; plan 1:")


def test_a_draft_serialises_as_part_of_an_attempt() -> None:
    a = Attempt(index=0, origin="generate", draft=PlanDraft(plan=parse_plan(GOOD).model_dump_json(), findings=["x"], drawn=1))
    assert Attempt.model_validate_json(a.model_dump_json()) == a


LAMP = "a lamp on a bedside table"
TABLE = {"name": "table", "shape": "box", "size": [0.5, 0.5, 0.6], "on": "ground", "color": "brown"}
SHADE = {"name": "lamp", "shape": "cone", "size": [0.3, 0.3, 0.4], "color": "cream"}


def test_a_plan_that_breaks_a_placement_the_request_states_is_revised_before_it_runs(plan_settings: Settings, fake: FakeLLM) -> None:
    """ "A lamp on a bedside table" planned with the lamp on the ground beside the table: the revision is told where the
    lamp belongs and which fields place it there, before any Blender run."""
    beside = json.dumps({"object": "lamp", "parts": [TABLE, {**SHADE, "on": "table", "side": "right"}]})
    placed = json.dumps({"object": "lamp", "parts": [TABLE, {**SHADE, "on": "table", "side": "top"}]})
    fake.script("plan", beside, placed)
    run = Run(plan_settings, fake, prompt=LAMP)
    assert run.path == ["retrieve", "generate", "revise_plan"] and run.next == ["validate"]
    asked = run.plans[1]["messages"][-1]["content"]
    assert "the request puts the lamp on the table: lamp: not on table" in asked
    assert 'give the lamp "on": "<the table part>" and "side": "top"' in asked
    [a] = run.state.attempts
    assert a.note.endswith("; plan 2: 2 part(s)")
