"""The Exemplar contract (DESIGN.md): one validated script with its render, hashes and report."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from ..harness.report import RunReport

SCHEMA_VERSION = 1

Source = Literal["recipe", "generated", "imported", "user"]
VerifiedBy = Literal["person", "machine"]


def verified_by(source: str, trusted: bool) -> VerifiedBy | None:
    """Who vouches for an exemplar of a source: the machine for a generated answer the loop accepted, a person for a
    recipe, an imported pair or a user script an operator trusted, nobody for an untrusted user submission."""
    if source == "generated":
        return "machine"
    return "person" if source != "user" or trusted else None


def exemplar_id(script_sha256: str, blender_version: str) -> str:
    """The Exemplar contract's id: the first 16 hex digits of sha256(script_sha256 + ":" + blender_version)."""
    return hashlib.sha256(f"{script_sha256}:{blender_version}".encode()).hexdigest()[:16]


class Exemplar(BaseModel):
    """A script that ran (status and report included), its render, perceptual hashes and provenance."""

    schema_version: int = SCHEMA_VERSION
    id: str  # exemplar_id(script_sha256, blender_version)
    prompt: str
    script: str
    script_sha256: str
    blender_version: str
    status: str  # RunReport.status of the validating run
    report: RunReport | None = None
    render_path: str | None = None  # content-addressed file, relative to the store's files dir
    thumbnail_path: str | None = None
    hashes: dict[str, str] = Field(default_factory=dict)  # {"phash": hex, "dhash": hex}
    clip: bool = False  # a CLIP vector of the render is in the store's FAISS index
    symbols: list[str] = Field(default_factory=list)  # bpy names the script uses
    source: Source = "user"
    group_id: str | None = None  # near-duplicate renders share the id of the group's first exemplar
    group_size: int = 1  # exemplars in its near-duplicate group (1: none; see ExemplarStore.members)
    created_at: datetime
    trusted: bool = False  # reviewed: generation may learn from it, MCP serves it (user submissions start untrusted)
    verified_by: VerifiedBy | None = None  # "machine": accepted by the loop's checks alone; ranks below a person's


class ExemplarHit(BaseModel):
    """One search result: the exemplar and how it matched."""

    exemplar: Exemplar
    score: float
    why: str = ""  # "text", "clip", "hash", …
