"""generate: ask the LLM for n complete scripts (one request, n samples) and turn each reply into an attempt."""

from __future__ import annotations

import time
from typing import Any

from ...model.llm import LLMError
from ..context import RunContext
from ..drafts import CUT_OFF, new_attempts
from ..state import GenState
from ..streaming import speed


def generate_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """First generation: n attempts, or the LLM's error (which ends the run with its fix)."""
    start = time.monotonic()
    try:
        attempts = new_attempts(state, ctx, round_=0)
    except LLMError as exc:
        ctx.emit("generate", status="llm error", seconds=time.monotonic() - start, detail=str(exc))
        return {"error": str(exc)}
    bad = [a for a in attempts if a.failure]
    status = f"{len(attempts)} candidate(s)" + (f", {len(bad)} unusable" if bad else "")
    cut = [f"#{a.index}: {a.note.split('; ', 1)[1]}" for a in attempts if CUT_OFF in a.note]
    due = [f"#{a.index}: {a.note}, to revise" for a in attempts if a.draft is not None]  # revise_plan asks again
    detail = "; ".join(
        [*(f"#{a.index}: {a.failure}" for a in bad), *cut, *due, *([speed(ctx.llm.stats[-1])] if ctx.llm and ctx.llm.stats else [])]
    )
    ctx.emit("generate", attempt=attempts[0].index, status=status, seconds=time.monotonic() - start, detail=detail)
    return {"attempts": [*state.attempts, *attempts], "model": model_label(ctx)}


def model_label(ctx: RunContext) -> str | None:
    """The name of the model that answered (the configured one, else the first the endpoint serves)."""
    try:
        return ctx.llm.model if ctx.llm is not None else None
    except LLMError:
        return None
