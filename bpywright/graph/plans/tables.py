"""The loader of the plan tables: the shape table (`data/shapes.json`) and the plan library (`data/plan_library.json`),
read, validated against their schema and turned into Archetypes. The only code that knows the files' format; a reviewer
changes a shape or a library plan by editing the data file."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .parts import GROUND, PALETTE, SPOTS, Shape

SHAPE_TABLE = Path(__file__).parents[1] / "data" / "shapes.json"
PLAN_LIBRARY = Path(__file__).parents[1] / "data" / "plan_library.json"
SCHEMA = 1


@dataclass(frozen=True)
class Archetype:
    """A request, the words that make a request its kind, and its plan as the model writes one (JSON, one part a line)."""

    request: str
    kinds: frozenset[str]
    plan: str
    same: frozenset[str] = frozenset()  # of a library plan, the words that name its own object (LibraryPlan.same)


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
        if any(v < 0 for v in size) or sum(v == 0 for v in size) > 1:
            raise ValueError(f"sizes are extents in metres, above 0 (a plane's thickness may be 0): {size}")
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


class LibraryPart(TablePart):
    """A part of a library plan: the table's keys, then the technique keys a plan may add (graph/plans/techniques.py)."""

    model_config = ConfigDict(extra="allow", allow_inf_nan=False)

    @model_validator(mode="after")
    def _techniques(self) -> LibraryPart:
        from .parts import PlanError
        from .techniques import techniques

        try:
            techniques(self.model_dump(), self.name, self.shape)
        except PlanError as exc:
            raise ValueError(str(exc)) from None
        return self


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


class LibraryPlan(TableShape):
    """One plan of the library: a shape whose parts may say techniques."""

    group: str = ""
    parts: list[LibraryPart] = Field(min_length=1)  # type: ignore[assignment]
    # the kind words that name the plan's own object, what the critic holds an answer against it for; the broader kinds
    # only choose it to be shown (a park bench is shown for a throne, and a throne is no bench)
    same: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _same_among_kinds(self) -> LibraryPlan:
        if extra := sorted(set(self.same) - set(self.kinds)):
            raise ValueError(f"'same' words must be among its kinds: {extra}")
        return self


class ShapeTable(BaseModel):
    """The file: its schema version and the shapes, in id order (shape:N is the N-th)."""

    model_config = ConfigDict(extra="forbid")

    schema_: int = Field(alias="schema")
    shapes: list[TableShape]


def plan_text(shape: TableShape) -> str:
    """The shape's plan as the model writes one: JSON, one part a line (what the model is shown and the builder reads)."""
    parts = ",\n".join(json.dumps(p.model_dump(), ensure_ascii=False) for p in shape.parts)  # extra keys after the table's
    return f'{{"object": {json.dumps(shape.object, ensure_ascii=False)}, "parts": [\n{parts}\n]}}'


def _read(path: Path, sections: tuple[str, ...]) -> dict:
    """The file's JSON object, with its schema version and list sections checked."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ShapeTableError(f"{path}: cannot be read as JSON ({exc})") from None
    if not isinstance(raw, dict) or raw.get("schema") != SCHEMA:
        raise ShapeTableError(f'{path}: expected an object with "schema": {SCHEMA} and {", ".join(map(repr, sections))}')
    for name in sections:
        if not isinstance(raw.get(name), list):
            raise ShapeTableError(f"{path}: {name!r} must be a list")
    if extra := sorted(set(raw) - {"schema", *sections}):
        raise ShapeTableError(f"{path}: unknown section(s) {extra}")
    return raw


def _archetypes(path: Path, section: str, entries: list, model: type[TableShape]) -> tuple[Archetype, ...]:
    table = []
    for i, entry in enumerate(entries):
        try:
            table.append(model.model_validate(entry))
        except ValidationError as exc:
            what = entry.get("request", "?") if isinstance(entry, dict) else "?"
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'entry'}: {e['msg']}" for e in exc.errors())
            raise ShapeTableError(f"{path}: {section} {i} ({what!r}): {problems}") from None
    return tuple(Archetype(s.request, frozenset(s.kinds), plan_text(s), frozenset(getattr(s, "same", ()))) for s in table)


def load_shapes(path: Path = SHAPE_TABLE) -> tuple[Archetype, ...]:
    """Every shape of the table as an Archetype; ShapeTableError with the shape's index and request when one is malformed."""
    return _archetypes(path, "shape", _read(path, ("shapes",))["shapes"], TableShape)


def load_plan_library(path: Path = PLAN_LIBRARY) -> tuple[tuple[Archetype, ...], tuple[Archetype, ...]]:
    """The plan library: (its object plans, its technique plans), each validated as the table's parts plus the technique
    keys a plan may say."""
    raw = _read(path, ("library", "techniques"))
    if lacking := [e.get("request", "?") for e in raw["library"] if isinstance(e, dict) and not e.get("same")]:
        raise ShapeTableError(f"{path}: library plan(s) {lacking} lack 'same', the words that name their own object")
    return _archetypes(path, "library", raw["library"], LibraryPlan), _archetypes(path, "technique", raw["techniques"], LibraryPlan)


@cache
def shapes() -> tuple[Archetype, ...]:
    """The shipped shape table, loaded once."""
    return load_shapes()


@cache
def plan_library() -> tuple[tuple[Archetype, ...], tuple[Archetype, ...]]:
    """The shipped plan library (object plans, technique plans), loaded once."""
    return load_plan_library()
