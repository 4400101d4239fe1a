"""validate: lint + run + render every new attempt in parallel on the worker pool; drop heals that made things worse."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ....rules.healer import compare_runs, fix_file
from ...plans.plan import fixed_builder
from ..context import RunContext
from ..ranking import rank
from ..state import Attempt, GenState
from ..validation import validate_one

SURE_FIRST = ("generate",)  # attempts whose sure rule fixes apply before their first run: fresh scripts from the model


def sure_fixes(attempt: Attempt, version: str) -> Attempt:
    """The attempt with every sure rule fix applied before its first run (rules.healer.fix_file with no failure: only the
    fixes a rule is certain of, e.g. a missing `import math`, `scene.objects.link`); the rules applied are listed in
    `sure_fixes` and the note. After a failed run the healer would apply the same fixes as a free step: here they cost
    no Blender run. Patches (heal-llm) keep the old order: their lineage's excluded rules and discards decide there."""
    if attempt.checked or attempt.script is None or attempt.failure is not None or attempt.origin not in SURE_FIRST:
        return attempt
    healed = fix_file(attempt.script, "", None, None, version, frozenset(attempt.rules_excluded))
    if not healed.changed:
        return attempt
    done = [f"{r.rule} (line {', '.join(map(str, r.lines))})" for r in healed.applied]
    note = f"{attempt.note}; sure fixes before its first run: {', '.join(done)}".lstrip("; ")
    return attempt.model_copy(update={"script": healed.script, "sure_fixes": [r.rule for r in healed.applied], "note": note})


def worse_than_parent(attempt: Attempt, parent: Attempt) -> str | None:
    """Why a healed attempt is worse than the one it came from (None when it is not)."""
    if parent.run is None:
        return None
    if attempt.run is None:
        return f"discarded: {attempt.failure or 'nothing to run'} (attempt #{parent.index} stays the one to fix)"
    if compare_runs(parent.script or "", parent.run, attempt.script or "", attempt.run) == "worse":
        return f"discarded: it fails earlier or worse ({attempt.run.status}) than attempt #{parent.index}"
    if parent.run.ok and attempt.run.ok and parent.lint and attempt.lint and len(attempt.lint.blocking) > len(parent.lint.blocking):
        return f"discarded: more blocking lint findings than attempt #{parent.index}"
    return None


def _event(ctx: RunContext, a: Attempt) -> None:
    if a.failure is not None:
        ctx.emit("validate", attempt=a.index, status="unusable", detail=a.failure)
        return
    assert a.run is not None and a.lint is not None
    ctx.emit(
        "lint",
        attempt=a.index,
        status=f"{len(a.lint.blocking)} blocking",
        seconds=a.lint.seconds,
        detail="; ".join(f"line {d.line}: {d.message}" for d in a.lint.blocking[:3]),
    )
    render = f"render {a.run.render.nonblank_fraction:.2f} non-blank" if a.run.render and a.run.render.nonblank_fraction is not None else ""
    ctx.emit("run", attempt=a.index, status=a.run.status, seconds=a.run.timings.total, detail=a.run.failure or render)


def keep_original(ctx: RunContext, a: Attempt) -> None:
    """The script as the model wrote it, before the sure fixes (attempts/NN-as-written.py in the run's folder)."""
    folder = ctx.run_dir / "attempts"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{a.index:02d}-as-written.py").write_text(a.script or "", encoding="utf-8")


def validate_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """Validate pending attempts; the best new one becomes current (or, if every heal was worse, the attempt it came from)."""
    attempts = list(state.attempts)
    for i, a in enumerate(attempts):
        if (fixed := sure_fixes(a, state.version)) is not a:
            keep_original(ctx, a)
            attempts[i] = fixed
            ctx.emit("rules", attempt=a.index, status="sure fixes before the run", detail=fixed.note.rsplit("; ", 1)[-1])
    pending = [a for a in attempts if not a.checked]
    options = ctx.job_options()  # makes the pool (if generate() was given none) here, before the threads share it
    if not all(fixed_builder(a.script, state.version) for a in pending if a.failure is None):
        ctx.version_linter()  # and the linter (not started for plan-built scripts alone: they skip it)
    with ThreadPoolExecutor(max(1, len(pending))) as ex:
        done = list(ex.map(lambda a: validate_one(a, ctx, options), pending))
    for a in done:
        if a.parent is not None and a.origin != "generate":
            parent = attempts[a.parent]
            reason = worse_than_parent(a, parent)
            if reason:
                a = a.model_copy(update={"discarded": True, "note": f"{a.note}; {reason}".lstrip("; ")})
                excluded = sorted({*parent.rules_excluded, *a.rules_applied})
                attempts[parent.index] = parent.model_copy(update={"rules_excluded": excluded})
        attempts[a.index] = a
        _event(ctx, a)
        if a.discarded:
            ctx.emit("validate", attempt=a.index, status="discarded", detail=a.note)
    kept = [attempts[a.index] for a in done if not attempts[a.index].discarded]  # `done` holds them as run, before discards
    current: int | None
    if kept:
        current = max(kept, key=rank).index
    else:
        current = next((a.parent for a in done if a.parent is not None), state.current)
    return {"attempts": attempts, "current": current}
