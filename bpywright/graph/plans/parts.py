"""The part plan's data: shapes, sides, colours, and the Part and Plan models every plan module shares."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..reading.palette import PALETTE

PRIMITIVES = ("box", "cylinder", "cone", "sphere", "torus", "plane")
# Beyond primitives: words (a FONT object), a profile turned about z (a SCREW modifier: vase, bowl, glass), a curve
# along a path with a round thickness (a tube, rail, spring), the scene's own light and camera, and an empty (no
# geometry: a handle other parts are parented to, so they move together).
EXTRA_SHAPES = ("text", "lathe", "curve", "light", "camera", "empty")
SHAPES = PRIMITIVES + EXTRA_SHAPES
STAGING = ("light", "camera", "empty")  # shapes that are no solid: placed by the builder (an empty at its children's centre)
# Where a part goes, in words (plan_layout does the arithmetic): the side of the part it is on, and the edge or corner
# of that side it is flush with. Front is -y, left is -x, top is +z.
SIDES = ("top", "bottom", "front", "back", "left", "right")
SPOTS = ("center", "front", "back", "left", "right", "top", "bottom", "front_left", "front_right", "back_left", "back_right")
GROUND = "ground"
Shape = Literal["box", "cylinder", "cone", "sphere", "torus", "plane", "text", "lathe", "curve", "light", "camera", "empty"]
MAX_PARTS = 24  # the schema's bound: about 70 tokens a part, so a full plan stays inside the reply limit
MAX_EXTENT = 1000.0  # metres: a size or position beyond this is a unit mistake, not an everyday object
MIN_EXTENT = 1e-6  # metres: a part thinner than this along an axis its shape needs has no volume


# What a part may have beyond its shape, size, place and colour (every field optional, its default meaning "none"):
MODIFIERS = ("subsurf", "bevel", "solidify", "array", "mirror", "screw", "wireframe")
PATTERNS = ("line", "grid", "circle", "spiral", "scatter")  # how a repeated part's copies are laid out
VARY = ("none", "height", "size", "rotation")  # what a seeded random draw changes per copy
CHANNELS = (
    "location_x", "location_y", "location_z", "rotation_x", "rotation_y", "rotation_z",
    "scale", "scale_x", "scale_y", "scale_z", "energy",
)  # fmt: skip
PATHS = ("line", "circle", "helix", "wave")  # a curve part's path
LIGHTS = ("sun", "point", "spot", "area")
PROJECTIONS = ("perspective", "orthographic")  # a camera part's
AXES = ("x", "y", "z")
MAX_KEYS = 16  # keyframes a channel, profile points a lathe
MAX_COPIES = 400  # copies of one repeated part: a 20 by 20 grid
MAX_TEXT = 40


def part_name(raw: object, fallback: str) -> str:
    """A part's name as an identifier-like word: lower case, words joined by '_' (the script and its checks use it)."""
    name = re.sub(r"[^a-z0-9]+", "_", str(raw or "").lower()).strip("_")[:32]
    return name or fallback


class Look(BaseModel):
    """A named material (data/plan_materials.json): Principled BSDF values; colour the palette name it has of its own."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    colour: str | None = None
    metallic: float = Field(0.0, ge=0.0, le=1.0)
    roughness: float = Field(0.5, ge=0.0, le=1.0)
    transmission: float = Field(0.0, ge=0.0, le=1.0)
    emission: float = Field(0.0, ge=0.0)
    alpha: float = Field(1.0, ge=0.0, le=1.0)


@cache
def looks() -> dict[str, Look]:
    """The named materials a plan may choose from, checked against Look (a colour must be a palette name)."""
    raw = json.loads((Path(__file__).parents[1] / "data" / "plan_materials.json").read_text(encoding="utf-8"))
    table = {name: Look.model_validate(values) for name, values in raw.items() if not name.startswith("_")}
    for name, look in table.items():
        if look.colour is not None and look.colour not in PALETTE:
            raise ValueError(f"plan_materials.json: {name!r} has colour {look.colour!r}, not a palette name")
    return table


class Modifier(BaseModel):
    """A modifier on a part, in the plan's words (plan_build writes Blender's settings): levels (subsurf), width and
    segments (bevel), thickness (solidify, wireframe), count and offset (array: copies, the gap as a share of the part's
    size), axis (array, mirror, screw), angle (screw, degrees)."""

    model_config = ConfigDict(allow_inf_nan=False, frozen=True)

    type: Literal["subsurf", "bevel", "solidify", "array", "mirror", "screw", "wireframe"]
    levels: int | None = None
    width: float | None = None
    segments: int | None = None
    thickness: float | None = None
    count: int | None = None
    offset: float | None = None
    axis: Literal["x", "y", "z"] | None = None
    angle: float | None = None


class PlanError(ValueError):
    """The model's plan cannot be built; the message says what to change, for a person or for the model's next try."""


Vec3 = tuple[float, float, float]


class Part(BaseModel):
    """One primitive: size is its full extent along its own x, y, z before rotation (metres); location its centre."""

    model_config = ConfigDict(allow_inf_nan=False, frozen=True)

    name: str = Field(min_length=1, max_length=40)
    shape: Shape
    size: Vec3
    location: Vec3 = (0.0, 0.0, 0.0)
    rotation: Vec3 = (0.0, 0.0, 0.0)  # degrees, XYZ Euler
    color: Vec3 = (0.6, 0.6, 0.6)  # linear RGB, 0..1
    on: str = ""  # how the model placed it (plan_layout): the part it touches ("ground" or "" for none) …
    side: str = ""  # … which side of that part …
    at: str = ""  # … and where on that side; location is the result
    # techniques, each optional (plan_build writes nothing for a default):
    material: str = ""  # a named look (looks()); "" for a plain colour
    metallic: float | None = None  # explicit Principled values, over the look's
    roughness: float | None = None
    emission: float | None = None  # strength: the part's colour glows
    transmission: float | None = None
    alpha: float | None = None
    modifiers: tuple[Modifier, ...] = ()
    repeat: int = 1  # copies of the part, itself the first
    pattern: str = "line"
    rows: int = 0  # a grid's rows (0: as square as the count allows)
    spacing: float = 0.0  # metres between copies (a circle's or spiral's radius, a scatter's square side); 0: from its size
    rise: float = 0.0  # metres up a copy (a spiral)
    turns: float = 1.0  # a spiral's or helix's turns, a wave's
    vary: str = "none"
    seed: int = 0
    animate: str = ""  # a channel (CHANNELS), keyed at `frames` to `values`
    frames: tuple[int, ...] = ()
    values: tuple[float, ...] = ()
    text: str = ""  # the words of a text part
    profile: tuple[float, ...] = ()  # a lathe's radii, bottom to top, as shares of its half width
    path: str = ""  # a curve's path (PATHS)
    thickness: float = 0.0  # a curve's round thickness, metres
    light: str = ""  # a light's type (LIGHTS)
    energy: float = 0.0  # a light's power (W; a sun's W/m²); 0: the builder's default for its type
    lens: float = 0.0  # a camera's focal length, mm; 0: 50
    projection: str = ""  # a camera's projection: "orthographic", or "" for perspective
    parent: str = ""  # the part it moves with (its parent object), "" for none


TECHNIQUE_DEFAULTS = {name: field.default for name, field in Part.model_fields.items() if name not in (
    "name", "shape", "size", "location", "rotation", "color", "on", "side", "at")}  # fmt: skip


def has_technique(part: Part) -> bool:
    """True for a part that is not a plain placed primitive: a shape beyond the six, or any technique field set."""
    return part.shape not in PRIMITIVES or any(getattr(part, k) != v for k, v in TECHNIQUE_DEFAULTS.items())


class Plan(BaseModel):
    """The object the request asks for, as parts."""

    model_config = ConfigDict(allow_inf_nan=False, frozen=True)

    object: str = Field("object", max_length=200)
    parts: list[Part] = Field(min_length=1)
