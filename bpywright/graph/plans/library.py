"""Part plans of everyday objects that a plan request shows beside the request: the one or two whose kind is nearest (a
table's legs for a chair or a desk, a mug's handle for a jug), to adapt, never to repeat; and technique plans, one of
which travels with a request that names its technique (a material, a modifier, a repeat, keyframes, text, a lathe, a
curve, lights and the camera).

A small model imitates what it is shown far better than it follows rules, so the closest plan travels with the request.
Nothing here comes from a benchmark's data: plain objects at real sizes, placed in words (plan_layout). The plans are data
(`data/plan_library.json`, loaded and validated by graph/plans/tables.py). A plan that repeats a shown one is a copy like
any other (graph/review/copies.py compares the PARTS of built scripts): it is revised, and the benchmark counts it a failure.
Technique plans' objects and values are their own, so that a plan that repeats one is a copy, not an answer.
"""

from __future__ import annotations

import re

from ..reading.request import singular
from .tables import Archetype, plan_library

__all__ = ["LIBRARY", "TECHNIQUES", "Archetype", "request_words", "similar", "technique_examples"]

LIBRARY, TECHNIQUES = plan_library()

_WORDS = re.compile(r"[a-z]+(?:-[a-z]+)*")  # a hyphenated word is one: a drum set's hi-hat is no hat


def similar(prompt: str, k: int = 2) -> list[Archetype]:
    """Up to k archetypes whose kind the request names (most words in common first, the library's order on ties);
    none when it names no kind here."""
    words = request_words(prompt)
    scored = [(len(words & a.kinds), i) for i, a in enumerate(LIBRARY)]
    return [LIBRARY[i] for score, i in sorted(scored, key=lambda s: (-s[0], s[1])) if score > 0][: max(k, 0)]


def request_words(prompt: str) -> set[str]:
    """The request's words, singular, as kinds are matched against them."""
    return {singular(w) for w in _WORDS.findall(prompt.lower())}


def technique_examples(prompt: str, k: int = 1) -> list[Archetype]:
    """Up to k technique plans whose words the request names (most in common first, then this order)."""
    words = request_words(prompt)
    scored = [(len(words & a.kinds), i) for i, a in enumerate(TECHNIQUES)]
    return [TECHNIQUES[i] for score, i in sorted(scored, key=lambda s: (-s[0], s[1])) if score > 0][: max(k, 0)]
