"""A generated script that copies an exemplar from its prompt nearly line for line.

Small models copy a shown exemplar when it is close to the request: asked for "a red chair with four legs", the 1.5B
returned the wooden-table recipe it was shown, 98 % of its lines unchanged. The critic rejects it (a table, not a chair),
and a patch of a copy is a rewrite the small model does not manage (its patch built nothing). The heal step writes a
fresh script instead, told what it copied and shown the exemplars it did not copy.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from .state import Attempt, ExemplarBrief

COPY_RATIO = 0.8  # shared lines / all lines (difflib's ratio on code lines); the benchmark's own scripts stay below 0.15


def _code_lines(script: str) -> list[str]:
    return [s for line in script.splitlines() if (s := line.strip()) and not s.startswith("#")]


def copied_exemplar(script: str | None, exemplars: Iterable[ExemplarBrief]) -> ExemplarBrief | None:
    """The exemplar the script copies (COPY_RATIO of its code lines or more), if any."""
    if not script:
        return None
    mine = _code_lines(script)
    best: tuple[float, ExemplarBrief] | None = None
    for e in exemplars:
        ratio = difflib.SequenceMatcher(None, mine, _code_lines(e.script), autojunk=False).ratio()
        if ratio >= COPY_RATIO and (best is None or ratio > best[0]):
            best = (ratio, e)
    return best[1] if best else None


def copies_of(attempts: Iterable[Attempt], exemplars: list[ExemplarBrief]) -> dict[int, ExemplarBrief]:
    """The attempts not accepted that copy an exemplar (index → the exemplar): they rank below the scripts written for the
    request, and a fresh script is not shown what they copied."""
    found = ((a.index, copied_exemplar(a.script, exemplars)) for a in attempts if not (a.critique and a.critique.accepted))
    return {index: e for index, e in found if e is not None}
