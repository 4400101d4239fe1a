"""critic: objective checks (lint, run, render, scene vs prompt) first, then the LLM rubric via a JSON-schema response."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from ...model.llm import LLMError
from ...model.prompting import critic_messages
from ...plans.plan import plan_view
from ...review.agreement import Agreement, GeometryCache, Measure, against_archetype, agree, compared_with, pool_measure, summary
from ...review.checks import objective
from ...review.copies import copies_of, shown_sources
from ...review.grounding import overruled
from ..context import RunContext
from ..ranking import best_of
from ..state import Attempt, Critique, GenState


class Rubric(BaseModel):
    """The critic model's answer (its JSON schema is sent as response_format)."""

    score: float = Field(ge=0.0, le=1.0)
    reasons: list[str] = Field(default_factory=list)
    suggested_fix: str | None = None


RUBRIC_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        # An enum, not minimum/maximum: llama.cpp's grammar ignores numeric bounds (SmolLM2 answered 3 under them).
        "score": {"type": "number", "enum": [i / 10 for i in range(11)]},
        # Bounded so a grammar-constrained small model cannot ramble past max_tokens into JSON cut in half, and short:
        # the score comes first, so the bounds change no verdict, only how long the reasons take to write. The local model
        # filled 5 reasons of 200 characters with one sentence repeated (352 tokens, 42 s a review on a CPU); the loop
        # uses at most 4 reasons and 600 characters of them.
        "reasons": {"type": "array", "items": {"type": "string", "maxLength": 160}, "maxItems": 3},
        "suggested_fix": {"type": ["string", "null"], "maxLength": 240},
    },
    "required": ["score", "reasons", "suggested_fix"],
    "additionalProperties": False,
}


CHECKS_DECIDE = "accepted on the objective and structural checks, without a model's review (BPYWRIGHT_REVIEW=checks)"
UNREVIEWED = "not accepted without the critic's review (an accepted script becomes an exemplar)"
NOT_ASKED = (
    "not reviewed, so not accepted: no critic model is asked (BPYWRIGHT_REVIEW=none; =model asks it, =neighbours accepts "
    "a shape that agrees with verified exemplars of its kind)"
)


def rubric(state: GenState, ctx: RunContext, a: Attempt, checks: dict[str, bool], reasons: list[str]) -> tuple[Rubric | None, str]:
    """Ask the critic model; (None, why) when it cannot answer or its JSON is malformed."""
    assert ctx.llm is not None and a.run is not None
    render = f"{a.run.render.width}x{a.run.render.height}, {a.run.render.nonblank_fraction:.0%} non-blank" if a.run.render else ""
    # A plan-built script is reviewed as its PARTS table: the fixed builder is the same in every one (plan_view).
    script = plan_view(a.script) or a.script or ""
    messages = critic_messages(state.prompt, script, checks, reasons, a.run.scene, render, ctx.settings.accept_threshold)
    try:
        text = ctx.llm.structured(messages, "critique", RUBRIC_SCHEMA)
    except LLMError as exc:
        return None, f"critic unavailable ({exc}); {UNREVIEWED}"
    try:
        return Rubric.model_validate(json.loads(text, strict=False)), ""  # llama.cpp grammars let raw newlines into strings
    except (json.JSONDecodeError, ValidationError, TypeError) as exc:
        if (kept := salvage(text)) is not None:
            return kept, ""
        return None, f"critic reply was not valid rubric JSON ({type(exc).__name__}: {str(exc)[:120]}); {UNREVIEWED}"


_SCORE = re.compile(r'^\s*\{\s*"score"\s*:\s*(\d+(?:\.\d+)?)\s*,\s*"reasons"\s*:\s*\[')
_REASON = re.compile(r'\s*"((?:[^"\\]|\\.)*)"\s*(,|\])')


def salvage(text: str) -> Rubric | None:
    """A rubric cut off in its reasons (the stream stopped: a small model repeating one reason until max_tokens): the
    score, which the schema puts first, and the reasons written whole. 10 of the local model's reviews on the fidelity
    benchmark ended so, each costing the answer its review. None when the score itself is not there."""
    if (m := _SCORE.match(text)) is None:
        return None
    reasons, at = [], m.end()
    while (r := _REASON.match(text, at)) is not None:
        reasons.append(json.loads(f'"{r.group(1)}"', strict=False))
        at = r.end()
        if r.group(2) == "]":
            break
    try:
        return Rubric(score=float(m.group(1)), reasons=reasons or ["(the critic's reply was cut off)"])
    except ValidationError:
        return None


def measuring(ctx: RunContext, pool: Any = None) -> tuple[Measure, GeometryCache]:
    """How the shape reviews measure a scene (on the local worker pool, no render) and where they cache measurements."""
    measure = pool_measure(pool or ctx.worker_pool(), ctx.job_options().model_copy(update={"render": False}))
    return measure, GeometryCache(ctx.settings.artifacts / "measures")


def neighbour_review(state: GenState, ctx: RunContext, a: Attempt) -> Agreement:
    """BPYWRIGHT_REVIEW=neighbours: measure the scene and compare it with the store's verified exemplars of its kind."""
    from ....harness.pool import WorkerPool

    assert a.script is not None
    pool = ctx.worker_pool()
    if not isinstance(pool, WorkerPool):
        return Agreement(False, "not accepted: agreement with verified exemplars measures scenes on a local worker pool, not a cluster")
    return agree(state.prompt, a.script, state.version, ctx.store, *measuring(ctx, pool))


def archetype_review(state: GenState, ctx: RunContext, a: Attempt, no_verdict: Agreement) -> Agreement:
    """No verified neighbours of the kind (no_verdict): compare the scene with the archetype of its kind (a critic's
    shape, else the plan library's: graph/agreement.against_archetype). Called only after neighbour_review reached the store, so the pool is a local one."""
    assert a.script is not None
    shown = frozenset(e.id for e in state.exemplars)  # the critic's shape, where it was shown (Settings.plan_shapes)
    return against_archetype(state.prompt, a.script, state.version, *measuring(ctx), no_verdict, shown)


def critic_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """Score the current attempt; accept when the objective checks pass and the score reaches the threshold."""
    start = time.monotonic()
    a = state.attempt(state.current)
    if a is None:
        return {"best": best_of(state.attempts, copies_of(state.attempts, shown_sources(state.version, state.exemplars)))}
    if a.critique is None:
        checks, reasons = objective(state.prompt, a, shown_sources(state.version, state.exemplars))
        passed = all(checks.values())
        critique = Critique(score=sum(checks.values()) / len(checks), reasons=reasons, objective_ok=passed, checks=checks)
        by_checks = ctx.settings.review == "checks"  # the objective and structural checks decide: no rubric call
        by_neighbours, agreed = ctx.settings.review == "neighbours", False
        if passed and by_checks:
            critique.reasons.append(CHECKS_DECIDE)
        elif passed and ctx.settings.review == "none":  # no rubric call, and nothing accepted without one
            critique.reasons.append(NOT_ASKED)
        elif passed and by_neighbours:  # no rubric call: the scene's shape against verified exemplars of its kind
            found = neighbour_review(state, ctx, a)
            if found.too_few:  # no verified neighbours of its kind: the archetype of its kind, where there is one
                found = archetype_review(state, ctx, a, found)
            critique.reasons.append(found.why)
            critique.agreement, agreed = summary(found), found.agreed
        elif passed and ctx.llm is not None:
            answer, why = rubric(state, ctx, a, checks, reasons)
            if answer is not None:
                critique = critique.model_copy(
                    update={"score": answer.score, "reasons": answer.reasons, "suggested_fix": answer.suggested_fix, "llm_scored": True}
                )
            else:
                critique.reasons.append(why)
        # Without a model at all the objective checks decide; with one, only its review accepts (a timeout is no verdict).
        reviewed = critique.llm_scored or ctx.llm is None or by_checks
        critique.accepted = critique.objective_ok and (
            agreed if by_neighbours else reviewed and critique.score >= ctx.settings.accept_threshold
        )
        grounded = ctx.settings.review == "grounded"
        if grounded and critique.objective_ok and critique.llm_scored and not critique.accepted and a.run is not None:
            # A rejection whose every reason the scene disproves (a part called missing that is built) is overruled.
            gone, notes = overruled(critique.reasons, state.prompt, a.run.scene)
            if gone:
                critique.accepted, critique.overruled, critique.overruled_because = True, True, notes
        a = a.model_copy(update={"critique": critique})
    attempts = list(state.attempts)
    attempts[a.index] = a
    assert a.critique is not None
    verdict = "accepted" if a.critique.accepted else "rejected"
    if ctx.settings.review == "none" and a.critique.objective_ok:
        status = "passes the checks, not reviewed"
    elif ctx.settings.review == "neighbours" and a.critique.objective_ok:
        against = "the archetype of its kind" if compared_with(a.critique.agreement) == "archetype" else "verified exemplars"
        status = f"agrees with {against}, accepted" if a.critique.accepted else f"passes the checks, not agreed with {against}"
    else:
        status = f"score {a.critique.score:.2f} {verdict}"
    ctx.emit(
        "critic",
        attempt=a.index,
        status=status,
        seconds=time.monotonic() - start,
        detail="; ".join(a.critique.reasons[:4]),
    )
    best = best_of(attempts, copies_of(attempts, shown_sources(state.version, state.exemplars)))
    return {"attempts": attempts, "best": best, "reviews": state.reviews + 1}
