"""The part plan's data: shapes, sides, colours, and the Part and Plan models every plan module shares."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SHAPES = ("box", "cylinder", "cone", "sphere", "torus", "plane")
# Where a part goes, in words (plan_layout does the arithmetic): the side of the part it is on, and the edge or corner
# of that side it is flush with. Front is -y, left is -x, top is +z.
SIDES = ("top", "bottom", "front", "back", "left", "right")
SPOTS = ("center", "front", "back", "left", "right", "top", "bottom", "front_left", "front_right", "back_left", "back_right")
GROUND = "ground"
Shape = Literal["box", "cylinder", "cone", "sphere", "torus", "plane"]
# Named colours, not RGB: one or two tokens each where three numbers take about twelve, and a small model knows names.
PALETTE: dict[str, tuple[float, float, float]] = {
    "white": (0.9, 0.9, 0.9),
    "light_grey": (0.7, 0.7, 0.7),
    "grey": (0.45, 0.45, 0.45),
    "dark_grey": (0.2, 0.2, 0.2),
    "black": (0.03, 0.03, 0.03),
    "silver": (0.75, 0.75, 0.78),
    "gold": (0.83, 0.65, 0.2),
    "red": (0.8, 0.08, 0.06),
    "dark_red": (0.45, 0.05, 0.05),
    "pink": (0.95, 0.55, 0.65),
    "orange": (0.95, 0.45, 0.05),
    "yellow": (0.95, 0.82, 0.15),
    "cream": (0.95, 0.88, 0.7),
    "beige": (0.82, 0.7, 0.52),
    "tan": (0.72, 0.52, 0.3),
    "light_wood": (0.7, 0.5, 0.3),
    "brown": (0.45, 0.27, 0.12),
    "dark_brown": (0.22, 0.12, 0.06),
    "green": (0.15, 0.6, 0.15),
    "light_green": (0.5, 0.85, 0.35),
    "dark_green": (0.05, 0.3, 0.08),
    "blue": (0.1, 0.3, 0.85),
    "light_blue": (0.5, 0.75, 0.95),
    "navy": (0.05, 0.08, 0.3),
    "teal": (0.05, 0.5, 0.5),
    "purple": (0.45, 0.15, 0.6),
}
MAX_PARTS = 24  # the schema's bound: about 70 tokens a part, so a full plan stays inside the reply limit
MAX_EXTENT = 1000.0  # metres: a size or position beyond this is a unit mistake, not an everyday object
MIN_EXTENT = 1e-6  # metres: a part thinner than this along an axis its shape needs has no volume


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


class Plan(BaseModel):
    """The object the request asks for, as parts."""

    model_config = ConfigDict(allow_inf_nan=False, frozen=True)

    object: str = Field("object", max_length=200)
    parts: list[Part] = Field(min_length=1)
