"""Symbol: one API name of one Blender version (the record every ingest pass produces and search returns)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

SCHEMA_VERSION = 1
Kind = Literal["module", "struct", "property", "function", "operator", "class", "data", "enum_item", "other"]


class Symbol(BaseModel):
    """An API symbol, e.g. bpy.types.Object.modifiers or bpy.ops.mesh.primitive_cube_add."""

    name: str = Field(description="Fully qualified dotted name.")
    role: str = Field("", description="Sphinx role, e.g. py:attribute, py:function, py:class.")
    kind: Kind = "other"
    uri: str | None = Field(None, description="Documentation URL of this version, when the inventory has it.")
    blender_version: str = Field(description="major.minor, e.g. 4.5")
    signature: str | None = Field(None, description="Call signature for functions/operators, e.g. (size=2.0, location=(0, 0, 0)).")
    type: str | None = Field(None, description="Property type, e.g. float, enum, Collection of Modifier, pointer to Material.")
    description: str = ""
    enum_items: list[str] = Field(default_factory=list)  # a factory, not []: pydantic deep-copies a mutable default per record
    parent: str | None = None
    readonly: bool | None = None
    default: str | None = None
    examples: list[str] = Field(default_factory=list, description="Short usage lines from the bundled recipes.")
    sources: list[str] = Field(default_factory=list, description="Passes that contributed: inventory, introspect.")


def write_symbols(symbols: Iterable[Symbol], path: Path) -> int:
    """Write symbols as JSON lines (atomically); return how many."""
    tmp = path.with_suffix(".tmp")
    count = 0
    with tmp.open("w", encoding="utf-8") as fh:
        for sym in symbols:
            fh.write(sym.model_dump_json(exclude_defaults=True) + "\n")
            count += 1
    tmp.replace(path)
    return count


def read_symbols(path: Path) -> Iterator[Symbol]:
    """Read symbols written by write_symbols."""
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield Symbol.model_validate(json.loads(line))
