"""What a part plan says beyond placed primitives: a material's values, modifiers, repeats and seeded scatters, curves and
lathed profiles, text, keyframes, lights and the camera. Every field is optional: a plain object's plan names none, and
its script is the one it always was (plan_build).

The schema stays flat for a 1.5B model: a part's techniques are its own optional keys (a few short enums, numbers, lists
of numbers), and only modifiers nest one level (a short list of {"type": …} objects). llama.cpp's grammar ignores
numeric bounds, so what a grammar cannot bound is checked here with an error that says what to write instead.
"""

from __future__ import annotations

import json
import math
from typing import Any

from pydantic import ValidationError

from .parts import (
    AXES,
    CHANNELS,
    LIGHTS,
    MAX_COPIES,
    MAX_KEYS,
    MAX_TEXT,
    MODIFIERS,
    PATHS,
    PATTERNS,
    PROJECTIONS,
    VARY,
    Modifier,
    PlanError,
    looks,
    part_name,
)

_NUMBERS = {"type": "array", "items": {"type": "number"}, "maxItems": MAX_KEYS}

# A part's optional keys, as the schema sends them (after its required ones, in this order).
TECHNIQUE_PROPERTIES: dict[str, Any] = {
    "material": {"type": "string", "enum": list(looks())},
    "metallic": {"type": "number"},
    "roughness": {"type": "number"},
    "emission": {"type": "number"},
    "transmission": {"type": "number"},
    "alpha": {"type": "number"},
    "modifiers": {
        "type": "array",
        "maxItems": 4,
        "items": {
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": list(MODIFIERS)},
                "levels": {"type": "integer"},
                "width": {"type": "number"},
                "segments": {"type": "integer"},
                "thickness": {"type": "number"},
                "count": {"type": "integer"},
                "offset": {"type": "number"},
                "axis": {"type": "string", "enum": list(AXES)},
                "angle": {"type": "number"},
            },
            "required": ["type"],
            "additionalProperties": False,
        },
    },
    "repeat": {"type": "integer"},
    "pattern": {"type": "string", "enum": list(PATTERNS)},
    "rows": {"type": "integer"},
    "spacing": {"type": "number"},
    "rise": {"type": "number"},
    "turns": {"type": "number"},
    "vary": {"type": "string", "enum": list(VARY)},
    "seed": {"type": "integer"},
    "animate": {"type": "string", "enum": list(CHANNELS)},
    "frames": {"type": "array", "items": {"type": "integer"}, "maxItems": MAX_KEYS},
    "values": _NUMBERS,
    "text": {"type": "string", "maxLength": MAX_TEXT},
    "profile": _NUMBERS,
    "path": {"type": "string", "enum": list(PATHS)},
    "thickness": {"type": "number"},
    "light": {"type": "string", "enum": list(LIGHTS)},
    "energy": {"type": "number"},
    "lens": {"type": "number"},
    "projection": {"type": "string", "enum": list(PROJECTIONS)},
    "parent": {"type": "string"},
}


def _number(raw: dict[str, Any], key: str, what: str, low: float, high: float) -> float | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise PlanError(f"{what}: {key} must be a number, got {json.dumps(value)[:40]}")
    if not low <= value <= high:
        raise PlanError(f"{what}: {key} {value} is out of range; write a number from {low:g} to {high:g}")
    return float(value)


def _integer(raw: dict[str, Any], key: str, what: str, low: int, high: int) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PlanError(f"{what}: {key} must be a whole number, got {json.dumps(value)[:40]}")
    if not low <= value <= high:
        raise PlanError(f"{what}: {key} {value} is out of range; write a whole number from {low} to {high}")
    return value


def _choice(raw: dict[str, Any], key: str, what: str, allowed: tuple[str, ...]) -> str | None:
    value = raw.get(key)
    if value is None or value == "":
        return None
    word = str(value).strip().lower().replace(" ", "_")
    if word not in allowed:
        raise PlanError(f"{what}: {key} {json.dumps(value)[:40]} is not one of {', '.join(allowed)}")
    return word


def _numbers(raw: dict[str, Any], key: str, what: str, low: float, high: float) -> tuple[float, ...]:
    value = raw.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise PlanError(f"{what}: {key} must be a list of numbers, got {json.dumps(value)[:60]}")
    if len(value) > MAX_KEYS:
        raise PlanError(f"{what}: {key} has {len(value)} numbers; keep to {MAX_KEYS}")
    if not all(math.isfinite(v) and low <= v <= high for v in value):
        raise PlanError(f"{what}: {key} holds a number out of range; write numbers from {low:g} to {high:g}")
    return tuple(float(v) for v in value)


def _modifier(raw: Any, what: str) -> Modifier:
    if isinstance(raw, str):  # "subsurf": a modifier with its defaults
        raw = {"type": raw}
    if not isinstance(raw, dict):
        raise PlanError(f'{what}: each modifier is an object such as {{"type": "subsurf", "levels": 2}}')
    kind = _choice(raw, "type", what, MODIFIERS)
    if kind is None:
        raise PlanError(f"{what}: a modifier needs a type, one of {', '.join(MODIFIERS)}")
    unknown = sorted(set(raw) - set(Modifier.model_fields))
    if unknown:
        raise PlanError(f"{what}: the {kind} modifier has unknown setting(s) {', '.join(unknown)}")
    try:
        return Modifier(
            type=kind,
            levels=_integer(raw, "levels", what, 0, 6),
            width=_number(raw, "width", what, 0.0, 100.0),
            segments=_integer(raw, "segments", what, 1, 32),
            thickness=_number(raw, "thickness", what, -100.0, 100.0),
            count=_integer(raw, "count", what, 1, MAX_COPIES),
            offset=_number(raw, "offset", what, -100.0, 100.0),
            axis=_choice(raw, "axis", what, AXES),
            angle=_number(raw, "angle", what, -3600.0, 3600.0),
        )
    except ValidationError as exc:  # a bpywright bug if reached: each value was checked above
        raise PlanError(f"{what}: {exc.errors()[0]['msg']}") from exc


def techniques(raw: dict[str, Any], name: str, shape: str) -> dict[str, Any]:
    """The part's technique fields from the model's JSON, as Part's keyword arguments (only those it set); PlanError
    says what to change (an unknown material or modifier, keyframes without frames, text with no words …)."""
    what = f"part {name!r}"
    out: dict[str, Any] = {}
    material = raw.get("material")
    if material not in (None, "", "none"):
        word = str(material).strip().lower()
        if word not in looks():
            raise PlanError(f"{what}: material {json.dumps(material)[:40]} is not one of {', '.join(looks())}")
        out["material"] = word
    for key in ("metallic", "roughness", "transmission", "alpha"):
        if (value := _number(raw, key, what, 0.0, 1.0)) is not None:
            out[key] = value
    if (strength := _number(raw, "emission", what, 0.0, 1000.0)) is not None:
        out["emission"] = strength
    mods = raw.get("modifiers")
    if mods not in (None, []):
        if not isinstance(mods, list):
            raise PlanError(f'{what}: modifiers must be a list such as [{{"type": "bevel", "width": 0.01}}]')
        if len(mods) > 8:
            raise PlanError(f"{what}: {len(mods)} modifiers; keep to 8")
        out["modifiers"] = tuple(_modifier(m, what) for m in mods)
    if (repeat := _integer(raw, "repeat", what, 1, MAX_COPIES)) is not None and repeat > 1:
        out["repeat"] = repeat
        for key, allowed in (("pattern", PATTERNS), ("vary", VARY)):
            if (choice := _choice(raw, key, what, allowed)) is not None:
                out[key] = choice
        if (rows := _integer(raw, "rows", what, 0, MAX_COPIES)) is not None:
            out["rows"] = rows
        for key, low in (("spacing", 0.0), ("rise", -100.0)):
            if (value := _number(raw, key, what, low, 1000.0)) is not None:
                out[key] = value
        if (seed := _integer(raw, "seed", what, 0, 2**31 - 1)) is not None:
            out["seed"] = seed
    if (turns := _number(raw, "turns", what, 0.05, 100.0)) is not None and turns != 1.0:
        out["turns"] = turns
    channel = _choice(raw, "animate", what, CHANNELS)
    frames, values = raw.get("frames"), raw.get("values")
    if channel is not None or frames or values:
        if channel is None:
            raise PlanError(f"{what}: keyframes need a channel: animate, one of {', '.join(CHANNELS)}")
        keyed = _numbers(raw, "frames", what, -100000, 100000)
        numbers = _numbers(raw, "values", what, -100000.0, 100000.0)
        # frames and values of different lengths are paired as far as both go: the local model wrote frames [1, 24, 48] with
        # values [0, 1.2, 0, 0.8] (the shown example's four values), a bounce all the same
        pairs = min(len(keyed), len(numbers))
        keyed, numbers = keyed[:pairs], numbers[:pairs]
        if pairs < 2:
            raise PlanError(
                f"{what}: animate {channel} needs at least 2 frames, each with its value "
                f"(got {len(keyed)} frame(s) and {len(numbers)} value(s)), e.g. frames [1, 24, 48], values [0, 2, 0]"
            )
        if any(not f.is_integer() for f in keyed):
            raise PlanError(f"{what}: frames must be whole numbers")
        if channel == "energy" and shape != "light":
            raise PlanError(f"{what}: only a light part can animate energy")
        out.update(animate=channel, frames=tuple(int(f) for f in keyed), values=numbers)
    if shape == "text":
        body = str(raw.get("text") or "").strip()
        if not body:
            raise PlanError(f'{what}: a text part needs its words, e.g. "text": "HELLO"')
        out["text"] = body[:MAX_TEXT]
    if shape == "lathe":
        profile = _numbers(raw, "profile", what, 0.0, 1.0)
        if len(profile) == 1:
            raise PlanError(f"{what}: a lathe's profile needs 2 or more radii, bottom to top, e.g. [0.5, 1.0, 0.6, 0.7]")
        if profile:
            out["profile"] = profile
    if shape == "curve":
        out["path"] = _choice(raw, "path", what, PATHS) or "line"
        if (thickness := _number(raw, "thickness", what, 0.0, 100.0)) is not None:
            out["thickness"] = thickness
    if shape == "light":
        out["light"] = _choice(raw, "light", what, LIGHTS) or "point"
        if (energy := _number(raw, "energy", what, 0.0, 1e7)) is not None:
            out["energy"] = energy
    if shape == "camera" and (lens := _number(raw, "lens", what, 1.0, 5000.0)) is not None:
        out["lens"] = lens
    if shape == "camera" and _choice(raw, "projection", what, PROJECTIONS) == "orthographic":
        out["projection"] = "orthographic"
    parent = raw.get("parent")
    if parent not in (None, "", "none"):
        if not isinstance(parent, str):
            raise PlanError(f"{what}: parent must be the name of another part, got {json.dumps(parent)[:40]}")
        out["parent"] = part_name(parent, "")  # as part names are written
    return out


def technique_json(part: Any) -> dict[str, Any]:
    """A part's technique fields as the model writes them (those set only), for a revision prompt."""
    from .parts import TECHNIQUE_DEFAULTS

    def num(v: float) -> float | int:
        r = round(v, 4)
        return int(r) if r == int(r) else r

    out: dict[str, Any] = {}
    for key, default in TECHNIQUE_DEFAULTS.items():
        value = getattr(part, key)
        if value == default:
            continue
        if key == "modifiers":
            value = [m.model_dump(exclude_none=True) for m in value]
        elif isinstance(value, tuple):
            value = [num(v) if isinstance(v, float) else v for v in value]
        elif isinstance(value, float):
            value = num(value)
        out[key] = value
    return out
