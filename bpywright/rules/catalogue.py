"""The rule catalogue: every drift rule as a reader sees it, for `bpywright rules list [--json]` and the docs."""

from __future__ import annotations

from pydantic import BaseModel

from .base import DriftRule
from .pack import ALL_RULES


class RuleEntry(BaseModel):
    """One rule: its name, family, the versions where its old form fails, the errors it explains, what its fix leaves out
    of what the script did ("" for nothing), one example."""

    id: str
    family: str
    title: str
    fails_from: str
    fails_until: str | None
    fails_in: str
    explains: list[str]
    runtime_only: bool
    leaves_out: str
    before: str
    after: str


def fails_in(rule: DriftRule) -> str:
    """The Blender versions where the old form fails, in words: "2.80 and later", "4.2 up to 5.2"."""
    return f"{rule.fails_from} up to {rule.fails_until}" if rule.fails_until else f"{rule.fails_from} and later"


def entry(rule: DriftRule) -> RuleEntry:
    """The catalogue entry of one rule."""
    return RuleEntry(
        id=rule.id,
        family=rule.family,
        title=rule.title,
        fails_from=rule.fails_from,
        fails_until=rule.fails_until,
        fails_in=fails_in(rule),
        explains=list(rule.explains),
        runtime_only=rule.runtime_only,
        leaves_out=rule.leaves_out,
        before=rule.example[0],
        after=rule.example[1],
    )


def catalogue(family: str | None = None) -> list[RuleEntry]:
    """Every rule in pack order (the order they apply in), or one family's."""
    return [entry(rule) for rule in ALL_RULES if family is None or rule.family == family]


def render_text(entries: list[RuleEntry]) -> str:
    """The catalogue for a terminal: a header line per rule, then its title, errors and example, indented."""

    def block(label: str, text: str) -> list[str]:
        first, *rest = text.splitlines() or [""]
        return [f"  {label:<9}{first}", *(f"  {'':<9}{line}" for line in rest)]

    out: list[str] = []
    for e in entries:
        out += [f"{e.id}  [{e.family}]  fails on {e.fails_in}{'  (needs a failed run)' if e.runtime_only else ''}", f"  {e.title}"]
        out += [f"  explains {pattern}" for pattern in e.explains]
        out += [f"  leaves out {e.leaves_out}"] if e.leaves_out else []
        out += [*block("before:", e.before), *block("after:", e.after), ""]
    return "\n".join(out)
