"""Image features of renders: perceptual hashes of the content (phash + dhash + colour), near-duplicates, thumbnails."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

HASH_BITS = 64  # 8x8 hashes; the combined distance below runs 0..128
# Measured by bench/exemplars.py on 256 px workbench renders of the 13 recipes + 50 BlendNet scripts, each
# also rendered with a comment edit, a colour nudge, a 3° turn and a small move (see the report there):
# hashing the content crop, phash+dhash <= 16 with foreground colours within 0.10 groups ~97% of the tiny
# changes and 1 of 1891 pairs of different scripts (two scripts that build the same hexagon tiling).
NEAR_DUPLICATE_DISTANCE = 16
NEAR_DUPLICATE_COLOUR = 0.10  # largest per-channel difference (0..1) of the mean foreground colour
BACKGROUND_DIFF = 0.04  # per-channel difference from the border median that counts as content
MIN_CONTENT = 0.002  # a render with less content than this has no meaningful hash: never grouped
THUMBNAIL_PX = 128


class ImageHashes(NamedTuple):
    """Hashes as numbers: phash, dhash and the mean foreground colour (None for a blank render)."""

    phash: int
    dhash: int
    colour: tuple[float, float, float] | None


def content_crop(img: Any) -> tuple[Any, tuple[float, float, float] | None]:
    """The square crop around everything that is not background, and the mean colour of that content.

    Hashing the crop makes a small object in a big frame comparable to a large one: without it, every
    tiny blob on the default grey background hashes alike (measured: the main source of false groups).
    """
    import numpy as np

    rgb = np.asarray(img.convert("RGB"), dtype=np.float32) / 255.0
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
    mask = np.abs(rgb - np.median(border, axis=0)).max(axis=2) > BACKGROUND_DIFF
    if mask.mean() < MIN_CONTENT:
        return img, None
    ys, xs = np.nonzero(mask)
    cy, cx = (ys.min() + ys.max()) / 2, (xs.min() + xs.max()) / 2
    half = max(ys.max() - ys.min(), xs.max() - xs.min()) / 2 * 1.1 + 2
    r, g, b = (round(float(c), 4) for c in rgb[mask].mean(axis=0))
    return img.crop((int(cx - half), int(cy - half), int(cx + half), int(cy + half))), (r, g, b)


def perceptual_hashes(png: Path) -> dict[str, str]:
    """{"phash": hex, "dhash": hex, "colour": hex RGB} of the render's content (no "colour" when blank)."""
    import imagehash
    from PIL import Image

    with Image.open(png) as img:
        crop, colour = content_crop(img.convert("RGB"))
    hashes = {"phash": str(imagehash.phash(crop)), "dhash": str(imagehash.dhash(crop))}
    if colour is not None:
        hashes["colour"] = "".join(f"{round(c * 255):02x}" for c in colour)
    return hashes


def hash_values(hashes: Mapping[str, str | None]) -> ImageHashes | None:
    """The hashes as numbers, or None when phash/dhash are missing."""
    try:
        phash, dhash = int(hashes["phash"] or "", 16), int(hashes["dhash"] or "", 16)
    except (KeyError, ValueError, TypeError):
        return None
    colour_hex = hashes.get("colour")
    colour = None
    if colour_hex and len(colour_hex) == 6:
        r, g, b = (int(colour_hex[i : i + 2], 16) / 255 for i in (0, 2, 4))
        colour = (r, g, b)
    return ImageHashes(phash, dhash, colour)


def hash_distance(a: ImageHashes, b: ImageHashes) -> int:
    """Combined Hamming distance: phash bits that differ + dhash bits that differ (0..128)."""
    return (a.phash ^ b.phash).bit_count() + (a.dhash ^ b.dhash).bit_count()


def colour_distance(a: ImageHashes, b: ImageHashes) -> float:
    """Largest per-channel difference of the foreground colours (1.0 when either render is blank)."""
    if a.colour is None or b.colour is None:
        return 1.0
    return max(abs(x - y) for x, y in zip(a.colour, b.colour))


def near_duplicate(a: ImageHashes, b: ImageHashes) -> bool:
    """Same scene with a tiny change: close hashes of the content and a similar foreground colour."""
    return hash_distance(a, b) <= NEAR_DUPLICATE_DISTANCE and colour_distance(a, b) <= NEAR_DUPLICATE_COLOUR


def thumbnail_bytes(png: Path, size: int = THUMBNAIL_PX) -> bytes:
    """A small WEBP of the render (aspect kept, longest side `size`)."""
    from PIL import Image

    with Image.open(png) as img:
        thumb = img.convert("RGBA")
    thumb.thumbnail((size, size))
    buffer = io.BytesIO()
    thumb.save(buffer, format="WEBP", quality=80, method=4)
    return buffer.getvalue()
