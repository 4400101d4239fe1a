"""Cheap checks of a part plan before Blender runs it: against itself (floating, zero-size parts) and against the request
(the counts it states, the parts it names)."""

from __future__ import annotations

import math
import re

from ..reading.expectations import NAME_WORDS, expectations
from ..reading.request import counted_parts, head, lemmas, names_part, one_object, plural, requested_parts
from ..reading.techniques import techniques
from .build import look_of, spacing_of
from .layout import Box, box_of
from .parts import MIN_EXTENT, MODIFIERS, PALETTE, PRIMITIVES, STAGING, Modifier, Part, Plan

TOUCH = 0.02  # share of the object's bounding-box diagonal two parts may be apart and still count as touching
MIN_TOUCH = 0.002  # metres: the least gap allowed, for tiny objects
# Words that let an object leave the ground (z = 0).
ABOVE_GROUND = frozenset(
    "floating float hanging hang hangs flying fly hovering hover suspended mounted ceiling wall pendant chandelier "
    "balloon cloud kite bird airplane plane drone mobile orbit planet planets".split()
)
SHAPE_WORDS = frozenset("box cube cuboid cylinder cone sphere torus plane part object piece shape block".split())
# Words for how copies are laid out ("a 10 by 10 grid of cubes", "a row of 5 via an array"): a count before one is met by
# a part repeated (or arrayed) that many times, whatever its name.
LAYOUT_WORDS = frozenset("grid array row column line circle ring copy instance duplicate time".split())
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
# The plan's shape for each kind the scene check counts (expectations.py): a part of this shape, or one named by a word
# of the kind ("floor" for a plane), is one of it, as the scene check will count it. A light and a camera are not here:
# the builder adds both to every scene.
KIND_SHAPES = {"cube": "box", "sphere": "sphere", "cylinder": "cylinder", "cone": "cone", "torus": "torus", "plane": "plane"}


def box_gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 when they touch or overlap)."""
    return math.sqrt(sum(max(0.0, a[0][i] - b[1][i], b[0][i] - a[1][i]) ** 2 for i in range(3)))


def floating_groups(plan: Plan) -> list[list[str]]:
    """The parts in groups that touch no part outside their group, largest first (one group when every part connects)."""
    solids = [p for p in plan.parts if p.shape not in STAGING]  # a light or a camera touches nothing
    boxes = [box_of(p) for p in solids]
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
            if box_gap(boxes[i], boxes[j]) <= tolerance:
                group[root(i)] = root(j)
    members: dict[int, list[str]] = {}
    for i, p in enumerate(solids):
        members.setdefault(root(i), []).append(p.name)
    return sorted(members.values(), key=len, reverse=True)


def grounded(plan: Plan, prompt: str) -> Plan:
    """The plan moved up or down so its lowest point is at z = 0, unless the request lets it leave the ground (a
    hanging lamp), with the floor it names added where it forgot one (floored): free, certain fixes that cost the model
    no revision."""
    if set(_WORD.findall(prompt.lower())) & ABOVE_GROUND:
        return arrayed(floored(plan, prompt), prompt)
    return arrayed(floored(_on_the_ground(plan), prompt), prompt)


def arrayed(plan: Plan, prompt: str) -> Plan:
    """The plan with a part repeated in a line made an array modifier where the request names an array modifier and no
    part has one ("a fence of 12 posts in a row made with an array modifier", planned as a post repeated 12 times, which
    the local model kept after being told twice): the same copies in the same places, now one object's modifier."""
    if not any("an array modifier" in f for f in missing_modifiers(plan, prompt)):
        return plan
    line = next(
        (p for p in plan.parts if p.repeat > 1 and p.pattern == "line" and p.vary == "none" and p.shape in PRIMITIVES and p.size[0] > 0),
        None,
    )
    if line is None:
        return plan
    spacing = spacing_of(line)  # the builder's
    if spacing <= line.size[0]:  # copies that would touch (posts 0.1 m wide, 0.1 m apart): the spacing meant the gap
        spacing = line.size[0] + spacing
    start = (round(line.location[0] - (line.repeat - 1) / 2 * spacing, 9), line.location[1], line.location[2])  # the first copy
    array = Modifier(type="array", count=line.repeat, offset=round(spacing / line.size[0], 4), axis="x")
    changed = line.model_copy(update={"repeat": 1, "location": start, "modifiers": (*line.modifiers, array)})
    return plan.model_copy(update={"parts": [changed if p is line else p for p in plan.parts]})


# A floor the request stands its object on: "on a white floor plane", "resting on the ground", "text on a plane".
# "A toy plane" or "a paper plane on a desk" is an aircraft, and names none.
_FLOOR = re.compile(
    r"\b(?:on|onto|over|above|across)\s+(?:a|an|the)?\s*(?:([a-z]+)\s+)??(?:([a-z]+)\s+)??(floor|ground)(?:\s+plane)?\b"
    r"|\b(?:on|onto)\s+(?:a|an|the)\s+(?:([a-z]+)\s+)?(plane)\b|\b(?:([a-z]+)\s+)?(floor|ground)\s+plane\b"
)
FLOOR_SIZE = 3.0  # times the object's wider footprint side: a floor that fills the frame around it


def floored(plan: Plan, prompt: str) -> Plan:
    """The plan with the floor plane the request names ("a chrome ball resting on a white floor plane") added under its
    parts where no part is a plane or named for a floor: the local model, told "add it", left it out twice in a row.
    Its colour is the palette colour the request gives it ("white floor"), else grey."""
    said = _FLOOR.search(prompt.lower())
    if said is None or any(p.shape == "plane" or any(names_part(p.name, w) for w in ("floor", "ground", "plane")) for p in plan.parts):
        return plan
    solids = [box_of(p) for p in plan.parts if p.shape not in STAGING]
    lo = [min(b[0][i] for b in solids) for i in range(3)]
    hi = [max(b[1][i] for b in solids) for i in range(3)]
    side = max(FLOOR_SIZE * max(hi[0] - lo[0], hi[1] - lo[1]), 1.0)
    words = [w for w in said.groups() if w]
    noun = next(w for w in reversed(words) if w in ("floor", "ground", "plane"))
    colour = next((PALETTE[w] for w in words if w in PALETTE), (0.6, 0.6, 0.6))
    floor = Part(
        name=noun if noun != "plane" else "floor",
        shape="plane",
        size=(side, side, 0.0),
        location=((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, lo[2]),
        color=colour,
        on="ground",
    )
    return plan.model_copy(update={"parts": [*plan.parts, floor]})


def _on_the_ground(plan: Plan) -> Plan:
    """The plan moved up or down so its lowest point is at z = 0."""
    bottom = min(box_of(p)[0][2] for p in plan.parts if p.shape not in STAGING)
    if abs(bottom) < MIN_EXTENT:
        return plan
    moved = [
        p if p.shape in STAGING else p.model_copy(update={"location": (p.location[0], p.location[1], p.location[2] - bottom)})
        for p in plan.parts
    ]
    return plan.model_copy(update={"parts": moved})


def copies(part: Part) -> int:
    """How many of the part the scene will hold: its repeats times its array modifiers' counts."""
    return part.repeat * math.prod(m.count or 3 for m in part.modifiers if m.type == "array")


def plan_findings(plan: Plan, prompt: str) -> list[str]:
    """The plan's faults, each a sentence saying what to change; empty for a plan that fits the request as far as
    cheap checks can tell."""
    findings: list[str] = []
    for p in plan.parts:
        if p.shape in STAGING:
            continue
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
        if p.shape not in STAGING:
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
    whole = counted_parts(head(prompt))  # "four chairs" before any "with": whole things, each may take several parts
    for noun, want in counts.items():
        named = [p for p in plan.parts if names_part(p.name, noun)]
        have = [p.name for p in named]
        if noun in LAYOUT_WORDS and any(copies(p) >= want for p in plan.parts):
            continue
        if any(copies(p) > 1 for p in named) and sum(copies(p) for p in named) >= want:  # a step repeated 20 times is 20 steps
            continue
        if len(have) < want or (len(have) > want and noun not in whole):
            listed = f" ({', '.join(have[:6])})" if have else ""
            findings.append(
                f"the request asks for {want} {plural(noun)}; the plan has {len(have)} part(s) named so{listed}: make it {want}"
            )
    for want_kind in expectations(prompt):
        shape, kind_names = KIND_SHAPES.get(want_kind.kind), NAME_WORDS.get(want_kind.kind, ())
        if shape is None or any(w in counts or plural(w) in counts for w in (want_kind.kind, *kind_names)):
            continue  # counted above by name
        built = sum(copies(p) for p in plan.parts if p.shape == shape or any(names_part(p.name, w) for w in kind_names))
        if built < want_kind.count:
            findings.append(
                f"the request asks for {want_kind.count} {want_kind.kind if want_kind.count == 1 else plural(want_kind.kind)}; "
                f"the plan has {built} part(s) of shape {shape}: add {'it' if want_kind.count - built == 1 else 'them'}"
            )
    findings.extend(missing_modifiers(plan, prompt))
    findings.extend(missing_techniques(plan, prompt))
    for noun in requested_parts(prompt):
        if noun in counts:
            continue
        if not any(names_part(p.name, noun) for p in plan.parts):
            findings.append(f"the request names {noun}, and no part is named for it: add a part named {noun}")
    return findings


def missing_modifiers(plan: Plan, prompt: str) -> list[str]:
    """The modifiers the request names (an array, a bevel, a subdivision surface …) that no part of the plan has: the
    scene check looks for the modifier itself, and copies laid out by `repeat` are not an array modifier. A lathe part
    is built with a screw modifier."""
    have = {m.type for p in plan.parts for m in p.modifiers} | ({"screw"} if any(p.shape == "lathe" for p in plan.parts) else set())
    asked = dict.fromkeys(t.modifier.lower() for t in techniques(prompt) if t.modifier)
    return [
        f"the request asks for {'an' if kind[0] in 'aeiou' else 'a'} {kind} modifier and no part has one: "
        f'add "modifiers": [{{"type": "{kind}"}}] to the part it shapes'
        for kind in asked
        if kind in MODIFIERS and kind not in have
    ]


def _look(part: Part, value: str) -> float:
    """A Principled value the part will have, as the builder writes it (build.look_of); 0 for a plain colour."""
    look = look_of(part)
    if look is None:
        return 0.0
    _, _, metallic, _, emission, transmission, _ = look
    return {"metallic": metallic, "emission": emission, "transmission": transmission}[value]


def missing_techniques(plan: Plan, prompt: str) -> list[str]:
    """The techniques the request names (reading.techniques: keyframes, text, a curve, a light of a type, the camera's
    projection, a metal, glass or a glow) that the plan says nowhere, each with the field that says it: the scene check
    will look for each, and a revision costs a short JSON answer where a run and a repair cost a Blender run more."""
    findings: list[str] = []
    parts = plan.parts
    asked = techniques(prompt)
    motions = [t for t in asked if t.kind == "keyframes"]
    for t in [t for t in asked if t.kind != "keyframes"] + motions[:1]:  # one motion read twice is told once
        if t.kind == "keyframes" and not any(p.animate and (t.channel is None or p.animate.startswith(t.channel)) for p in parts):
            axis = "xyz"[t.axis if t.axis is not None else 2]  # up, or about the vertical, where the request names no axis
            channel = t.channel if t.channel in (None, "scale", "energy") else f"{t.channel}_{axis}"
            findings.append(
                f"the request asks for keyframed motion ({t.source[:80]}) and no part moves: give the part that moves "
                f'"animate": "{channel or "location_z"}" with "frames" and "values"'
            )
        elif t.kind == "text" and not any(p.shape == "text" and (t.body is None or p.text.lower() == t.body.lower()) for p in parts):
            words = t.body or "THE WORDS"
            findings.append(f'the request asks for text ({t.source}): add a part with "shape": "text" and "text": "{words}"')
        elif t.kind == "curve" and not any(p.shape == "curve" for p in parts):
            findings.append(f'the request asks for a curve ({t.source}): add a part with "shape": "curve" and a "path"')
        elif t.kind == "light" and t.light_type:
            kind = t.light_type.lower()
            have = sum(p.repeat for p in parts if p.shape == "light" and p.light == kind)
            if have < (t.count or 1):
                findings.append(
                    f"the request asks for {t.count or 1} {kind} light(s) ({t.source}); the plan has {have}: add "
                    f'{"one" if (t.count or 1) - have == 1 else "them"} with "shape": "light" and "light": "{kind}"'
                )
        elif t.kind == "camera":
            cameras = [p for p in parts if p.shape == "camera"]
            if t.settings.get("type") == "ORTHO" and not any(p.projection == "orthographic" for p in cameras):
                findings.append(
                    f'the request asks for an orthographic camera ({t.source}): add a part with "shape": "camera" and '
                    '"projection": "orthographic"'
                )
            elif (lens := t.settings.get("lens")) is not None and not any(p.lens == lens for p in cameras):
                findings.append(
                    f'the request asks for a camera with a {lens:g} mm lens: give a part "shape": "camera" and "lens": {lens:g}'
                )
            elif not cameras:
                findings.append(f'the request asks for a camera ({t.source}): add a part with "shape": "camera"')
        elif t.kind == "object_type" and t.object_type == "EMPTY":
            empties = [p.name for p in parts if p.shape == "empty"]
            if not empties:
                findings.append(
                    f'the request asks for an empty ({t.source}): add a part with "shape": "empty" and give each part that '
                    'moves with it "parent": "<the empty\'s name>"'
                )
            elif t.settings.get("children") and not any(p.parent in empties for p in parts):
                findings.append(f'no part is parented to {empties[0]}: give each part that moves with it "parent": "{empties[0]}"')
        elif t.kind == "material":
            for value, least in (("metallic", t.metallic_min), ("transmission", t.transmission_min), ("emission", t.emission_min)):
                # a glow asked with no strength (emission_min 0) is any emission at all
                if least is not None and not any(
                    _look(p, value) > least or 0 < least <= _look(p, value) for p in parts if p.shape not in STAGING
                ):
                    lacks = f"has {value} {least:g} or more" if least else "glows"
                    give = max(least, 5.0) if value == "emission" else max(least, 1.0)
                    findings.append(
                        f'the request names "{t.source}" and no part {lacks}: give the part it names "{value}": {give:g} '
                        "or a material that has it"
                    )
    return list(dict.fromkeys(findings))
