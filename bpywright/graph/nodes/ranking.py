"""Which attempt is better: accepted first, then how far it ran, the critic's score, fewer lint findings, a fuller render."""

from __future__ import annotations

from ..state import Attempt

_STATUS = {"ok": 3, "error": 2, "timeout": 1, "crash": 1, "rejected": 0}


def rank(a: Attempt) -> tuple:
    """A sort key: larger is better."""
    critique = a.critique
    status = _STATUS.get(a.run.status, -1) if a.run is not None else -1
    blocking = len(a.lint.blocking) if a.lint is not None else 99
    nonblank = (a.run.render.nonblank_fraction or 0.0) if a.run is not None and a.run.render is not None else 0.0
    return (
        not a.discarded,
        bool(critique and critique.accepted),
        status,
        critique.score if critique else 0.0,
        -blocking,
        nonblank,
        a.index,
    )


def best_of(attempts: list[Attempt]) -> int | None:
    """The index of the best attempt that has a script (None when there is none)."""
    candidates = [a for a in attempts if a.script is not None and not a.discarded] or [a for a in attempts if a.script is not None]
    return max(candidates, key=rank).index if candidates else None
