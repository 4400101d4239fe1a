"""Identifier-aware tokenisation for BM25: dotted, snake_case and CamelCase names and prose, one pipeline."""

from __future__ import annotations

import functools
import re

# Dotted identifiers stay whole so that their components can be split and joined below.
_WORD = re.compile(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*")
# CamelCase pieces: acronym before a capitalised word (UVSphere → UV, Sphere), words, acronyms, 2d/3d, numbers.
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+[dD](?![a-z])|[0-9]+")

STOPWORDS = frozenset(
    """a about above after again against also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each either etc few for from further had has
    have having he her here hers how i if in into is it its itself just let may me might more most much must
    my no nor not of off on once only or other our out over own same she should so some such than that the
    their them then there these they this those through to too under until up very was we were what when where
    which while who whom why will with within would you your""".split()
)
# Plurals the s-stemmer gets wrong, common in the Blender API (vertices, indices, matrices).
_IRREGULAR = {
    "vertices": "vertex",
    "indices": "index",
    "matrices": "matrix",
    "children": "child",
    "meshes": "mesh",
    "boxes": "box",
    "brushes": "brush",
    "patches": "patch",
    "sketches": "sketch",
    "axes": "axis",
}


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


def camel_words(name: str) -> list[str]:
    """CamelCase words of one identifier, case kept: ShaderNodeBsdfPrincipled → Shader, Node, Bsdf, Principled."""
    return _CAMEL.findall(name)


def split_identifier(name: str, *, joined: bool = True) -> list[str]:
    """Lowercased pieces of a dotted/snake/Camel name; joined=True adds each component joined and its adjacent pairs.

    primitive_uv_sphere_add → primitive, uv, sphere, add, primitiveuv, uvsphere, spheread, primitiveuvsphereadd: the
    pairs let a query "uv sphere" prefer the name where the two words are adjacent.
    """
    out: list[str] = []
    for component in name.split("."):
        pieces = [p.lower() for chunk in component.split("_") for p in _CAMEL.findall(chunk)]
        out.extend(pieces)
        if joined and len(pieces) > 2:
            out.extend(a + b for a, b in zip(pieces, pieces[1:]))
        if joined and len(pieces) > 1:
            out.append("".join(pieces))
    return out


def _keep(piece: str) -> bool:
    return piece not in STOPWORDS and not piece.isdigit() and len(piece) > 1


def tokenize(text: str, *, pairs: bool = False) -> list[str]:
    """BM25 tokens of names or prose: split identifiers, lowercase, drop stopwords and bare numbers, stem.

    pairs=True (queries) adds adjacent words joined, matching the joined pairs of identifiers ("uv sphere" → uvsphere).
    """
    return list(_tokens(text, pairs))


@functools.lru_cache(maxsize=4096)  # one search tokenizes its query several times (BM25, phrase weight, re-rank)
def _tokens(text: str, pairs: bool) -> tuple[str, ...]:
    tokens: list[str] = []
    previous = ""
    for word in _WORD.findall(text):
        tokens += [stem(p) for p in split_identifier(word) if _keep(p)]
        if pairs:
            pieces = [p for p in split_identifier(word, joined=False) if _keep(p)]
            if previous and pieces:
                tokens.append(stem(previous + pieces[0]))
            previous = pieces[-1] if pieces else previous
    return tuple(tokens)


# Everyday modelling words → the API phrases that implement them: a hand-written domain thesaurus, applied to queries
# only (tuned on BlendNet's seed tasks, never on the benchmark's dev set). Keys are stemmed tokens; the phrases are added
# to the BM25 query and searched as extra dense vectors, never replacing the user's words.
def _terms(words: str, *phrases: str) -> dict[str, tuple[str, ...]]:
    return dict.fromkeys(words.split(), phrases)


MODELLING_TERMS: dict[str, tuple[str, ...]] = {
    **_terms("sphere spherical ball globe orb dome bead bubble knob", "add a uv sphere mesh"),
    **_terms(
        "cylinder cylindrical circular leg pole rod stick tube pipe post column pillar stem handle shaft wheel disc disk "
        "barrel trunk rope cable cord coin",
        "add a cylinder mesh",
    ),  # a circular base or lid is a flat cylinder
    **_terms(
        "cube box boxy rectangular rectangle block board plank slab panel brick cuboid square shelf seat tabletop drawer", "add a cube mesh"
    ),
    **_terms("plane flat floor ground sheet rug mat", "add a plane mesh"),
    **_terms("cone conical pointed spike funnel", "add a cone mesh"),
    **_terms("torus ring donut doughnut hoop tire tyre rim", "add a torus mesh"),
    **_terms("circle", "add a circle mesh"),
    **_terms("text label letter lettering word", "add a text object"),
    **_terms("curve curved bezier spline wire", "add a bezier curve"),
    **_terms("bevel bevelled beveled", "bevel modifier"),
    **_terms("smooth smoothly", "shade smooth", "subdivision surface modifier"),
    **_terms("hollow shell thickness", "solidify modifier"),
    **_terms("array repeated repeating", "array modifier"),
    **_terms("mirror mirrored symmetric symmetrical", "mirror modifier"),
    **_terms("hole cutout subtract carve", "boolean modifier"),
    **_terms(
        "color colour colored coloured red green blue yellow black white grey gray brown orange pink purple silver golden "
        "beige wooden wood metal metallic glass plastic fabric leather",
        "new material",
        "material diffuse color",
    ),
    **_terms("size sized tall height long length wide width diameter large big small tiny dimension elongated", "object scale"),
    **_terms("rotate rotated rotation tilt tilted angle angled slanted inclined", "object rotation euler"),
    **_terms("lighting sunlight", "add a light"),
    **_terms("camera", "add a camera"),
}
# Asking for a thing to be made means adding objects: the mesh primitive operators are the API for that.
CREATION_VERBS = frozenset("create design make model build construct craft generate produce visualize render draw".split())
CREATION_PHRASE = "add a primitive mesh"


def modelling_phrases(query: str) -> list[str]:
    """The API phrases a query's modelling words imply (MODELLING_TERMS, CREATION_VERBS), once each, in order."""
    tokens = tokenize(query)
    phrases = [p for t in tokens for p in MODELLING_TERMS.get(t, ())]
    if CREATION_VERBS.intersection(tokens) and not any(p.startswith("add a") for p in phrases):
        phrases.append(CREATION_PHRASE)  # only when no word named what to add
    return list(dict.fromkeys(phrases))


def all_modelling_phrases() -> list[str]:
    """Every phrase modelling_phrases can return (a search index embeds them once, at load)."""
    return list(dict.fromkeys([p for phrases in MODELLING_TERMS.values() for p in phrases] + [CREATION_PHRASE]))
