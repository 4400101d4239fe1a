"""witnesses: fresh plans of the same request, drawn once a request where the critic has no two verified exemplars of
the kind to compare a plan-built answer with (Settings.witnesses); the critic then compares the answer with them
(review/witnesses.corroborate). Each witness is a plan sampled from the same messages as the first plan (seed +
WITNESS_VARIANT + k); a witness plan that fails its own checks is revised as any plan is, by this node again (routing:
witnesses → witnesses while one is due), and one that copies what the prompt showed is left out."""

from __future__ import annotations

import time
from typing import Any

from ...model.llm import LLMError
from ...review.copies import copied_exemplar, shown_sources
from ...review.witnesses import WITNESS_VARIANT, usable_witnesses
from ..context import RunContext
from ..drafts import new_plan, revised_plan
from ..state import GenState


def witnesses_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """Draw state.max_witnesses fresh plans for the current attempt's request (one model call each), or revise those
    still due; back to the critic with them once none is."""
    a = state.attempt(state.current)
    assert a is not None
    start = time.monotonic()
    done: dict[str, Any] = {"witnesses_due": False, "witnesses_drawn": True, "witness_drafts": []}
    try:
        if not state.witness_drafts:
            ctx.emit("witnesses", attempt=a.index, status=f"drawing {state.max_witnesses} fresh plan(s) to compare its shape with")
            drawn = [
                new_plan(state, ctx, k, a.round, None, "", None, WITNESS_VARIANT + k, resamples=False) for k in range(state.max_witnesses)
            ]
        else:
            drawn = [revised_plan(state, ctx, d) if d.draft is not None else d for d in state.witness_drafts]
    except LLMError as exc:  # the budget ran out, or the endpoint went away: the critic gives no verdict, the answer stands
        return {**done, "witnesses": [], "witness_error": str(exc)}
    if due := [d for d in drawn if d.draft is not None]:
        detail = "; ".join(f"witness {d.index + 1}: {d.note}" for d in due)
        ctx.emit("witnesses", attempt=a.index, status=f"{len(due)} plan(s) to revise", seconds=time.monotonic() - start, detail=detail)
        return {"witness_drafts": drawn}
    sources = shown_sources(state.version, state.exemplars)
    return {**done, "witnesses": usable_witnesses([d.script for d in drawn], lambda s: copied_exemplar(s, sources) is not None)}
