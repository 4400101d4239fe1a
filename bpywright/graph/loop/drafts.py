"""Attempts drawn from the model: n complete scripts from the generator prompt, or part plans that the builder turns
into scripts (a plan that fails its own checks is revised once). The generate, heal and critic nodes draw through here."""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..model.extract import extract_script
from ..model.llm import HOW_TO_CONFIGURE, VARIANT_TEMPERATURE, LLMError, OutOfTime
from ..model.prompting import generator_messages
from ..review.copies import LIBRARY_SOURCE, SHAPE_SOURCE, copies_of, shown_sources
from .context import RunContext
from .state import Attempt, GenState
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
        if state.n == 1:
            return [new_plan(state, ctx, first, round_, parent, feedback, previous)]
        # n plans at once: an endpoint that batches (vLLM on a GPU) writes them together; llama.cpp's server takes them
        # one at a time, as a loop would. Candidate k > 0 is sampled (seed + k), or all n would be the greedy plan.
        with ThreadPoolExecutor(max_workers=state.n) as workers:  # each in a copy of this context: it holds the deadline
            futures = [
                workers.submit(contextvars.copy_context().run, new_plan, state, ctx, first + i, round_, parent, feedback, previous, i)
                for i in range(state.n)
            ]
            return [f.result() for f in futures]
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


def new_plan(
    state: GenState, ctx: RunContext, index: int, round_: int, parent: int | None, feedback: str, previous: Any = None, variant: int = 0
) -> Attempt:
    """planned_attempt, sampled again once (a variant of its own) when its script repeats an earlier attempt's: a greedy
    revision that ignored the critic gives the same plan, whose run and review could only repeat the verdict (the
    benchmark's cushion: the same 81-token plan, a second Blender run and a 45 s review with the same score)."""
    attempt = planned_attempt(state, ctx, index, round_, parent, feedback, previous, variant)
    repeated = next((a.index for a in state.attempts if attempt.script is not None and a.script == attempt.script), None)
    if repeated is None:
        return attempt
    again = planned_attempt(state, ctx, index, round_, parent, feedback, previous, variant + state.n)
    note = f"the plan repeated attempt #{repeated}'s, sampled again; {again.note}"
    return again.model_copy(update={"note": note})


MAX_PLAN_REVISIONS = 1  # a plan whose own checks fail (floating parts, parts the request names missing) is asked again once


def planned_attempt(
    state: GenState, ctx: RunContext, index: int, round_: int, parent: int | None, feedback: str, previous: Any = None, variant: int = 0
) -> Attempt:
    """One attempt from a part plan: the model writes the parts as schema-constrained JSON, the builder writes the
    script. A plan that fails its own checks is revised once before any Blender run (cheap: a short JSON answer).
    previous: the plan a heal round revises (the critic's findings in feedback), else None: a fresh plan. variant: which
    of n candidates (LLMClient.structured: 0 greedy, k > 0 sampled with seed + k)."""
    from ..plans.plan import PLAN_SCHEMA, PlanError, build_script, grounded, parse_plan, plan_findings, plan_messages

    assert ctx.llm is not None
    notes: list[str] = []
    plan = None
    # verified exemplars' scenes, as plans; an exemplar an earlier attempt copied is left out, as from a code prompt, and
    # so is a library plan it copied ("Make a toy car." otherwise draws the library's toy car again each time it is shown)
    copied = copies_of(state.attempts, shown_sources(state.version, state.exemplars)).values()
    taken = {e.id for e in copied}
    left_out = {e.prompt for e in copied if e.source == LIBRARY_SOURCE}
    stored = [(e.prompt, e.plan) for e in state.exemplars if e.plan and e.id not in taken and e.source != SHAPE_SOURCE]
    # the critic's shape of the kind (Settings.plan_shapes), shown first; left out like an exemplar once an attempt copied it
    shape = next(((e.prompt, e.plan) for e in state.exemplars if e.source == SHAPE_SOURCE and e.id not in taken), None)
    for revision in range(MAX_PLAN_REVISIONS + 1):
        messages = plan_messages(
            state.prompt,
            state.version,
            feedback=feedback,
            previous=previous,
            examples=state.plan_examples,
            stored=stored,
            shape=shape,
            left_out=left_out,
        )
        try:
            text = ctx.llm.structured(messages, "plan", PLAN_SCHEMA, generator=True, variant=variant)
        except OutOfTime:
            if plan is None:
                raise
            notes.append("no time left to revise it")  # the plan in hand is built: it is better than none
            break
        try:
            plan = grounded(parse_plan(text), state.prompt)
        except PlanError as exc:
            feedback, plan = f"the last plan was unusable: {exc}", None
            notes.append(f"plan {revision + 1} unusable ({exc})")
            continue
        findings = plan_findings(plan, state.prompt, state.plan_examples, stored, shape)
        notes.append(f"plan {revision + 1}: {len(plan.parts)} part(s)" + (f"; {'; '.join(findings[:3])}" if findings else ""))
        if not findings:
            break
        feedback, previous = "; ".join(findings[:5]), plan
    note = "; ".join(notes)
    if plan is None:
        return Attempt(index=index, origin="generate", round=round_, parent=parent, failure=f"no usable part plan: {note}", note=note)
    return Attempt(index=index, origin="generate", round=round_, parent=parent, script=build_script(plan, state.version), note=note)
