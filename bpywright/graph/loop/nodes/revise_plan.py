"""revise_plan: the part plans of new attempts that failed their own checks (floating parts, parts the request names
missing, unusable JSON) are asked again, one model call each, told the findings and shown the plan; a plan whose
script repeats an earlier attempt's is sampled again. Routing (routing.plan_due) sends a draft back here until its plan
passes its checks or its revisions are used, then on to validate: each revision is an edge of the graph."""

from __future__ import annotations

import time
from typing import Any

from ...model.llm import LLMError
from ..context import RunContext
from ..drafts import in_parallel, revised_plan
from ..state import Attempt, GenState


def revise_plan_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """One more answer for every drafted plan (n candidates at once); an LLM error ends the run, its drafts dropped."""
    start = time.monotonic()
    due = [a for a in state.attempts if a.draft is not None]
    try:
        revised = in_parallel(lambda a: revised_plan(state, ctx, a), due)
    except LLMError as exc:
        ctx.emit("revise_plan", attempt=due[0].index if due else 0, status="llm error", seconds=time.monotonic() - start, detail=str(exc))
        return {"attempts": [a for a in state.attempts if a.checked], "error": str(exc)}
    attempts = list(state.attempts)
    for before, a in zip(due, revised, strict=True):
        attempts[a.index] = a
        ctx.emit("revise_plan", attempt=a.index, status=_status(before, a), seconds=time.monotonic() - start, detail=a.note)
    return {"attempts": attempts}


def _status(before: Attempt, a: Attempt) -> str:
    """What the step did: 'revised' or 'sampled again', then whether the plan is settled or due another answer."""
    assert before.draft is not None
    how = "sampled again" if before.draft.resample else "revised"
    if a.draft is not None:
        return f"{how}, to ask again"
    return f"{how}, unusable" if a.failure else f"{how}, settled"
