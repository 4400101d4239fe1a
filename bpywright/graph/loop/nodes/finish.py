"""accept / give_up: write the chosen attempt's script, report and render under runs/THREAD_ID/; accept also stores it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ...review.agreement import compared_with
from ...review.copies import copies_of, describe, shown_sources
from ..context import RunContext
from ..outputs import stored_id, write_outputs
from ..ranking import best_of
from ..routing import unreviewed
from ..state import GenState


def accept_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """The current attempt passed the critic: write it out and add it to the exemplar store (when there is one)."""
    start = time.monotonic()
    a = state.attempt(state.current)
    assert a is not None and a.script is not None and a.run is not None and a.critique is not None
    paths = write_outputs(ctx, a)
    by = f", written by {state.model}" if state.model else ""
    compared = compared_with(a.critique.agreement)
    if compared == "archetype":  # agreement.against_archetype
        verdict = (
            f"its shape agrees with the archetype of its kind ({a.critique.agreement[0]['id']}); "
            "no 2 verified exemplars of its kind in the store"
        )
    elif compared:  # BPYWRIGHT_REVIEW=neighbours: the shape agreed with verified exemplars, no score was given
        ids = ", ".join(str(n["id"]) for n in a.critique.agreement)
        verdict = f"its shape agrees with {len(a.critique.agreement)} verified exemplars of its kind: {ids}"
    else:
        verdict = f"score {a.critique.score:.2f}"
    message = f"accepted attempt #{a.index} ({a.origin}{by}, {verdict}) after {len(state.attempts)} attempt(s)"
    if a.critique.overruled:  # scored low, but every objection the critic gave is disproved by the scene
        message += f"; the critic's low score is overruled: {'; '.join(a.critique.overruled_because[:3])}"
    if ctx.store is not None:
        render = Path(paths["render_path"]) if paths["render_path"] else None
        try:
            stored = ctx.store.add(
                script=a.script,
                prompt=state.prompt,
                report=a.run,
                render=render,
                source="generated",
                blender_version=state.version,
                symbols=None,
            )  # symbols=None: the store extracts the names
            message += f"; stored as exemplar {stored_id(stored)}"
        except Exception as exc:  # the result stands even when the store cannot take it
            message += f"; not stored in the exemplar store ({type(exc).__name__}: {exc})"
    ctx.emit("accept", attempt=a.index, status="accepted", seconds=time.monotonic() - start, detail=message)
    return {"status": "accepted", "message": message, "best": a.index, **paths}


def give_up_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """Out of rounds or budget (or the LLM failed): return the best attempt so far, saying why it was not accepted."""
    from ..routing import max_reviews

    start = time.monotonic()
    copies = copies_of(state.attempts, shown_sources(state.version, state.exemplars))
    best = best_of(state.attempts, copies)
    if state.error:
        why = f"stopped: {state.error}"
    elif (last := state.attempt(state.current)) is not None and unreviewed(state, last):
        if ctx.settings.review == "none":
            why = "stopped: it passes the objective checks, and no critic model is asked"
        elif ctx.settings.review == "neighbours":
            verdict = last.critique.reasons[-1] if last.critique is not None and last.critique.reasons else "not accepted"
            why = f"stopped: it passes the objective checks, and is {verdict}"
        else:
            why = "stopped: it passes the objective checks, and the critic model could not review it"
    elif state.spent_s >= state.budget_s:
        why = f"stopped: the {state.budget_s:.0f} s budget is spent (BPYWRIGHT_BUDGET_S raises it)"
    elif state.reviews >= max_reviews(state.max_rounds):
        why = (
            f"stopped: the loop's step budget is used ({state.reviews} scripts reviewed: heal rounds, free rule steps and "
            "fresh scripts in place of copies; --max-rounds raises it)"
        )
    elif state.rounds < state.max_rounds and state.max_critic_rounds == 0:
        why = (
            "stopped: it runs, and no round is given to the critic's findings (BPYWRIGHT_MAX_CRITIC_ROUNDS=0, or the local "
            "model's catalogue entry: its revisions of a script that ran measured no gain; BPYWRIGHT_MAX_CRITIC_ROUNDS=1 "
            "gives one)"
        )
    elif state.rounds < state.max_rounds and state.critic_rounds >= state.max_critic_rounds:
        why = (
            f"stopped: it runs, and the {state.critic_rounds} round(s) for the critic's findings are used "
            "(BPYWRIGHT_MAX_CRITIC_ROUNDS raises it)"
        )
    else:
        why = f"stopped: {state.rounds} heal round(s) used, the maximum (--max-rounds / BPYWRIGHT_MAX_HEAL_ROUNDS raises it)"
    a = state.attempt(best)
    if a is None:
        ctx.emit("give_up", status="failed", seconds=time.monotonic() - start, detail=why)
        return {"status": "failed", "message": f"no usable script; {why}", "best": None}
    paths = write_outputs(ctx, a)
    run = a.run.status if a.run is not None else "not run"
    score = f", score {a.critique.score:.2f}" if a.critique is not None else ""
    # a reason the stop already gives (the neighbours' verdict on the last attempt) is said once, in the stop
    said = [r for r in a.critique.reasons[:3] if r not in why] if a.critique is not None else [a.failure or ""]
    if (copied := copies.get(a.index)) is not None:
        said.insert(0, f"{describe(copied)}, not a script written for this request")
    reasons = "; ".join(r for r in said if r)
    message = f"not accepted — best attempt #{a.index} ({run}{score})" + (f": {reasons}" if reasons else "") + f"; {why}"
    ctx.emit("give_up", attempt=a.index, status="best_attempt", seconds=time.monotonic() - start, detail=message)
    return {"status": "best_attempt", "message": message, "best": a.index, **paths}
