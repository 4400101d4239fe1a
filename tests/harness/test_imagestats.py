"""nonblank_fraction measures what share of a PNG differs from its background."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bpywright.harness.imagestats import nonblank_fraction


def test_blank_image_is_zero(tmp_path: Path) -> None:
    Image.new("RGB", (32, 32), (60, 60, 60)).save(tmp_path / "blank.png")
    assert nonblank_fraction(tmp_path / "blank.png") == 0.0


def test_counts_foreground_pixels(tmp_path: Path) -> None:
    img = Image.new("RGBA", (20, 20), (0, 0, 0, 0))
    for x in range(5, 15):
        for y in range(5, 9):
            img.putpixel((x, y), (200, 100, 50, 255))
    img.save(tmp_path / "fg.png")
    assert nonblank_fraction(tmp_path / "fg.png") == 40 / 400
