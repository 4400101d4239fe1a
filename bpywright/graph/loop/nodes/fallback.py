"""fallback (no LLM configured): validate and render the nearest verified exemplar now, and label it retrieved."""

from __future__ import annotations

import time
from typing import Any

from ....rules.healer import heal_once
from ...model.llm import HOW_TO_CONFIGURE
from ..context import RunContext
from ..outputs import write_outputs
from ..ranking import best_of
from ..state import Attempt, GenState
from ..validation import validate_one

NO_LLM = "retrieved, no LLM configured"


def rule_healed(a: Attempt, version: str, ctx: RunContext) -> Attempt | None:
    """The exemplar after one pass of the deterministic rule healer, validated (None when no rule changed it)."""
    assert a.script is not None
    healed = heal_once(a.script, a.run, a.lint, version)
    if not healed.changed:
        return None
    fixed = validate_one(
        Attempt(
            index=a.index + 1,
            origin="heal-rules",
            parent=a.index,
            script=healed.script,
            note=f"{a.note}; rules: {', '.join(r.rule for r in healed.applied)}",
        ),
        ctx,
    )
    ctx.emit("heal", attempt=fixed.index, status="rules", detail=fixed.note)
    return fixed


def fallback_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """The first of the nearest exemplars that runs cleanly here, with its render; outcome 'retrieved'."""
    start = time.monotonic()
    attempts = list(state.attempts)
    chosen: Attempt | None = None
    for exemplar in state.exemplars:
        a = validate_one(
            Attempt(
                index=len(attempts),
                origin="retrieved",
                script=exemplar.script,
                note=f"{exemplar.source} exemplar {exemplar.id}: {exemplar.prompt}",
            ),
            ctx,
        )
        attempts.append(a)
        ctx.emit(
            "run",
            attempt=a.index,
            status=a.run.status if a.run else "not run",
            seconds=a.run.timings.total if a.run else 0.0,
            detail=a.note,
        )
        if not a.ran_ok and a.script is not None:
            a = rule_healed(a, state.version, ctx) or a  # an exemplar stored for an older Blender may only need drift fixes
            if a.index == len(attempts):
                attempts.append(a)
        if a.ran_ok:
            chosen = a
            break
    hint = f"To generate new scripts, point bpywright at an OpenAI-compatible LLM server: {HOW_TO_CONFIGURE}."
    if chosen is None:
        message = f"no LLM configured and none of the {len(state.exemplars)} nearest exemplars ran here. {hint}"
        ctx.emit("fallback", status="failed", seconds=time.monotonic() - start, detail=message)
        return {"attempts": attempts, "status": "failed", "message": message, "best": best_of(attempts)}
    paths = write_outputs(ctx, chosen)
    message = f"{NO_LLM}: the nearest verified exemplar ({chosen.note}), validated and rendered now. {hint}"
    ctx.emit("fallback", attempt=chosen.index, status="retrieved", seconds=time.monotonic() - start, detail=message)
    return {"attempts": attempts, "current": chosen.index, "best": chosen.index, "status": "retrieved", "message": message, **paths}
