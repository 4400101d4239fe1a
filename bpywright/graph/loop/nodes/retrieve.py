"""retrieve: API symbols for the prompt (when the version's index exists) and 1–3 verified exemplars."""

from __future__ import annotations

import time
from typing import Any

from ..context import RunContext
from ..exemplar_source import RecipeSource
from ..state import ExemplarBrief, GenState, SymbolBrief, brief

SYMBOLS_K = 12
EXEMPLARS_K = 3


def load_index(ctx: RunContext, version: str) -> str:
    """Load the version's symbol index into the context; '' or the reason it is unavailable."""
    if ctx.index is not None:
        return ""
    from ....exemplars.teach import load_taught_index
    from ....ingest.search import IndexMissing

    try:
        ctx.index = load_taught_index(ctx.settings, ctx.store, version)
    except IndexMissing as exc:
        return str(exc)
    return ""


def nearest_exemplars(ctx: RunContext, prompt: str, version: str, k: int) -> tuple[list[ExemplarBrief], str]:
    """From the store when it has any for this version, else the bundled recipes related to the prompt (similarity at
    least settings.exemplar_floor; BM25's nearest when no embedder is loaded); with a note of what was left out."""
    found = ctx.store.nearest(prompt, version, k) if ctx.store is not None and k > 0 else []
    note = ""
    if not found and k > 0:
        recipes = RecipeSource()
        if ctx.index is not None and ctx.index.embedder is not None:
            related = recipes.related(prompt, k, ctx.index.text_vectors, ctx.settings.exemplar_floor)
            found = [e for e, _ in related]
            if not found:
                note = f"no recipe is related to the request (similarity below {ctx.settings.exemplar_floor:.2f})"
        else:
            found = recipes.nearest(prompt, version, k)
    return [ExemplarBrief(id=e.id, prompt=e.prompt, script=e.script, source=e.source, plan=scene_plan(e)) for e in found[:k]], note


def kind_shape(prompt: str, version: str) -> ExemplarBrief | None:
    """The critic's shape of the request's kind (graph/plans/shapes.py, the one the critic holds an answer against), as an
    exemplar to show (Settings.plan_shapes): its plan, and the script it builds for the copy test; None where the
    request's kind has no shape (the plan library's broad kinds are shown anyway)."""
    from ...review.agreement import archetype_of
    from ...review.copies import SHAPE_SOURCE

    found = archetype_of(prompt, version)
    if found is None or found.shown:
        return None
    return ExemplarBrief(id=found.id, prompt=found.request, script=found.script, source=SHAPE_SOURCE, plan=found.plan)


def scene_plan(exemplar: Any) -> str:
    """The exemplar's recorded scene as a plan's JSON (what the plan strategy shows), '' when it recorded none."""
    from ...plans.plan import plan_json
    from ...plans.scene import plan_of_scene

    report = getattr(exemplar, "report", None)
    plan = plan_of_scene(report.scene if report is not None else None, exemplar.prompt)
    return plan_json(plan) if plan is not None else ""


def retrieve_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """Look up symbols and exemplars; a missing index is not an error (generation goes on without API docs)."""
    start = time.monotonic()
    problem = load_index(ctx, state.version)
    symbols: list[SymbolBrief] = []
    if ctx.index is not None:
        symbols = [brief(hit.symbol) for hit in ctx.index.search(state.prompt, k=SYMBOLS_K)]
        note = f"{len(symbols)} symbols from the {state.version} index"
    else:
        note = f"no symbols: {problem}"
    exemplars, left_out = nearest_exemplars(ctx, state.prompt, state.version, max(0, min(EXEMPLARS_K, ctx.settings.prompt_exemplars)))
    if state.plan_shapes and state.llm and state.strategy == "plan" and (shape := kind_shape(state.prompt, state.version)) is not None:
        exemplars.append(shape)
    named = (e.id if e.id.startswith(f"{e.source}:") else f"{e.source}:{e.id}" for e in exemplars)  # "shape:2", not "shape:shape:2"
    detail = f"{note}; exemplars: {', '.join(named) or left_out or 'none'}"
    ctx.emit("retrieve", status=f"{len(symbols)} symbols, {len(exemplars)} exemplars", seconds=time.monotonic() - start, detail=detail)
    return {"symbols": symbols, "symbols_note": note, "exemplars": exemplars}
