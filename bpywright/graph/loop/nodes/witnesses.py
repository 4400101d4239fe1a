"""witnesses: fresh plans of the same request, drawn once a request where the critic has no two verified exemplars of
the kind to compare a plan-built answer with (Settings.witnesses); the critic then compares the answer with them
(review/witnesses.corroborate). Each witness is a plan sampled from the same messages as the first plan (seed +
WITNESS_VARIANT + k); a witness that copies what the prompt showed is left out."""

from __future__ import annotations

from typing import Any

from ...model.llm import LLMError
from ...review.copies import copied_exemplar, shown_sources
from ...review.witnesses import draw_witnesses
from ..context import RunContext
from ..drafts import witness_plan
from ..state import GenState


def witnesses_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """Draw state.max_witnesses fresh plans for the current attempt's request; back to the critic with them."""
    a = state.attempt(state.current)
    assert a is not None
    sources = shown_sources(state.version, state.exemplars)

    def draw(variant: int) -> str | None:
        return witness_plan(state, ctx, variant)

    ctx.emit("witnesses", attempt=a.index, status=f"drawing {state.max_witnesses} fresh plan(s) to compare its shape with")
    done: dict[str, Any] = {"witnesses_due": False, "witnesses_drawn": True}
    try:
        return {**done, "witnesses": draw_witnesses(draw, state.max_witnesses, lambda s: copied_exemplar(s, sources) is not None)}
    except LLMError as exc:  # the budget ran out, or the endpoint went away: the critic gives no verdict, the answer stands
        return {**done, "witnesses": [], "witness_error": str(exc)}
