"""redraw: a fresh answer for a request whose answer passed the checks and whose shape disagreed with its verified
neighbours or the shape of its kind (routing.redraw_due): a new sample, not a revision (revising a plan moved its F by
under 0.02 in 20 of 22 runs, bench/replan_rounds.py), so a plan is drawn afresh at the sampling temperature with
seed + k. It is told only what agreement.redraw_hint says of the earlier answer (too tall or flat for its kind, or one
plain solid). A round: one model call; the new answer goes to validate and the critic like any other."""

from __future__ import annotations

import time
from typing import Any

from ...model.llm import LLMError
from ...review.agreement import compared_with, redraw_hint
from ..context import RunContext
from ..drafts import headed, new_attempts, new_plan
from ..state import GenState


def redraw_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """One fresh answer for the current attempt's request (a plan under the plan strategy, else a script)."""
    start = time.monotonic()
    a = state.attempt(state.current)
    assert a is not None
    round_ = state.rounds + 1
    held = a.critique.agreement if a.critique is not None else []
    against = "the archetype" if compared_with(held) == "archetype" else "the verified exemplars"
    earlier = f"its shape did not agree with {against} of its kind"
    hint = redraw_hint(held)  # its proportions, plainness or pattern, where those failed: never its F, cover or floor
    try:
        if state.strategy == "plan":
            new = [new_plan(state, ctx, len(state.attempts), round_, a.index, hint, None, variant=state.n + state.redraws)]
            how = f"redrawn: #{a.index} {earlier}; a fresh plan, sampled" + (
                ", told what the earlier plan lacked (proportions, parts, a pattern)" if hint else ""
            )
        else:
            new = new_attempts(state, ctx, round_=round_, parent=a.index, earlier=f"it ran, but {earlier}" + (f". {hint}" if hint else ""))
            how = f"redrawn: #{a.index} {earlier}; a fresh script"
    except LLMError as exc:  # the round is counted and the error ends the run, as a heal round's
        return {"rounds": round_, "error": str(exc)}
    new = headed(new, how)
    ctx.emit("redraw", attempt=new[0].index, status="redrawn", seconds=time.monotonic() - start, detail=how)
    return {"attempts": [*state.attempts, *new], "rounds": round_, "rule_steps": 0, "redraws": state.redraws + 1}
