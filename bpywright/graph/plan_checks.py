"""Cheap checks of a part plan before Blender runs it: against itself (floating, zero-size parts) and against the request
(the counts it states, the parts it names)."""

from __future__ import annotations

import math
import re
from itertools import pairwise

from .expectations import NUMBERS
from .plan_layout import Box, box_of
from .plan_parts import MIN_EXTENT, Part, Plan

TOUCH = 0.02  # share of the object's bounding-box diagonal two parts may be apart and still count as touching
MIN_TOUCH = 0.002  # metres: the least gap allowed, for tiny objects
# Words that make a request a scene of separate things, where a gap between parts is no fault.
SEVERAL = frozenset("scene scenes collection group groups several various scattered pair pairs set sets".split())
# Words that let an object leave the ground (z = 0).
ABOVE_GROUND = frozenset(
    "floating float hanging hang hangs flying fly hovering hover suspended mounted ceiling wall pendant chandelier "
    "balloon cloud kite bird airplane plane drone mobile orbit planet planets".split()
)
# Clauses that list parts: "… with a bun, a patty and cheese", "Add a small stem at the top."
_LISTS = re.compile(
    r"\b(?:with|having|featuring|including|includes|include|comprising|consisting of|has|have|add|adds|attach)\b([^.;:!?]*)"
)
_CUT = re.compile(
    r"\b(?:on|in|at|under|over|above|below|beside|near|next|to|for|from|by|along|around|between|inside|onto|into|that|which|"
    r"where|so|while|like|as|made|colored|coloured|painted)\b"
)
_QUANTITY = frozenset(
    "slice slices piece pieces layer layers pair pairs set sets leaf leaves stack row rows bunch couple strip strips sheet sheets".split()
)
STOP = frozenset(
    """a an the one some any each every its it this that their his her of and or with without plus also both all other
    small large big tiny huge little long short tall wide narrow thin thick flat deep high low round rounded square
    rectangular circular cylindrical spherical conical curved straight smooth simple basic modern classic slightly
    slight about around approximately nearly roughly light dark bright pale shiny glossy matte soft hard
    red green blue yellow orange purple pink white black grey gray brown gold golden silver beige tan navy teal
    wooden wood metal metallic steel iron glass plastic ceramic stone marble leather fabric rubber paper concrete
    top bottom front back side left right middle center centre upper lower inner outer
    m cm mm meter meters metre metres centimeter centimeters centimetres inch inches ft foot feet
    color colour colors colours shape shapes size sizes texture appearance look design style finish detail details
    part parts piece pieces object objects element elements feature features surface surfaces edge edges corner corners
    diameter radius height width length depth thickness weight angle total mix hint touch amount way end ends
    dimension dimensions measurement measurements pattern patterns topping toppings decoration decorations accessory
    accessories item items thing things component components sleek minimalist elegant ergonomic decorative sturdy
    comfortable cozy stylish compact durable traditional contemporary rustic vintage ornate plain solid hollow""".split()
)
SHAPE_WORDS = frozenset("box cube cuboid cylinder cone sphere torus plane part object piece shape block".split())
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")  # hyphenated words (non-slip, cube-shaped) are adjectives: _content skips them


def lemmas(word: str) -> set[str]:
    """The word and the singulars it may be the plural of (pickles → pickle; patties → patty, pattie; shelves → shelf)."""
    word = word.lower()
    forms = {word}
    if len(word) > 3 and word.endswith("ies"):
        forms |= {word[:-3] + "y", word[:-1]}
    elif len(word) > 3 and word.endswith("ves"):
        forms |= {word[:-3] + "f", word[:-3] + "fe", word[:-1]}
    elif len(word) > 3 and word.endswith("es"):
        forms.add(word[:-1])
        if word.endswith(("ses", "xes", "zes", "ches", "shes", "oes")):  # boxes, tomatoes
            forms.add(word[:-2])
    elif len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        forms.add(word[:-1])
    return forms


def _names(part: Part) -> set[str]:
    """The lemmas of a part's name words, and its adjacent words joined (back_rest also answers for 'backrest')."""
    words = [w for w in re.split(r"[^a-z]+", part.name.lower()) if w]
    joined = [a + b for a, b in pairwise(words)] + ["".join(words)]
    return {form for w in words + joined for form in lemmas(w)}


def _matches(noun: str, part: Part) -> bool:
    return bool(lemmas(noun) & _names(part))


def named_parts(prompt: str) -> list[str]:
    """The nouns a request lists as parts, in order: the last word of each item after with/having/add … (a slice of
    cheese → cheese), stop words left out. A request that lists nothing ("a cube", "a desk lamp") names no parts."""
    found: list[str] = []
    for clause in _LISTS.findall(prompt.lower()):
        for item in re.split(r",|\band\b|\bor\b|\bplus\b", clause):
            words = _WORD.findall(_CUT.split(item)[0])
            words = [w for w in words if w not in NUMBERS and not w.isdigit()]
            if len(words) >= 2 and words[-2] == "of" and len(words) >= 3 and words[-3] in _QUANTITY:
                words = words[-1:]
            content = [w for w in words if _content(w)]
            if len(content) >= 2 and content[-1] in _QUANTITY:  # pepperoni slices: the pepperoni
                content.pop()
            if content and content[-1] not in found:
                found.append(content[-1])
    return found


_COUNTED = re.compile(r"\b(\d+|" + "|".join(n for n, v in NUMBERS.items() if v > 1) + r")((?:\s+[a-z]+){1,4})")


def counted_parts(prompt: str) -> dict[str, int]:
    """Nouns the request gives a count of 2 to 24, noun → count: the last word of the noun after the number ("four
    wooden legs", "two shoulder straps", "two sets of coils" → coils)."""
    counts: dict[str, int] = {}
    for number, after in _COUNTED.findall(prompt.lower()):
        count = int(number) if number.isdigit() else NUMBERS[number]
        words = after.split()
        while words and not _content(words[0]) and words[0] not in _QUANTITY:
            words.pop(0)
        run = []
        for w in words:
            if not (_content(w) or w in _QUANTITY):
                break
            run.append(w)
        if run and run[-1] in _QUANTITY and words[len(run) : len(run) + 1] == ["of"] and len(words) > len(run) + 1:
            run = [words[len(run) + 1]]
        if 2 <= count <= 24 and run and _content(run[-1]):
            counts[run[-1]] = count
    return counts


def _content(word: str) -> bool:
    """A word that can name a part: not a stop word, a unit or a number, not an adverb or a participle (textured)."""
    if word in STOP or word in NUMBERS or len(word) < 3 or "-" in word:
        return False
    return not (len(word) > 4 and word.endswith("ly")) and not (len(word) > 5 and word.endswith("ed"))


def _gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    return math.sqrt(sum(max(0.0, a[0][i] - b[1][i], b[0][i] - a[1][i]) ** 2 for i in range(3)))


def floating_groups(plan: Plan) -> list[list[str]]:
    """The parts in groups that touch no part outside their group, largest first (one group when every part connects)."""
    boxes = [box_of(p) for p in plan.parts]
    low = [min(b[0][i] for b in boxes) for i in range(3)]
    high = [max(b[1][i] for b in boxes) for i in range(3)]
    tolerance = max(MIN_TOUCH, TOUCH * math.dist(low, high))
    group = list(range(len(boxes)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if _gap(boxes[i], boxes[j]) <= tolerance:
                group[root(i)] = root(j)
    members: dict[int, list[str]] = {}
    for i, p in enumerate(plan.parts):
        members.setdefault(root(i), []).append(p.name)
    return sorted(members.values(), key=len, reverse=True)


def one_object(prompt: str) -> bool:
    """True when the request asks for one assembled thing (its parts must touch), not a scene of several: no scene word,
    and its head (before with, that, a comma …) joins no two things and counts none ("a table and a chair", "three cubes")."""
    head = _head(prompt)
    return not (set(_WORD.findall(prompt.lower())) & SEVERAL or re.search(r"\band\b", head) or counted_parts(head))


def _head(prompt: str) -> str:
    """The request's first clause, before with, that, a comma …: what it asks for, without its parts."""
    return re.split(r"\b(?:with|having|featuring|that|which|where)\b|[,.;:]", prompt.lower())[0]


def grounded(plan: Plan, prompt: str) -> Plan:
    """The plan moved up or down so its lowest point is at z = 0, unless the request lets it leave the ground (a
    hanging lamp): a free, certain fix that costs the model no revision."""
    if set(_WORD.findall(prompt.lower())) & ABOVE_GROUND:
        return plan
    bottom = min(box_of(p)[0][2] for p in plan.parts)
    if abs(bottom) < MIN_EXTENT:
        return plan
    moved = [p.model_copy(update={"location": (p.location[0], p.location[1], p.location[2] - bottom)}) for p in plan.parts]
    return plan.model_copy(update={"parts": moved})


def plan_findings(plan: Plan, prompt: str) -> list[str]:
    """The plan's faults, each a sentence saying what to change; empty for a plan that fits the request as far as
    cheap checks can tell."""
    findings: list[str] = []
    for p in plan.parts:
        needs = "xy" if p.shape == "plane" else "xyz"
        thin = [axis for axis, v in zip("xyz", p.size, strict=True) if axis in needs and v < MIN_EXTENT]
        if thin:
            findings.append(f"part {p.name!r} has size 0 along {', '.join(thin)}: give it a real width, depth and height")
    words = set(_WORD.findall(prompt.lower()))
    asked = {form for w in words for form in lemmas(w)}  # "three cubes": parts named cube are what was asked
    vague = [p.name for p in plan.parts if (base := p.name.rstrip("_0123456789")) in SHAPE_WORDS and base not in asked]
    if vague:
        findings.append(f"{', '.join(vague)}: name each part by what it is in the object (seat, shade, patty), not by its shape")
    spots: dict[tuple[object, ...], list[str]] = {}
    for p in plan.parts:
        spots.setdefault((p.shape, p.size, p.location, p.rotation), []).append(p.name)
    for names in spots.values():
        if len(names) > 1:
            findings.append(f"parts {', '.join(names)} are the same shape in the same place: give each its own side or corner")
    if one_object(prompt) and len(plan.parts) > 1:
        main, *apart = floating_groups(plan)
        for group in apart:
            many = len(group) > 1
            findings.append(
                f"{'parts' if many else 'part'} {', '.join(group)} {'float' if many else 'floats'}: "
                f"{'they touch' if many else 'it touches'} none of {', '.join(main[:4])}{' …' if len(main) > 4 else ''}; "
                f"move {'them' if many else 'it'} to rest on or against another part"
            )
    counts = counted_parts(prompt)
    whole = counted_parts(_head(prompt))  # "four chairs" before any "with": whole things, each may take several parts
    for noun, want in counts.items():
        have = [p.name for p in plan.parts if _matches(noun, p)]
        if len(have) < want or (len(have) > want and noun not in whole):
            listed = f" ({', '.join(have[:6])})" if have else ""
            findings.append(f"the request asks for {want} {noun}; the plan has {len(have)} part(s) named so{listed}: make it {want}")
    for noun in named_parts(prompt):
        if noun in counts or any(lemmas(noun) & lemmas(c) for c in counts):
            continue
        if not any(_matches(noun, p) for p in plan.parts):
            findings.append(
                f"the request names {noun}, and no part is named for it: add a part named {min(lemmas(noun), key=lambda w: (len(w), w))}"
            )
    return findings
