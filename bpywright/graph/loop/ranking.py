"""Which attempt is better: accepted first, then how far it ran, whether it passed the objective checks, the critic's
score, fewer lint findings, a fuller render.

The objective checks come before the score: an attempt that fails them is scored by the share of checks it passed (a
blank render: 0.75), one that passes them by the rubric (the local model's storage box: 0.3 for a lid it missed), and the two
numbers do not compare. Ranked by score alone, the blank render was returned over the same scene framed.

Among scripts that got as far, one that copies an exemplar comes after one written for the request: the red chair's
copied wooden table (score 0.70, a fuller render) was returned over the chair written after it (score 0.70)."""

from __future__ import annotations

from collections.abc import Collection

from ..review.agreement import closeness
from .state import Attempt

_STATUS = {"ok": 3, "error": 2, "timeout": 1, "crash": 1, "rejected": 0}


def rank(a: Attempt, copies: Collection[int] = ()) -> tuple:
    """A sort key: larger is better (copies: indices of attempts that copy an exemplar)."""
    critique = a.critique
    status = _STATUS.get(a.run.status, -1) if a.run is not None else -1
    blocking = len(a.lint.blocking) if a.lint is not None else 99
    nonblank = (a.run.render.nonblank_fraction or 0.0) if a.run is not None and a.run.render is not None else 0.0
    return (
        not a.discarded,
        bool(critique and critique.accepted),
        status,
        a.index not in copies,
        bool(critique and critique.objective_ok),
        critique.score if critique else 0.0,
        closeness(critique) if critique else -1.0,
        -blocking,
        nonblank,
        a.index,
    )


def best_of(attempts: list[Attempt], copies: Collection[int] = ()) -> int | None:
    """The index of the best attempt that has a script (None when there is none; copies: see rank)."""
    candidates = [a for a in attempts if a.script is not None and not a.discarded] or [a for a in attempts if a.script is not None]
    return max(candidates, key=lambda a: rank(a, copies)).index if candidates else None
