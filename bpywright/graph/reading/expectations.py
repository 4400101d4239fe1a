"""What a prompt asks for that a scene summary can confirm: object counts by kind ("three cubes") and materials ("a red material")."""

from __future__ import annotations

import re

from pydantic import BaseModel

from ...harness.report import ObjectSummary, SceneSummary
from .vocabulary import vocabulary

MIN_NONBLANK = 0.01  # a render with less than this share of non-background pixels shows nothing

NUMBERS = vocabulary().numbers
NOUNS = vocabulary().count_nouns
NAME_WORDS = {kind: tuple(words) for kind, words in vocabulary().kind_names.items()}
SIGNATURES = {"cube": (8, 6), "plane": (4, 1)}  # (vertices, faces) of the default primitive
COLOURS = tuple(vocabulary().material_words.words)
_COUNTED = re.compile(r"\b(\d+|" + "|".join(NUMBERS) + r")\s+(?:[a-z-]+\s+){0,2}?(" + "|".join(NOUNS) + r")\b")


class Expectation(BaseModel):
    """One checkable demand of the prompt: at least `count` objects of a kind, or at least one material."""

    kind: str  # cube, sphere, …, light, camera, or "material"
    count: int = 1

    @property
    def label(self) -> str:
        """The check's name in a Critique, e.g. 'scene: 3 cube'."""
        return "scene: a material" if self.kind == "material" else f"scene: {self.count} {self.kind}"


def expectations(prompt: str) -> list[Expectation]:
    """Counts and materials the prompt names (the largest count per kind)."""
    text = prompt.lower()
    wanted: dict[str, int] = {}
    for number, noun in _COUNTED.findall(text):
        count = int(number) if number.isdigit() else NUMBERS[number]
        kind = NOUNS[noun]
        wanted[kind] = max(wanted.get(kind, 0), min(count, 1000))
    found = [Expectation(kind=k, count=c) for k, c in wanted.items()]
    if re.search(r"\bmaterials?\b", text) or any(re.search(rf"\b{c}\b", text) for c in COLOURS):
        found.append(Expectation(kind="material"))
    return found


def _is_kind(obj: ObjectSummary, kind: str) -> bool:
    if kind in ("light", "camera"):
        return obj.type == kind.upper()
    if obj.type != "MESH":
        return False
    name = obj.name.lower()
    if any(word in name for word in NAME_WORDS.get(kind, ())):
        return True
    return SIGNATURES.get(kind) == (obj.vertices, obj.faces)


def count_kind(scene: SceneSummary, kind: str) -> int:
    """How many objects of the scene look like this kind (by name, type or primitive geometry)."""
    if kind == "material":
        return sum(1 for o in scene.objects if o.materials)
    return sum(1 for o in scene.objects if _is_kind(o, kind))


FACTORY = frozenset({("Cube", "MESH"), ("Camera", "CAMERA"), ("Light", "LIGHT")})  # what --factory-startup's scene holds
STAGING = "bpywright_"  # the camera and light the harness adds when a script made none
BUILT_NOTHING = (
    "the script built nothing: the scene holds only Blender's factory objects (the default cube, camera and light) or "
    "none at all; is the function that builds the scene ever called?"
)


def built_nothing(scene: SceneSummary | None) -> bool:
    """True when a script ran and left only the factory scene (or an empty one): a small model defines build() and never
    calls it, and the render still shows the default cube."""
    if scene is None:
        return False
    own = [o for o in scene.objects if not o.name.startswith(STAGING)]
    return all((o.name, o.type) in FACTORY and (o.type != "MESH" or o.vertices == 8) for o in own)


def check_scene(prompt: str, scene: SceneSummary | None) -> tuple[dict[str, bool], list[str]]:
    """(check label → passed, reasons for the failures) of the prompt's expectations against a scene summary."""
    checks: dict[str, bool] = {}
    reasons: list[str] = []
    for exp in expectations(prompt):
        have = count_kind(scene, exp.kind) if scene is not None else 0
        checks[exp.label] = have >= exp.count
        if have < exp.count:
            what = "objects with a material" if exp.kind == "material" else f"{exp.kind} object(s)"
            reasons.append(
                f"the prompt asks for {'a material' if exp.kind == 'material' else f'{exp.count} {exp.kind}(s)'}; "
                f"the scene has {have} {what}"
            )
    return checks, reasons
