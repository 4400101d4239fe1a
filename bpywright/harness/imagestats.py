"""Image statistics of renders: how much of a PNG shows something other than background."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

THRESHOLD = 0.04  # per-channel difference from the background colour that counts as "something"


def nonblank_fraction(png: Path) -> float:
    """Share of pixels that differ from the background (the median colour of the image border)."""
    with Image.open(png) as img:
        rgba = np.asarray(img.convert("RGBA"), dtype=np.float32) / 255.0
    if rgba.size == 0:
        return 0.0
    border = np.concatenate([rgba[0], rgba[-1], rgba[:, 0], rgba[:, -1]])
    background = np.median(border, axis=0)
    diff = np.abs(rgba - background).max(axis=2)
    return round(float((diff > THRESHOLD).mean()), 4)
