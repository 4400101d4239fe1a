"""Read a heal reply's code against the script it patches: a whole script, a fragment of one, or why it is unusable."""

from __future__ import annotations

import re

from .extract import Extracted

_IMPORTS_BPY = re.compile(r"^\s*(import\s+bpy\b|from\s+bpy\b)", re.MULTILINE)


def same_script(one: str, other: str) -> bool:
    """The same script, but for trailing spaces and blank lines at its ends."""

    def lines(text: str) -> list[str]:
        return [line.rstrip() for line in text.strip("\n").splitlines()]

    return lines(one) == lines(other)


def fragment_reason(script: str, found: Extracted) -> str | None:
    """Why valid code is still not the whole script: it lacks the `import bpy` the script has and is under half its length
    (a small model answers with the few lines it changed; run alone they fail at once, or worse, run and build a fraction
    of the scene)."""
    if found.code is None or found.failure is not None:
        return None
    if _imports_bpy(script) and not _imports_bpy(found.code) and _lines(found.code) * 2 < _lines(script):
        return "the reply's code is a fragment without `import bpy`, not the whole script"
    return None  # (as long as half the script or more: the script rewritten, its import forgotten; the rules add it)


def unusable_reason(script: str, found: Extracted) -> str:
    """Why a reply's code cannot be used as it is: not Python, a fragment, or no code at all."""
    return found.failure or fragment_reason(script, found) or "no script"


def _lines(code: str) -> int:
    return sum(1 for line in code.splitlines() if line.strip())


def _imports_bpy(code: str) -> bool:
    return _IMPORTS_BPY.search(code) is not None
