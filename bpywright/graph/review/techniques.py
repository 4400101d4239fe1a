"""Technique checks: each technique the request names (graph/technique_reading) looked for in the scene the script
built, never in its text, with a message that says exactly what is missing ("no keyframe on Ball.location[2] (z)",
"material Gold: metallic 0.0, asked for metal").

What satisfies a technique is what a Blender artist would accept: any material on a visible object that meets every
bound of it (an input a texture drives counts as met: its value cannot be read); keyframes that change a value, over
the frames named; copies as ARRAY modifiers, look-alike objects or instances."""

from __future__ import annotations

import colorsys
import math
import re
from collections import defaultdict
from collections.abc import Callable

from pydantic import BaseModel

from ...harness.report import FCurveSummary, MaterialSummary, ModifierSummary, ObjectSummary, SceneSummary
from ..reading.expectations import STAGING
from ..reading.request import names_part
from ..reading.technique_words import ColourRange, words
from ..reading.techniques import PREFIX, Technique, techniques

__all__ = ["PREFIX", "Technique", "TechniqueResult", "check", "check_techniques", "techniques"]

DEFAULT_FPS = 24
# Where --factory-startup puts its camera and light: left there, the script did not set them up.
FACTORY_AT = {("Camera", "CAMERA"): (7.3589, -6.9258, 4.9583), ("Light", "LIGHT"): (4.0762, 1.0055, 5.9039)}
GEOMETRY = frozenset({"MESH", "CURVE", "SURFACE", "META", "FONT"})
METAL_NODES = frozenset({"BSDF_GLOSSY", "BSDF_METALLIC", "BSDF_ANISOTROPIC"})  # a metal without a Principled BSDF
TRANSPARENT_NODES = frozenset({"BSDF_GLASS", "BSDF_REFRACTION", "BSDF_TRANSPARENT"})
MAX_ALPHA = 0.6  # a material this transparent or more counts as see-through (EEVEE scripts often make glass so)


class TechniqueResult(BaseModel):
    """A technique checked in a scene: whether it is there, and, where not, exactly what is missing."""

    technique: Technique
    ok: bool
    label: str  # the check's name in a Critique, e.g. "technique: keyframes location"
    message: str = ""


def check(technique: Technique, scene: SceneSummary) -> TechniqueResult:
    """The technique looked for in the scene."""
    message = CHECKS[technique.kind](technique, scene)
    return TechniqueResult(technique=technique, ok=not message, label=technique.label, message=message)


def check_techniques(prompt: str, scene: SceneSummary | None) -> tuple[dict[str, bool], list[str]]:
    """(check label → passed, the messages of the failures) for the critic. A summary without the technique facts (an
    older harness's: no fps) checks nothing: an absent fact is not a missing technique."""
    if scene is None or scene.fps is None:
        return {}, []
    checks: dict[str, bool] = {}
    reasons: list[str] = []
    for t in techniques(prompt):
        result = check(t, scene)
        label, n = result.label, 2
        while label in checks:
            label, n = f"{result.label} ({n})", n + 1
        checks[label] = result.ok
        if not result.ok:
            reasons.append(result.message)
    return checks, reasons


# --- the scene's parts a check reads -----------------------------------------------------------------------------------


def factory_left(o: ObjectSummary) -> bool:
    """The factory startup's camera or light, where it was: the script did not set it up."""
    at = FACTORY_AT.get((o.name, o.type))
    return at is not None and o.location is not None and math.dist(at, o.location) < 1e-3


def own(scene: SceneSummary) -> list[ObjectSummary]:
    """The objects the script made or set up: not the harness's staging camera and light, not the factory ones left."""
    return [o for o in scene.objects if not o.name.startswith(STAGING) and not factory_left(o)]


def visible_materials(scene: SceneSummary) -> list[MaterialSummary]:
    """Materials on visible objects (all materials in use, where no visible object names one)."""
    shown = {m for o in own(scene) if o.visible is not False for m in o.materials}
    return [m for m in scene.materials if m.name in shown] or [m for m in scene.materials if m.users > 0]


def num(value: float | None) -> str:
    """A value for a message, rounded: 0.0, 0.25, 3.0."""
    return "none" if value is None else str(round(float(value), 2))


# --- colours -----------------------------------------------------------------------------------------------------------


def srgb(linear: float) -> float:
    """One channel of Blender's linear RGB as sRGB (what a viewer sees; colour names are judged on it)."""
    c = min(max(linear, 0.0), 1.0)
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def hsv(rgb: tuple[float, ...]) -> tuple[float, float, float]:
    """Hue (degrees), saturation and value of a linear RGB colour, in sRGB."""
    h, s, v = colorsys.rgb_to_hsv(*(srgb(c) for c in rgb[:3]))
    return h * 360, s, v


def within(rgb: tuple[float, ...], colour: ColourRange) -> bool:
    """The linear RGB colour is of the named colour's range."""
    h, s, v = hsv(rgb)
    if not (colour.saturation[0] <= s <= colour.saturation[1] and colour.value[0] <= v <= colour.value[1]):
        return False
    if colour.hue is None:
        return True
    low, high = colour.hue
    return low <= h <= high if low <= high else h >= low or h <= high


def describe_colour(rgb: tuple[float, ...]) -> str:
    """'#D9F2D9 (green)': the sRGB hex code and the first colour name it fits."""
    code = "#" + "".join(f"{round(srgb(c) * 255):02X}" for c in rgb[:3])
    name = next((n for n, c in words().colours.items() if within(rgb, c)), "no named colour")
    return f"{code} ({name})"


# --- materials ---------------------------------------------------------------------------------------------------------


def glows(m: MaterialSummary) -> bool:
    """The material emits light: a strength above 0 and a colour that is not black."""
    return (m.emission_strength or 0.0) > 0 and m.emission_color is not None and max(m.emission_color[:3]) > 0.01


def material_shortfalls(t: Technique, m: MaterialSummary) -> list[str]:
    """What the material lacks of the technique's bounds ([] when it meets them all)."""
    fed = {name.lower() for name in m.linked}
    nodes = set(m.node_types)
    asked = f"asked for {t.source}"
    found: list[str] = []
    if t.colour is not None and "base color" not in fed and not ({"emission", "emission color"} & fed and glows(m)):
        shown = [("base colour", m.base_color)] + ([("emission colour", m.emission_color)] if glows(m) else [])
        colours = [(what, rgb) for what, rgb in shown if rgb is not None]
        if not any(within(rgb, words().colours[t.colour]) for _, rgb in colours):
            found.append(
                f"{colours[0][0]} {describe_colour(colours[0][1])}, asked for {t.colour}"
                if colours
                else f"no base colour, asked for {t.colour}"
            )
    if t.metallic_min is not None and "metallic" not in fed and not nodes & METAL_NODES:
        if m.metallic is None or m.metallic < t.metallic_min:
            found.append(f"metallic {num(m.metallic)}, {asked} (metallic at least {t.metallic_min})")
    if t.metallic_max is not None and "metallic" not in fed and m.metallic is not None and m.metallic > t.metallic_max:
        found.append(f"metallic {num(m.metallic)}, {asked} (metallic at most {t.metallic_max})")
    if t.roughness_max is not None and "roughness" not in fed and not nodes & (METAL_NODES | TRANSPARENT_NODES):
        if m.roughness is None or m.roughness > t.roughness_max:
            found.append(f"roughness {num(m.roughness)}, {asked} (roughness at most {t.roughness_max})")
    if t.roughness_min is not None and "roughness" not in fed and m.roughness is not None and m.roughness < t.roughness_min:
        found.append(f"roughness {num(m.roughness)}, {asked} (roughness at least {t.roughness_min})")
    if t.transmission_min is not None:
        alpha = m.alpha if m.alpha is not None else (m.base_color[3] if m.base_color is not None else None)  # diffuse_color's
        see_through = (m.transmission or 0.0) >= t.transmission_min or (alpha is not None and alpha <= MAX_ALPHA)
        if not (see_through or nodes & TRANSPARENT_NODES or {"transmission", "transmission weight", "alpha"} & fed):
            found.append(
                f"transmission {num(m.transmission)} and alpha {num(alpha)}, no Glass BSDF, {asked} "
                f"(transmission at least {t.transmission_min})"
            )
    if t.emission_min is not None and not {"emission", "emission color", "emission strength"} & fed:
        if not (glows(m) and (m.emission_strength or 0.0) > t.emission_min):
            colour = describe_colour(m.emission_color) if m.emission_color is not None else "none"
            found.append(f"emission strength {num(m.emission_strength)} (colour {colour}), {asked} (an emission above 0, not black)")
    return found


def _material(t: Technique, scene: SceneSummary) -> str:
    materials = visible_materials(scene)
    if not materials:
        return f"no material on any visible object, asked for {t.source}"
    shortfalls = [(m, material_shortfalls(t, m)) for m in materials]
    if any(not lacks for _, lacks in shortfalls):
        return ""
    said = re.findall(r"[a-z]+", t.source)
    # the closest material: the fewest shortfalls, then one named for the words asked ("Copper" for copper)
    m, lacks = min(shortfalls, key=lambda x: (len(x[1]), not any(names_part(x[0].name, w) for w in said)))
    others = f" (and none of the other {len(materials) - 1} material(s) is {t.source})" if len(materials) > 1 else ""
    return f"material {m.name}: {'; '.join(lacks)}{others}"


# --- keyframes ---------------------------------------------------------------------------------------------------------


def keyed(scene: SceneSummary) -> list[tuple[str, FCurveSummary]]:
    """Every keyframed channel of the scene, with the name it is shown by: its object's or its material's."""
    found = [(o.name, f) for o in scene.objects if not o.name.startswith(STAGING) for f in o.fcurves]
    return found + [(f.owner, f) for f in scene.material_fcurves]


def channel_name(name: str, f: FCurveSummary) -> str:
    """'Ball.location[2]', 'Lamp (data).energy[0]', 'material:Glow.nodes[...]...[0]'."""
    owner = "" if f.owner in ("object", name) else f" ({f.owner})"
    return f"{name}{owner}.{f.data_path}[{f.index}]"


def frames_asked(t: Technique, scene: SceneSummary) -> tuple[int, int] | None:
    """The frame range the request named: its frames, or its seconds at the scene's frame rate (24 where unknown)."""
    if t.frame_start is not None and t.frame_end is not None:
        return t.frame_start, t.frame_end
    if t.seconds is not None:
        return 1, max(2, round(t.seconds * (scene.fps or DEFAULT_FPS)))
    return None


def covers(f: FCurveSummary, frames: tuple[int, int]) -> bool:
    """The keyframes span the asked range: within a frame at each end, or over 80 % of it."""
    if f.frame_min is None or f.frame_max is None:
        return False
    start, end = frames
    if abs(f.frame_min - start) <= 1 and abs(f.frame_max - end) <= 1:
        return True
    return end > start and (min(f.frame_max, end) - max(f.frame_min, start)) / (end - start) >= 0.8


def moves(f: FCurveSummary) -> bool:
    """Two keyframes or more, and the value changes between them."""
    return f.keyframes >= 2 and f.value_min is not None and f.value_max is not None and f.value_max - f.value_min > 1e-6


def subject(scene: SceneSummary, source: str, keyed_names: list[str]) -> str:
    """The object a message names: one already keyed, else one named for a word of the request, else the largest."""
    if keyed_names:
        return keyed_names[0]
    shapes = [o for o in own(scene) if o.type in GEOMETRY]
    said = [w for w in re.findall(r"[a-z]+", source.lower()) if len(w) > 2]
    first = {o.name: next((i for i, w in enumerate(said) if names_part(o.name, w)), None) for o in shapes}
    named = sorted((o for o in shapes if first[o.name] is not None), key=lambda o: first[o.name] or 0)  # first named first
    ground = ("ground", "floor", "plane")
    rest = [o for o in shapes if not any(g in o.name.lower() for g in ground)] or shapes
    size = lambda o: math.dist(o.bbox.min, o.bbox.max) if o.bbox is not None else 0.0  # noqa: E731
    chosen = named or sorted(rest, key=size, reverse=True)
    return chosen[0].name if chosen else "any object"


def _keyframes(t: Technique, scene: SceneSummary) -> str:
    every = keyed(scene)
    asked = f"asked for keyframed motion: {t.source}"
    wanted = [
        (n, f)
        for n, f in every
        if (t.channel is None or f.data_path.startswith((t.channel, f"delta_{t.channel}"))) and (t.axis is None or f.index == t.axis)
    ]
    if not wanted:
        if t.channel is None:
            return f"no keyframe on any object or material ({asked})"
        path = {"rotation": "rotation_euler"}.get(t.channel, t.channel) + (f"[{t.axis}] ({'xyz'[t.axis]})" if t.axis is not None else "")
        where = subject(scene, t.source, [n for n, _ in every])
        others = sorted({channel_name(n, f) for n, f in every})[:3]
        return f"no keyframe on {where}.{path} ({asked})" + (f"; keyed: {', '.join(others)}" if others else "")
    moving = [(n, f) for n, f in wanted if moves(f)]
    if not moving:
        n, f = max(wanted, key=lambda x: x[1].keyframes)
        if f.keyframes < 2:
            return f"{channel_name(n, f)} has {f.keyframes} keyframe: motion needs two or more ({asked})"
        return f"{channel_name(n, f)} keeps the value {num(f.value_min)} over its {f.keyframes} keyframes: nothing moves ({asked})"
    frames = frames_asked(t, scene)
    if frames is None or any(covers(f, frames) for _, f in moving):
        return ""
    n, f = max(moving, key=lambda x: (x[1].frame_max or 0) - (x[1].frame_min or 0))
    return (
        f"{channel_name(n, f)} is keyed on frames {num(f.frame_min)}-{num(f.frame_max)}, asked for frames {frames[0]}-{frames[1]} ({asked})"
    )


# --- text, curves, modifiers -------------------------------------------------------------------------------------------


def _squeezed(text: str) -> str:
    return " ".join(text.casefold().split())


def _text(t: Technique, scene: SceneSummary) -> str:
    objects = own(scene)
    fonts = [o for o in objects if o.type == "FONT"]
    if t.body is not None:
        want = _squeezed(t.body)
        joined = want.replace(" ", "")
        reading = [o for o in fonts if want in _squeezed(o.text or "")]
        # a text converted to a mesh reads nothing: its name ("Text", "EXIT_sign") is all that says what it was
        reading += [
            o
            for o in objects
            if o.type == "MESH" and not fonts and any(w in _squeezed(o.name).replace(" ", "") for w in ("text", joined) if len(w) >= 3)
        ]
        if not reading:
            said = f"; text objects read: {', '.join(repr(o.text) for o in fonts[:3])}" if fonts else ""
            return f"no text object with {t.body!r}{said}"
    else:
        reading = fonts
        if not reading:
            return f"no text object (asked for {t.source})"
    if t.extrude and not any(o.type != "FONT" or (o.text_extrude or 0.0) > 0 or "SOLIDIFY" in o.modifiers for o in reading):
        o = reading[0]
        return f"text object {o.name} reads {o.text!r} and is flat: extrude {num(o.text_extrude)}, asked for extruded text"
    return ""


def _curve(t: Technique, scene: SceneSummary) -> str:
    objects = own(scene)
    curves = [o for o in objects if o.type == "CURVE"]
    if t.settings.get("mesh"):
        curves += [o for o in objects if o.type == "MESH"]
    if not curves:
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(_types(objects).items())) or "no object"
        return f"no curve object (asked for {t.source}); the scene holds {kinds}"
    if t.settings.get("bevel"):
        thick = [
            o
            for o in curves
            if o.type != "CURVE" or o.curve is None or o.curve.bevel_depth > 0 or o.curve.bevel_object or o.curve.extrude > 0
        ]
        if not thick:
            c = curves[0]
            depth = num(c.curve.bevel_depth) if c.curve is not None else "none"
            return f"curve {c.name} has no bevel: bevel depth {depth}, no bevel object (asked for {t.source} with a bevel)"
    return ""


def _types(objects: list[ObjectSummary]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for o in objects:
        counts[o.type] += 1
    return counts


def _setting_ok(m: ModifierSummary, key: str, want: float | int | str | bool, same: list[str]) -> bool:
    for name in (key, *same):
        have = m.settings.get(name)
        if isinstance(have, bool) or isinstance(want, bool) or isinstance(have, str) or isinstance(want, str):
            if have == want:
                return True
        elif isinstance(have, int | float) and abs(float(have) - float(want)) < 1e-6:
            return True
    return False


def _modifier(t: Technique, scene: SceneSummary) -> str:
    entry = next((e for e in words().modifiers if e.type == t.modifier), None)
    types = {t.modifier, *(entry.also if entry else [])}
    same = entry.same_as if entry else {}
    having = [(o, m) for o in own(scene) for m in o.modifier_settings if m.type in types]
    if not having:
        present = sorted({m for o in own(scene) for m in o.modifiers})
        return f"no {t.modifier} modifier on any object (asked for {t.source})" + (f"; modifiers: {', '.join(present)}" if present else "")
    for _, m in having:
        if all(_setting_ok(m, key, want, same.get(key, [])) for key, want in t.settings.items()):
            return ""
    o, m = having[0]
    wrong = next(key for key, want in t.settings.items() if not _setting_ok(m, key, want, same.get(key, [])))
    return f"{m.type} modifier on {o.name}: {wrong} {m.settings.get(wrong)}, asked for {t.settings[wrong]} ({t.source})"


# --- copies, lights, camera --------------------------------------------------------------------------------------------


def array_copies(o: ObjectSummary) -> float:
    """How many copies the object's ARRAY modifiers make (the product of their counts; a fit to a length or curve
    counts as any number: its count is not a setting)."""
    product = 1.0
    for m in o.modifier_settings:
        if m.type == "ARRAY":
            fixed = m.settings.get("fit_type", "FIXED_COUNT") == "FIXED_COUNT"
            count = m.settings.get("count")
            product *= float(count) if fixed and isinstance(count, int | float) and not isinstance(count, bool) else math.inf
    return product


def _copies(t: Technique, scene: SceneSummary) -> str:
    need = t.count or 2
    objects = own(scene)
    meshes = [o for o in objects if o.type == "MESH" and o.visible is not False]
    arrayed = [o for o in objects if any(m.type == "ARRAY" for m in o.modifier_settings)]
    groups: dict[tuple[int | None, int | None], list[ObjectSummary]] = defaultdict(list)
    for o in meshes:
        groups[(o.vertices, o.faces)].append(o)
    by_group = max((sum(array_copies(o) for o in g), g[0].name, len(g)) for g in groups.values()) if groups else (0.0, "", 0)
    instances = max([scene.instance_count, *(o.instances for o in objects)])
    best_array = max(arrayed, key=array_copies) if arrayed else None
    if t.modifier == "ARRAY":
        if best_array is None:
            return f"no ARRAY modifier on any object (asked for {t.source}); {by_group[2]} look-alike object(s)"
        if array_copies(best_array) >= need:
            return ""
    else:
        have = max(by_group[0], float(instances))
        if t.kind == "scatter":
            have = max(have, float(len([o for o in objects if o.type in GEOMETRY]) - 1))
        if have >= need:
            return ""
    made = f"ARRAY modifier(s) on {best_array.name} make {num(array_copies(best_array))}" if best_array is not None else "no ARRAY modifier"
    alike = f"{by_group[2]} look-alike object(s)" + (f" ({by_group[1]})" if by_group[1] else "")
    many = f"{instances} instance(s)" if instances else "no instances"
    return f"{made}; {alike}, {many}; asked for {need} ({t.source})"


def _light(t: Technique, scene: SceneSummary) -> str:
    need = t.count or 1
    lights = [o for o in own(scene) if o.type == "LIGHT"]
    fitting = [o for o in lights if t.light_type is None or (o.light is not None and o.light.type == t.light_type)]
    if len(fitting) >= need:
        return ""
    kind = f"{t.light_type} light" if t.light_type else "light"
    have = ", ".join(f"{o.light.type if o.light else '?'} {o.name}" for o in lights[:4])
    left = (
        " (the factory startup's Light is left where it was: the script set up none)" if any(factory_left(o) for o in scene.objects) else ""
    )
    if not fitting:
        return f"no {kind} (asked for {t.source})" + (f"; lights: {have}" if have else "; the scene has no light of its own") + left
    return f"{len(fitting)} {kind}(s), asked for {need} ({t.source})"


LENS_TOLERANCE = 0.1  # a focal length within 10 % of the one asked for is that lens


def _camera(t: Technique, scene: SceneSummary) -> str:
    cameras = [o for o in own(scene) if o.type == "CAMERA"]
    if not cameras:
        staged = any(o.name.startswith(STAGING) and o.type == "CAMERA" for o in scene.objects)
        why = "the render used the harness's staging camera" if staged else "the factory startup's camera is left where it was"
        return f"no camera set up by the script (asked for {t.source}): {why}"
    names = {o.name for o in cameras}
    if scene.active_camera not in names:
        return f"the scene's camera is {scene.active_camera or 'none'}, not {cameras[0].name} (asked for {t.source}): set scene.camera"
    active = next(o for o in cameras if o.name == scene.active_camera)
    want = t.settings.get("type")
    if want is not None and active.camera is not None and active.camera.type != want:
        return f"camera {active.name} is {active.camera.type}, asked for {want} ({t.source})"
    lens = t.settings.get("lens")
    if isinstance(lens, int | float) and active.camera is not None and abs(active.camera.lens - lens) > LENS_TOLERANCE * lens:
        return f"camera {active.name} has a {active.camera.lens:g} mm lens, asked for {lens:g} mm ({t.source})"
    return ""


def _object_type(t: Technique, scene: SceneSummary) -> str:
    have = [o for o in own(scene) if o.type == t.object_type]
    need = t.count or 1
    if len(have) < need:
        return f"{len(have)} {t.object_type} object(s), asked for {need} ({t.source})"
    children = t.settings.get("children")
    names = {o.name for o in have}
    carried = [o.name for o in scene.objects if o.parent in names]
    if isinstance(children, int) and len(carried) < children:
        return f"no object is parented to {', '.join(sorted(names)[:3])} ({t.source}): set each one's parent to it"
    return ""


CHECKS: dict[str, Callable[[Technique, SceneSummary], str]] = {
    "material": _material,
    "modifier": _modifier,
    "keyframes": _keyframes,
    "text": _text,
    "curve": _curve,
    "array": _copies,
    "scatter": _copies,
    "light": _light,
    "camera": _camera,
    "object_type": _object_type,
}
