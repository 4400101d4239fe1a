"""Apply an LLM's unified diff to a script: hunks matched by their context (line numbers are only hints)."""

from __future__ import annotations

import re

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")


class PatchError(ValueError):
    """The diff does not apply: the message says which hunk and why."""


def _hunks(diff: str) -> list[tuple[int, list[str]]]:
    hunks: list[tuple[int, list[str]]] = []
    for line in diff.splitlines():
        match = _HUNK.match(line)
        if match:
            hunks.append((int(match.group(1)), []))
        elif hunks and not line.startswith(("--- ", "+++ ", "\\ No newline")):
            hunks[-1][1].append(line if line[:1] in (" ", "+", "-") else " " + line)  # a bare empty line is empty context
    return hunks


def _find(lines: list[str], old: list[str], hint: int, start: int) -> int | None:
    """Where `old` occurs in lines at or after start, nearest to the hint; trailing whitespace ignored."""
    want = [s.rstrip() for s in old]
    spots = [i for i in range(start, len(lines) - len(old) + 1) if [s.rstrip() for s in lines[i : i + len(old)]] == want]
    return min(spots, key=lambda i: abs(i - hint)) if spots else None


def apply_unified_diff(script: str, diff: str) -> str:
    """The patched script; PatchError when there are no hunks or one's context is not found."""
    hunks = _hunks(diff)
    if not hunks:
        raise PatchError("no @@ hunks in the diff")
    lines = script.splitlines()
    out: list[str] = []
    pos = 0
    for n, (start, body) in enumerate(hunks, 1):
        old = [line[1:] for line in body if line[:1] in (" ", "-")]
        new = [line[1:] for line in body if line[:1] in (" ", "+")]
        at = _find(lines, old, start - 1, pos) if old else min(max(start - 1, pos), len(lines))
        if at is None:
            raise PatchError(f"hunk {n} (at line {start}): its context/removed lines are not in the script")
        out.extend(lines[pos:at])
        out.extend(new)
        pos = at + len(old)
    out.extend(lines[pos:])
    return "\n".join(out) + "\n"
