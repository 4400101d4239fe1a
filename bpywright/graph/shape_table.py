"""The shape table's loader: `data/shapes.json` read, validated against its schema and turned into Archetypes. The only
code that knows the file's format; a reviewer changes a shape by editing the data file."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .plan_library import Archetype
from .plan_parts import GROUND, PALETTE, SPOTS, Shape

SHAPE_TABLE = Path(__file__).parent / "data" / "shapes.json"
SCHEMA = 1


class ShapeTableError(ValueError):
    """The shape table is malformed; the message names the file, the shape and what to fix."""


class TablePart(BaseModel):
    """One part of a shape, in the plan's own terms: placed on a side of an earlier part (or the ground)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: str = Field(min_length=1, max_length=40)
    shape: Shape
    size: list[int | float] = Field(min_length=3, max_length=3)
    on: str
    side: Literal["top", "bottom", "front", "back", "left", "right"]
    at: str
    rotation: list[int | float] = Field(min_length=3, max_length=3)  # degrees, XYZ Euler
    color: str

    @field_validator("size")
    @classmethod
    def _positive(cls, size: list[int | float]) -> list[int | float]:
        if any(v <= 0 for v in size):
            raise ValueError(f"sizes are extents in metres, all above 0: {size}")
        return size

    @field_validator("at")
    @classmethod
    def _spot(cls, at: str) -> str:
        if at not in SPOTS:
            raise ValueError(f"'at' is one of {', '.join(SPOTS)}, not {at!r}")
        return at

    @field_validator("color")
    @classmethod
    def _colour(cls, color: str) -> str:
        if color not in PALETTE:
            raise ValueError(f"colour {color!r} is not in the palette ({', '.join(PALETTE)})")
        return color


class TableShape(BaseModel):
    """One everyday kind: the request it answers, the words that name its kind, and its parts."""

    model_config = ConfigDict(extra="forbid")

    group: str
    request: str = Field(min_length=1)
    kinds: list[str] = Field(min_length=1)
    object: str = Field(min_length=1)
    note: str | None = None  # why the shape is drawn as it is, where that is not plain from the parts
    parts: list[TablePart] = Field(min_length=1)

    @field_validator("kinds")
    @classmethod
    def _words(cls, kinds: list[str]) -> list[str]:
        if bad := [k for k in kinds if not k.isalpha() or k != k.lower()]:
            raise ValueError(f"kind words are single lower-case words: {bad}")
        return kinds

    @model_validator(mode="after")
    def _placed(self) -> TableShape:
        names: set[str] = set()
        for p in self.parts:
            if p.on != GROUND and p.on not in names:
                raise ValueError(f"part {p.name!r} is on {p.on!r}, which is neither 'ground' nor an earlier part")
            if p.name in names:
                raise ValueError(f"two parts are named {p.name!r}")
            names.add(p.name)
        return self


class ShapeTable(BaseModel):
    """The file: its schema version and the shapes, in id order (shape:N is the N-th)."""

    model_config = ConfigDict(extra="forbid")

    schema_: int = Field(alias="schema")
    shapes: list[TableShape]


def plan_text(shape: TableShape) -> str:
    """The shape's plan as the model writes one: JSON, one part a line (what the model is shown and the builder reads)."""
    parts = ",\n".join(json.dumps(p.model_dump(), ensure_ascii=False) for p in shape.parts)
    return f'{{"object": {json.dumps(shape.object, ensure_ascii=False)}, "parts": [\n{parts}\n]}}'


def load_shapes(path: Path = SHAPE_TABLE) -> tuple[Archetype, ...]:
    """Every shape of the table as an Archetype; ShapeTableError with the shape's index and request when one is malformed."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ShapeTableError(f"{path}: cannot be read as JSON ({exc})") from None
    if not isinstance(raw, dict) or raw.get("schema") != SCHEMA:
        raise ShapeTableError(f'{path}: expected an object with "schema": {SCHEMA} and "shapes"')
    shapes = raw.get("shapes")
    if not isinstance(shapes, list):
        raise ShapeTableError(f'{path}: "shapes" must be a list')
    table = []
    for i, entry in enumerate(shapes):
        try:
            table.append(TableShape.model_validate(entry))
        except ValidationError as exc:
            what = entry.get("request", "?") if isinstance(entry, dict) else "?"
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'shape'}: {e['msg']}" for e in exc.errors())
            raise ShapeTableError(f"{path}: shape {i} ({what!r}): {problems}") from None
    return tuple(Archetype(s.request, frozenset(s.kinds), plan_text(s)) for s in table)


@cache
def shapes() -> tuple[Archetype, ...]:
    """The shipped shape table, loaded once."""
    return load_shapes()
