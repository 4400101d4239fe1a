"""A part plan: the object as a short list of named, sized, placed primitives, written by the model as constrained JSON.

A 1.5B model that writes bpy spends its few good tokens recalling the API and builds one cube. Asked for the parts
instead (name, shape, size, place, turn, colour), it spends them on the object; plan_build.build_script turns the plan
into a plain script that the loop lints, runs, renders and critiques like any other, and plan_checks.plan_findings
checks the plan against itself and the request before anything runs.

Measured by hand (Qwen2.5-Coder-1.5B Q4_K_M, llama.cpp grammar, temperature 0, a shared 2-core CPU): 284–493 tokens a
plan, 64–354 s. Placing parts in words (plan_layout) cured the stacked and floating pieces the model's own coordinates
gave; its sizes did not improve (chair legs 0.05–0.1 m tall), so no chair, burger or lamp was recognisable yet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from functools import cache
from typing import Any

from pydantic import ValidationError

from ... import pyast
from ..model.prompting import Messages, render
from .build import TABLES_MARK, build_script
from .checks import grounded
from .checks import plan_findings as _checks
from .layout import lay_out
from .library import TECHNIQUES, Archetype, similar, technique_examples
from .parts import (
    GROUND,
    MAX_EXTENT,
    MAX_PARTS,
    MIN_EXTENT,
    PALETTE,
    SHAPES,
    SIDES,
    SPOTS,
    STAGING,
    Part,
    Plan,
    PlanError,
    Vec3,
    looks,
    part_name,
)
from .scene import kind_words
from .techniques import TECHNIQUE_PROPERTIES, technique_json, techniques

__all__ = [
    "PALETTE",
    "PLAN_SCHEMA",
    "SHAPES",
    "Part",
    "Plan",
    "PlanError",
    "build_script",
    "fixed_builder",
    "grounded",
    "parse_plan",
    "plan_findings",
    "plan_json",
    "plan_messages",
    "plan_of_script",
    "related_plans",
]

_VEC3 = {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}

# llama.cpp's grammar ignores numeric minimum/maximum: the bounds here are item counts, enums and string lengths. A
# part's technique keys (plan_techniques) are optional and follow its required ones: a plain object's plan names none.
PLAN_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "object": {"type": "string", "maxLength": 60},
        "parts": {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_PARTS,
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "maxLength": 32},
                    "shape": {"type": "string", "enum": list(SHAPES)},
                    "size": _VEC3,
                    "on": {"type": "string", "maxLength": 32},
                    "side": {"type": "string", "enum": list(SIDES)},
                    "at": {"type": "string", "enum": list(SPOTS)},
                    "rotation": _VEC3,
                    "color": {"type": "string", "enum": list(PALETTE)},
                    **TECHNIQUE_PROPERTIES,
                },
                "required": ["name", "shape", "size", "on", "side", "at", "rotation", "color"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["object", "parts"],
    "additionalProperties": False,
}


def _reject_constant(name: str) -> float:
    raise PlanError(f"the plan holds {name}, which is not a number: write every size and position as a finite number of metres")


def _json_object(text: str) -> Any:
    """The first JSON object in text (a fenced reply or prose around it allowed); a reply cut off at the token limit keeps
    its complete parts."""
    start = text.find("{")
    if start < 0:
        raise PlanError('the reply holds no JSON object: answer with one JSON object {"object": …, "parts": [...]}')
    decoder = json.JSONDecoder(strict=False, parse_constant=_reject_constant)  # grammars let raw newlines into strings
    try:
        return decoder.raw_decode(text, start)[0]
    except json.JSONDecodeError as exc:
        salvaged = _complete_parts(text, start, decoder)
        if salvaged:
            return salvaged
        raise PlanError(f"the plan is not valid JSON ({exc.msg} at character {exc.pos}): answer with one JSON object") from exc


def _complete_parts(text: str, start: int, decoder: json.JSONDecoder) -> dict[str, Any] | None:
    """The object name and every whole part of a plan cut off mid-part (max_tokens reached), or None."""
    opening = re.compile(r'"parts"\s*:\s*\[').search(text, start)
    if opening is None:
        return None
    name = re.compile(r'"object"\s*:\s*"([^"]{0,200})"').search(text, start)
    parts, pos = [], opening.end()
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        try:
            part, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            break
        parts.append(part)
    return {"object": name.group(1) if name else "object", "parts": parts} if parts else None


def _vector(value: Any, what: str, default: Vec3 | None = None) -> Vec3:
    if value is None and default is not None:
        return default
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = [value] * 3
    if (
        not isinstance(value, list | tuple)
        or len(value) != 3
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise PlanError(f"{what} must be three numbers [x, y, z], got {json.dumps(value)[:60]}")
    return (float(value[0]), float(value[1]), float(value[2]))


def _colour(value: Any) -> Vec3:
    """A palette name (or a hand-written [r, g, b], 0..1 or 0..255) as linear RGB; an unknown name is grey."""
    if isinstance(value, str):
        key = re.sub(r"[\s-]+", "_", value.strip().lower()).replace("gray", "grey")
        return PALETTE.get(key) or next((rgb for name, rgb in PALETTE.items() if name in key.split("_")), PALETTE["grey"])
    rgb = _vector(value, "color", (0.6, 0.6, 0.6))
    if max(rgb) > 1.0:
        rgb = (rgb[0] / 255, rgb[1] / 255, rgb[2] / 255)
    return (min(max(rgb[0], 0.0), 1.0), min(max(rgb[1], 0.0), 1.0), min(max(rgb[2], 0.0), 1.0))


SHEET = 0.01  # a box or a cylinder planned with one extent 0 is a sheet or a disc this share of its larger extent thick


def sheet(size: tuple[float, ...], axis: int) -> tuple[float, float, float]:
    """A box (or a cylinder's height) planned 0 along one axis, given a thickness: SHEET of its larger other extent.
    Why: a chessboard planned with squares of height 0 on each of 4 plans was refused each time, and the request ended
    with no script; a zero height with a width and a depth is a flat tile, as the plan says."""
    thick = SHEET * max(v for i, v in enumerate(size) if i != axis)
    x, y, z = (thick if i == axis else v for i, v in enumerate(size))
    return (x, y, z)


def _part(raw: Any, index: int) -> Part:
    if not isinstance(raw, dict):
        raise PlanError(f"part {index + 1} is not an object with name, shape, size, on, side, at, rotation and color")
    shape = str(raw.get("shape", "")).strip().lower()
    shape = {"cube": "box", "cuboid": "box", "ball": "sphere", "uv_sphere": "sphere", "disc": "cylinder", "disk": "cylinder"}.get(
        shape, shape
    )
    name = part_name(raw.get("name"), f"{shape or 'part'}_{index + 1}")
    if shape not in SHAPES:
        raise PlanError(f"part {name!r} has shape {raw.get('shape')!r}; use one of {', '.join(SHAPES)}")
    size = tuple(abs(v) for v in _vector(raw.get("size"), f"part {name!r}: size"))  # an extent has no sign
    location = _vector(raw.get("location"), f"part {name!r}: location", (0.0, 0.0, 0.0))
    relation: dict[str, str] = {}
    if raw.get("location") is None and raw.get("on") is not None:  # placed in words: plan_layout computes location
        relation = {
            "on": part_name(raw.get("on"), GROUND),
            "side": _word(raw.get("side"), SIDES, "top"),
            "at": _word(raw.get("at"), SPOTS, "center"),
        }
    rotation = _vector(raw.get("rotation"), f"part {name!r}: rotation", (0.0, 0.0, 0.0))
    for label, values in (("size", size), ("location", location)):
        if max(abs(v) for v in values) > MAX_EXTENT:
            raise PlanError(
                f"part {name!r} has {label} {list(values)}: over {MAX_EXTENT:.0f} m; sizes and positions are in metres (1 cm = 0.01)"
            )
    axes = "xy" if shape == "plane" else "xyz"  # a plane is flat by nature
    thin = [axis for axis, v in zip("xyz", size, strict=True) if axis in axes and v < MIN_EXTENT]
    if len(thin) == 1 and (shape == "box" or (shape == "cylinder" and thin == ["z"])):
        size = sheet(size, "xyz".index(thin[0]))
        thin = []
    if thin and shape not in STAGING:  # a light or a camera has no extent
        raise PlanError(f"part {name!r} has size 0 along {', '.join(thin)}: give every part a width, depth and height in metres")
    if shape == "plane":
        size = (size[0], size[1], 0.0)
    extra = techniques(raw, name, shape)
    return Part(
        name=name, shape=shape, size=size, location=location, rotation=rotation, color=_colour(raw.get("color")), **relation, **extra
    )


def _word(value: Any, allowed: tuple[str, ...], default: str) -> str:
    """A side or spot as the layout knows it ('centre', 'Front-Left', 'on top' → center, front_left, top)."""
    words = [w for w in re.split(r"[^a-z]+", str(value or "").lower().replace("centre", "center")) if w and w not in ("on", "at", "the")]
    text = "_".join(words)
    if text in allowed:
        return text
    corner = "_".join([w for w in ("front", "back") if w in words][:1] + [w for w in ("left", "right") if w in words][:1])
    return corner if corner in allowed else default


def unique_names(parts: list[Part]) -> list[Part]:
    """Parts with repeated names numbered (leg, leg → leg, leg_2): objects need distinct names, the plan stays usable."""
    seen: set[str] = set()
    out: list[Part] = []
    for p in parts:
        name, n = p.name, 1
        while name in seen:
            n += 1
            name = f"{p.name}_{n}"
        seen.add(name)
        out.append(p if name == p.name else p.model_copy(update={"name": name}))
    return out


def parse_plan(text: str) -> Plan:
    """The plan in a model's reply; PlanError says what to change (not JSON, no parts, a zero, NaN or absurd size …)."""
    data = _json_object(text)
    if not isinstance(data, dict):
        raise PlanError('the plan must be a JSON object with "object" and "parts"')
    raw_parts = data.get("parts")
    if not isinstance(raw_parts, list) or not raw_parts:
        raise PlanError('the plan has no parts: list the object\'s pieces under "parts", each a shape with a size and a place')
    if len(raw_parts) > 4 * MAX_PARTS:
        raise PlanError(f"the plan has {len(raw_parts)} parts; keep to the main pieces, at most {MAX_PARTS}")
    every = unique_names([_part(raw, i) for i, raw in enumerate(raw_parts)])
    # a parent that is no other part is dropped, not refused: the local model writes "parent": "plane" for "on the plane"
    names = {p.name for p in every}
    every = [p.model_copy(update={"parent": ""}) if p.parent and (p.parent not in names or p.parent == p.name) else p for p in every]
    solids = [p for p in every if p.shape not in STAGING]
    if not solids:
        raise PlanError("the plan has only a light or a camera: plan the object itself as parts too")
    # a light or a camera is placed around the scene by the builder (its side and spot say from where), not laid out
    parts = lay_out(solids) + [p for p in every if p.shape in STAGING]
    name = re.sub(r"\s+", " ", str(data.get("object") or "object")).strip()[:200] or "object"
    try:
        return Plan(object=name, parts=parts)
    except ValidationError as exc:  # a bpywright bug if reached: every field was checked above
        raise PlanError(f"the plan is not valid: {exc.errors()[0]['msg']}") from exc


def plan_json(plan: Plan) -> str:
    """The plan as the compact JSON the model writes (colours as the nearest palette name), for a revision prompt."""

    def nearest(rgb: Vec3) -> str:
        return min(PALETTE, key=lambda n: sum((a - b) ** 2 for a, b in zip(PALETTE[n], rgb, strict=True)))

    def num(v: float) -> float | int:
        r = round(v, 4)
        return int(r) if r == int(r) else r

    parts = [
        {
            "name": p.name,
            "shape": p.shape,
            "size": [num(v) for v in p.size],
            **({"on": p.on, "side": p.side, "at": p.at} if p.on else {"location": [num(v) for v in p.location]}),
            "rotation": [num(v) for v in p.rotation],
            "color": nearest(p.color),
            **technique_json(p),
        }
        for p in plan.parts
    ]
    lines = ",\n".join(json.dumps(p) for p in parts)
    return f'{{"object": {json.dumps(plan.object)}, "parts": [\n{lines}\n]}}'


def archetype_script(archetype: Archetype, version: str) -> str:
    """The script the plan builder makes of an archetype's plan (graph/plans/library.py, graph/plans/shapes.py)."""
    return build_script(grounded(parse_plan(archetype.plan), archetype.request), version)


def related_plans(
    prompt: str,
    examples: int,
    stored: Sequence[tuple[str, str]] = (),
    shape: tuple[str, str] | None = None,
    left_out: Collection[str] = (),
) -> list[tuple[str, str]]:
    """Up to `examples` (request, plan JSON) pairs to show with the request: first the critic's shape of its kind where
    it is shown (shape: Settings.plan_shapes), then the plans of verified exemplars it names the kind of (stored: their
    requests and plans, scene_plan.plan_of_scene), then the library's archetypes (plan_library.similar) but those whose
    requests left_out names: the library plans an earlier attempt copied, which shown again are copied again; then,
    beyond `examples`, the technique plan nearest a technique the request names (plan_library.technique_examples)."""
    if examples <= 0:
        return []
    kinds = kind_words(prompt)
    first = [shape] if shape is not None else []
    # a one-part plan (a ground plane under a curve, a lone cushion) shows no sizes or placement to learn from
    shown = first + [(r, plan) for r, plan in stored if plan.count('"name"') > 1 and kinds & kind_words(r) and (r, plan) != shape]
    shown = shown[:examples]
    library = [(a.request, a.plan) for a in similar(prompt, examples - len(shown) + len(left_out)) if a.request not in left_out]
    # and one plan that says a technique the request names (plan_library.TECHNIQUES), to show the form: kept even after
    # an attempt copied it, since a plan drawn without it drops the technique (keyframes, a text body); the copy is caught
    # by the same test, and its finding says to keep the technique with the request's own values (copied_plan)
    technique = [(a.request, a.plan) for a in technique_examples(prompt, 1)]
    return shown + library[: examples - len(shown)] + technique


def plan_messages(
    prompt: str,
    version: str,
    *,
    feedback: str = "",
    previous: Plan | None = None,
    examples: int = 0,
    stored: Sequence[tuple[str, str]] = (),
    shape: tuple[str, str] | None = None,
    left_out: Collection[str] = (),
) -> Messages:
    """The plan request: a system prompt that never changes (the server reuses its cached prefix) and the request, with
    up to `examples` plans of related things (related_plans: the shape of its kind where shown, verified exemplars'
    scenes, then the plan library), why the last plan was rejected (feedback) and that plan (previous) when asking for a
    revision; left_out: the library plans not to show again (related_plans). version is the target Blender's, for the
    builder; a plan does not depend on it."""
    del version  # the same plan builds on every supported version
    related = related_plans(prompt, examples, stored, shape, left_out)
    user = render("plan_user", prompt=prompt, feedback=feedback.strip(), previous=plan_json(previous) if previous else "", related=related)
    return [
        {"role": "system", "content": render("plan_system", colours=list(PALETTE), materials=list(looks()))},
        {"role": "user", "content": user},
    ]


def plan_of_script(script: str | None) -> Plan | None:
    """The plan a plan-built script holds (its PARTS literal, as build_script writes it), with locations; None for any
    other script or a PARTS list edited out of shape. The critic's round revises this plan instead of patching code."""
    if not script or "\nPARTS = [\n" not in script or TABLES_MARK in script:
        return None  # a script with technique tables is read by the critic whole
    start = script.index("\nPARTS = [\n") + len("\nPARTS = ")
    end = script.find("\n]\n", start)
    try:
        rows = pyast.literal_eval(script[start : end + 2])
        parts = [
            Part(name=str(n), shape=shape, size=tuple(size), location=tuple(loc), rotation=tuple(rot), color=tuple(col))
            for n, shape, size, loc, rot, col in rows
        ]
        first = script.splitlines()[0]
        name = first[2 : first.index(":")] if first.startswith("# ") and ":" in first else "object"
        return Plan(object=name or "object", parts=parts)
    except (ValueError, SyntaxError, TypeError, ValidationError):
        return None


BUILDER_NOTE = (
    "# (the rest of the script is bpywright's fixed builder: each PARTS row becomes one primitive of that shape, full size,\n"
    "# centre, rotation and colour, named for the part; it clears the scene first and adds a camera and a light)"
)


def _builder_at(text: str) -> int:
    """Where a plan-built script's fixed builder starts: after the PARTS literal's closing line."""
    return text.find("\n]\n", text.index("\nPARTS = [\n")) + 3


def fixed_builder(script: str | None, version: str = "4.5") -> bool:
    """True for a plan-built script whose code after its PARTS table is exactly the builder build_script writes for
    `version`: nothing in it but data was written by a model (the critic reads its PARTS; lint has nothing to find)."""
    plan = plan_of_script(script)
    if plan is None:
        return False
    assert script is not None
    built = build_script(plan, version)
    return script[_builder_at(script) :] == built[_builder_at(built) :]


def plan_view(script: str | None) -> str | None:
    """A plan-built script as a reviewer needs it: its header and PARTS table, the fixed builder (about 90 lines, 700
    prompt tokens the critic re-reads on a CPU) left out and named; None for any other script, or one whose builder
    was edited (a patch, a user): the reviewer then reads all of it."""
    if not fixed_builder(script):
        return None
    assert script is not None
    return script[: _builder_at(script) - 1] + "\n" + BUILDER_NOTE


@cache
def example_plan() -> Plan:
    """The example plan the system prompt shows (a mailbox on a post)."""
    system = plan_messages("", "")[0]["content"]
    return parse_plan(system[system.index('{"object"') :])


def _same_parts(plan: Plan, shown: Plan) -> bool:
    same = {(p.shape, p.size, p.location) for p in shown.parts}
    return sum((p.shape, p.size, p.location) in same for p in plan.parts) >= max(2, 0.5 * len(plan.parts))


def copied_plan(
    plan: Plan, prompt: str, examples: int = 0, stored: Sequence[tuple[str, str]] = (), shape: tuple[str, str] | None = None
) -> str | None:
    """The object of a shown plan that most parts repeat (same shape, size and place), or None: the system prompt's
    example (unless the request is for that object) or a plan shown with the request (related_plans). A small model that
    repeats an example has planned nothing of its own."""
    example = example_plan()
    if example.object not in prompt.lower() and _same_parts(plan, example):
        return example.object
    for request, text in related_plans(prompt, examples, stored, shape):
        try:
            shown = grounded(parse_plan(text), request)
        except PlanError:
            continue
        if _same_parts(grounded(plan, prompt), shown):
            return shown.object
    return None


def plan_findings(
    plan: Plan, prompt: str, examples: int = 0, stored: Sequence[tuple[str, str]] = (), shape: tuple[str, str] | None = None
) -> list[str]:
    """What is wrong with the plan before anything runs (a copy of a shown plan, floating or zero-size parts, counts and
    parts the request names that the plan lacks), each a sentence the model can act on (see plan_checks)."""
    if (copied := copied_plan(plan, prompt, examples, stored, shape)) is not None:
        fields = technique_fields(copied)
        if fields:
            return [
                f"the plan copies the example ({copied}) part for part: keep what it shows ({', '.join(fields)}), but give the "
                "request's own object its own parts, sizes and values (the frames, counts, words and settings the request names)"
            ]
        return [f"the plan copies the example ({copied}): plan the requested object's own parts instead"]
    return _checks(plan, prompt)


def technique_fields(obj: str) -> list[str]:
    """The technique properties (animate, material, repeat, text …) of the technique plan of the library whose object is
    obj, in the order its parts give them; [] when obj is no technique plan's object."""
    for a in TECHNIQUES:
        data = json.loads(a.plan)
        if data.get("object") == obj:
            return list(dict.fromkeys(k for part in data["parts"] for k in part if k in TECHNIQUE_PROPERTIES))
    return []
