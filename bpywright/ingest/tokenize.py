"""Identifier-aware tokenisation for BM25: dotted, snake_case and CamelCase names and prose, one pipeline."""

from __future__ import annotations

import re

# Dotted identifiers stay whole so that their components can be split and joined below.
_WORD = re.compile(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*")
# CamelCase pieces: acronym before a capitalised word (UVSphere → UV, Sphere), words, acronyms, 2d/3d, numbers.
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+[dD](?![a-z])|[0-9]+")

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each either etc few for from further had has
    have having he her here hers how i if in into is it its itself just let may me might more most much must
    my no nor not of off on once only or other our out over own same she should so some such than that the
    their them then there these they this those through to too under until up very was we were what when where
    which while who whom why will with within would you your""".split()
)
# Plurals the s-stemmer gets wrong, common in the Blender API (vertices, indices, matrices).
_IRREGULAR = {"vertices": "vertex", "indices": "index", "matrices": "matrix", "children": "child", "meshes": "mesh",
              "boxes": "box", "brushes": "brush", "patches": "patch", "sketches": "sketch", "axes": "axis"}  # fmt: skip


def stem(word: str) -> str:
    """Light, deterministic plural stripping (Harman's S-stemmer plus a few irregular plurals)."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) <= 3:
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss", "is")):
        return word[:-1]
    return word


def split_identifier(name: str, *, joined: bool = True) -> list[str]:
    """Lowercased pieces of a dotted/snake/Camel name, plus (joined=True) each multi-piece component joined (objectmodifiers)."""
    out: list[str] = []
    for component in name.split("."):
        pieces = [p.lower() for chunk in component.split("_") for p in _CAMEL.findall(chunk)]
        out.extend(pieces)
        if joined and len(pieces) > 1:
            out.append("".join(pieces))
    return out


def tokenize(text: str) -> list[str]:
    """BM25 tokens of names or prose: split identifiers, lowercase, drop stopwords and bare numbers, stem."""
    tokens: list[str] = []
    for word in _WORD.findall(text):
        for piece in split_identifier(word):
            if piece in STOPWORDS or piece.isdigit() or len(piece) < 2:
                continue
            tokens.append(stem(piece))
    return tokens
