"""Attempts drawn from the model: n complete scripts from the generator prompt, or part plans that the builder turns
into scripts. One model call a step: a plan that fails its own checks is left a draft (Attempt.draft) that the revise_plan
node asks again (routing.plan_due), so each revision is an edge of the graph. The generate, heal, redraw and revise_plan
nodes draw through here."""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..model.extract import extract_script
from ..model.llm import HOW_TO_CONFIGURE, VARIANT_TEMPERATURE, LLMError, OutOfTime
from ..model.prompting import generator_messages
from ..review.copies import LIBRARY_SOURCE, SHAPE_SOURCE, copies_of, shown_sources
from .context import RunContext
from .routing import plan_due
from .state import Attempt, GenState, PlanDraft
from .streaming import token_progress

CUT_OFF = "the reply was cut off at the token limit"


def new_attempts(
    state: GenState, ctx: RunContext, *, round_: int, parent: int | None = None, earlier: str = "", copied: str = ""
) -> list[Attempt]:
    """n fresh attempts from the generator prompt (raises LLMError when the endpoint cannot answer); earlier: how the
    script they replace failed (said in the prompt, which also makes a seeded server answer differently); copied: the
    request of an exemplar an earlier answer copied. Exemplars an attempt copied are left out of the prompt."""
    if ctx.llm is None:
        raise LLMError(f"no LLM configured: {HOW_TO_CONFIGURE}")
    if state.strategy == "plan":
        from ..plans.plan import plan_of_script

        feedback = "; ".join(x for x in (earlier, f"an earlier answer was {copied}" if copied else "") if x)
        before = state.attempt(parent)
        previous = plan_of_script(before.script) if before is not None and not copied else None
        first = len(state.attempts)
        # n plans at once: an endpoint that batches (vLLM on a GPU) writes them together; llama.cpp's server takes them
        # one at a time, as a loop would. Candidate k > 0 is sampled (seed + k), or all n would be the greedy plan.
        return in_parallel(lambda i: new_plan(state, ctx, first + i, round_, parent, feedback, previous, i), list(range(state.n)))
    taken = {e.id for e in copies_of(state.attempts, state.exemplars).values()}
    shown = [e for e in state.exemplars if e.id not in taken]
    messages = generator_messages(state.prompt, state.version, state.symbols, shown, earlier=earlier, copied=copied)
    node = "generate" if round_ == 0 else "heal"
    replies = ctx.llm.chat(
        messages,
        n=state.n,
        temperature=VARIANT_TEMPERATURE if state.n > 1 else None,  # n > 1 needs diverse samples; one keeps the server's default
        on_token=token_progress(ctx, node, len(state.attempts)) if state.n == 1 else None,
    )
    looped = state.n == 1 and bool(ctx.llm.stats) and ctx.llm.stats[-1].looped  # streamed, and stopped mid-loop
    attempts = []
    for i, reply in enumerate(replies):
        found = extract_script(reply, complete=True)
        why = f"{CUT_OFF} (stopped early: it kept repeating itself)" if looped else CUT_OFF
        cut = f"; {why}: its last {found.dropped} line(s) left out" if found.dropped else ""
        attempts.append(
            Attempt(
                index=len(state.attempts) + i,
                origin="generate",
                round=round_,
                parent=parent,
                script=found.code,
                failure=found.failure,
                note=f"sample {i + 1}/{len(replies)}{cut}",
            )
        )
    return attempts


T = TypeVar("T")
R = TypeVar("R")


def in_parallel(fn: Callable[[T], R], items: list[T]) -> list[R]:
    """fn of each item: one directly, several in threads, each in a copy of this context (it holds the deadline)."""
    if len(items) == 1:
        return [fn(items[0])]
    with ThreadPoolExecutor(max_workers=max(1, len(items))) as workers:
        futures = [workers.submit(contextvars.copy_context().run, fn, item) for item in items]
        return [f.result() for f in futures]


def new_plan(
    state: GenState,
    ctx: RunContext,
    index: int,
    round_: int,
    parent: int | None,
    feedback: str,
    previous: Any = None,
    variant: int = 0,
) -> Attempt:
    """One attempt from a part plan: the model writes the parts as schema-constrained JSON, the builder writes the
    script. One model call: a plan that fails its own checks, or is unusable, is left a draft (Attempt.draft) that the
    revise_plan node asks again, before any Blender run (cheap: a short JSON answer). previous: the plan a heal round
    revises (the critic's findings in feedback), else None: a fresh plan. variant: which of n candidates
    (LLMClient.structured: 0 greedy, k > 0 sampled with seed + k)."""
    asked_previous = previous.model_dump_json() if previous is not None else None
    draft = PlanDraft(variant=variant, asked=feedback, asked_previous=asked_previous, feedback=feedback, previous=asked_previous)
    return _draw(state, ctx, Attempt(index=index, origin="generate", round=round_, parent=parent, draft=draft))


def revised_plan(state: GenState, ctx: RunContext, a: Attempt) -> Attempt:
    """The revise_plan node's step for one draft: one model call. A plan that failed its own checks (or was unusable)
    is asked again with the findings as feedback and the plan shown; a plan whose script repeats an earlier attempt's
    is sampled again (a variant of its own: seed + k + n), asked as the first was: a greedy revision that ignored the
    critic gives the same plan, whose run and review could only repeat the verdict."""
    d = a.draft
    assert d is not None
    if d.resample:
        d = PlanDraft(
            variant=d.variant + state.n,
            asked=d.asked,
            asked_previous=d.asked_previous,
            feedback=d.asked,
            previous=d.asked_previous,
            head=d.head,
            repeated=d.repeated,
        )
    return _draw(state, ctx, a.model_copy(update={"draft": d, "script": None}))


def finished(state: GenState, ctx: RunContext, attempts: list[Attempt]) -> list[Attempt]:
    """The attempts with their drafts settled, asked in turn as the graph's revise_plan edges ask them: for a caller
    outside the graph (a one-shot benchmark) that takes the first answer as the graph would validate it."""
    while any(a.draft is not None for a in attempts):
        attempts = in_parallel(lambda a: revised_plan(state, ctx, a) if a.draft is not None else a, attempts)
    return attempts


def headed(attempts: list[Attempt], how: str) -> list[Attempt]:
    """The attempts with how (what drew them: a heal's or redraw's account) first in their notes, a draft's included."""
    out = []
    for x in attempts:
        if x.draft is not None:
            d = x.draft.model_copy(update={"head": how})
            out.append(x.model_copy(update={"draft": d, "note": _note(d)}))
        else:
            out.append(x.model_copy(update={"note": f"{how}; {x.note}"}))
    return out


PlanSources = tuple[list[tuple[str, str]], tuple[str, str] | None, set[str]]


def plan_sources(state: GenState) -> PlanSources:
    """What a plan prompt shows and what it checks copies against: verified exemplars' scenes as plans (stored), the
    critic's shape of the kind (Settings.plan_shapes), shown first, and the library plans not to show again (left_out).
    An exemplar an earlier attempt copied is left out, as from a code prompt, and so is a library plan it copied ("Make a
    toy car." otherwise draws the library's toy car again each time it is shown). Earlier: the checked attempts (a draft
    of this round is no earlier attempt)."""
    earlier = [a for a in state.attempts if a.checked]
    copied = copies_of(earlier, shown_sources(state.version, state.exemplars)).values()
    taken = {e.id for e in copied}
    left_out = {e.prompt for e in copied if e.source == LIBRARY_SOURCE}
    stored = [(e.prompt, e.plan) for e in state.exemplars if e.plan and e.id not in taken and e.source != SHAPE_SOURCE]
    shape = next(((e.prompt, e.plan) for e in state.exemplars if e.source == SHAPE_SOURCE and e.id not in taken), None)
    return stored, shape, left_out


def _draw(state: GenState, ctx: RunContext, a: Attempt) -> Attempt:
    """a with the draft's next plan drawn (one model call), then settled unless routing.plan_due says it is asked again.
    OutOfTime with a plan in hand settles on that plan; with none, it is raised. Unusable JSON is the next feedback."""
    from ..plans.plan import PLAN_SCHEMA, Plan, PlanError, grounded, parse_plan, plan_findings, plan_messages
    from ..review.relations import plan_placement_findings

    assert ctx.llm is not None and a.draft is not None
    d = a.draft
    stored, shape, left_out = plan_sources(state)
    messages = plan_messages(
        state.prompt,
        state.version,
        feedback=d.feedback,
        previous=Plan.model_validate_json(d.previous) if d.previous is not None else None,
        examples=state.plan_examples,
        stored=stored,
        shape=shape,
        left_out=left_out,
    )
    try:
        text = ctx.llm.structured(messages, "plan", PLAN_SCHEMA, generator=True, variant=d.variant)
    except OutOfTime:
        if d.plan is None:
            raise
        return _settled(state, a, d.model_copy(update={"notes": [*d.notes, "no time left to revise it"]}))  # the plan in hand
    drawn = d.drawn + 1
    try:
        plan = grounded(parse_plan(text), state.prompt)
    except PlanError as exc:
        note = f"plan {drawn} unusable ({exc})"
        d = d.model_copy(
            update={
                "drawn": drawn,
                "plan": None,
                "findings": [],
                "feedback": f"the last plan was unusable: {exc}",
                "notes": [*d.notes, note],
            }
        )
    else:
        # its own checks, then where the request puts its parts ("a lamp on a bedside table"), from the plan's boxes
        findings = [*plan_findings(plan, state.prompt, state.plan_examples, stored, shape), *plan_placement_findings(plan, state.prompt)]
        note = f"plan {drawn}: {len(plan.parts)} part(s)" + (f"; {'; '.join(findings[:3])}" if findings else "")
        again = {"feedback": "; ".join(findings[:5]), "previous": plan.model_dump_json()} if findings else {}
        d = d.model_copy(update={"drawn": drawn, "plan": plan.model_dump_json(), "findings": findings, "notes": [*d.notes, note], **again})
    return _held(state, a, d) if plan_due(d) else _settled(state, a, d)


def _held(state: GenState, a: Attempt, d: PlanDraft) -> Attempt:
    """a as a draft still due an answer: the script of the plan in hand (if any) built, for the repeat check and a
    budget that runs out first."""
    from ..plans.plan import Plan, build_script

    script = build_script(Plan.model_validate_json(d.plan), state.version) if d.plan is not None else None
    return a.model_copy(update={"draft": d, "script": script, "failure": None, "note": _note(d)})


def _settled(state: GenState, a: Attempt, d: PlanDraft) -> Attempt:
    """a with its plan settled: built into its script, or failed with why (no usable plan). A script that repeats an
    earlier attempt's is held once more, to be sampled again."""
    if d.plan is None:
        note = "; ".join(d.notes)
        return a.model_copy(update={"draft": None, "script": None, "failure": f"no usable part plan: {note}", "note": _note(d)})
    held = _held(state, a, d)
    if d.repeated is None:
        repeated = next((x.index for x in state.attempts if x.checked and x.script == held.script), None)
        if repeated is not None:
            return _held(state, a, d.model_copy(update={"repeated": repeated, "resample": True}))
    return held.model_copy(update={"draft": None})


def _note(d: PlanDraft) -> str:
    """The attempt's note: what drew it, that it was sampled again, then what each plan drawn was."""
    again = [f"the plan repeated attempt #{d.repeated}'s, sampled again"] if d.repeated is not None and not d.resample else []
    return "; ".join(x for x in [d.head, *again, *d.notes] if x)
