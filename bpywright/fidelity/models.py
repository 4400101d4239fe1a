"""The measured geometry of one scene (untrusted: written by the job, validated here) and a comparison of two."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BaseModel, Field, field_validator

from ..harness.report import RunReport

VIEWS = ("front", "side", "top", "iso")
MASK_SIZE = 64  # px, each orthographic silhouette is MASK_SIZE × MASK_SIZE
MAX_POINTS = 20_000

Finite = Annotated[float, Field(allow_inf_nan=False, ge=-1e6, le=1e6)]
Unit = Annotated[float, Field(allow_inf_nan=False, ge=0.0, le=1.0)]
Point = tuple[Finite, Finite, Finite]
Colour = tuple[Unit, Unit, Unit]


class SceneGeometry(BaseModel):
    """What the measurement snippet found after the script ran: surface samples (world space), visible parts, the
    area-weighted base colours (sRGB, share of the surface), and a binary silhouette per fixed view (hex, bit per pixel)."""

    parts: int = Field(ge=0, le=1_000_000)
    triangles: int = Field(ge=0)
    points: list[Point] = Field(max_length=MAX_POINTS)
    bbox: tuple[Point, Point] | None
    colours: list[tuple[Colour, Unit]] = Field(max_length=16)
    masks: dict[str, str]

    @field_validator("masks")
    @classmethod
    def _masks(cls, masks: dict[str, str]) -> dict[str, str]:
        if masks and set(masks) != set(VIEWS):
            raise ValueError(f"masks must be exactly the views {VIEWS}")
        for name, value in masks.items():
            if len(value) != MASK_SIZE * MASK_SIZE // 4 or not re.fullmatch(r"[0-9a-f]+", value):
                raise ValueError(f"mask {name!r} is not {MASK_SIZE}×{MASK_SIZE} bits in hex")
        return masks

    @property
    def empty(self) -> bool:
        """Nothing visible with a surface was built."""
        return not self.points or self.bbox is None


class Measurement(BaseModel):
    """One script run and its saved scene measured: its report, and the geometry when it could be read (else why not)."""

    report: RunReport
    geometry: SceneGeometry | None = None
    why: str = ""

    @property
    def ran(self) -> bool:
        """The script ran without error (the geometry may still be empty)."""
        return self.report.ok


class Fidelity(BaseModel):
    """An answer's scene against its reference's, both normalised by their own bounding-box centre and diagonal.

    fscore is the primary figure: the harmonic mean of precision (answer points within tau of the reference surface)
    and recall (reference points within tau of the answer's), in [0, 1], robust to a stray part that would dominate
    the Chamfer mean."""

    measured: bool = Field(description="Both scenes had visible surfaces to compare.")
    why: str = ""
    tau: float = Field(description="The F-score threshold, as a share of the bounding-box diagonal.")
    fscore: float = 0.0
    precision: float = 0.0
    recall: float = 0.0
    chamfer: float | None = Field(None, description="Symmetric Chamfer distance: mean of both directions' mean nearest distance.")
    iou: float = Field(0.0, description="Silhouette IoU averaged over the fixed views.")
    iou_by_view: dict[str, float] = {}
    size_ratio: float | None = Field(None, description="Answer's bounding-box diagonal / the reference's (before normalising).")
    parts_answer: int = 0
    parts_reference: int = 0
    colour_distance: float | None = Field(None, description="Area-weighted nearest-colour distance in sRGB, 0 same … 1 black vs white.")

    @property
    def part_difference(self) -> int:
        """Answer's visible parts minus the reference's."""
        return self.parts_answer - self.parts_reference
