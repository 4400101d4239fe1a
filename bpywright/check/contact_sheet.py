"""The contact sheet: every case's render in one PNG grid, captioned with script, Blender version and outcome."""

from __future__ import annotations

import io
import math
from pathlib import Path

from ..untrusted_files import write_nofollow
from .models import CaseResult

THUMB = 160  # px, square cell for each render
CAPTION = 34  # px below each thumbnail: two text lines
PAD = 6
COLUMNS = 6  # at least; large sheets grow towards a square
BACKGROUND = (32, 32, 36)
COLOURS = {
    "passed": (46, 160, 67),
    "failed": (207, 34, 46),
    "error": (219, 109, 40),
    "xfail": (110, 118, 129),
    "xpass": (163, 113, 247),
}
ADVISORY = (212, 167, 44)  # outline of a case with advisory problems (a moved render, advisory lint)


def columns_for(cases: int, versions: int = 1) -> int:
    """Grid width: a multiple of the number of Blender versions, so each row shows a script on every version."""
    versions = max(1, versions)
    wanted = max(COLUMNS, math.ceil(math.sqrt(cases)))
    return max(1, min(cases, versions * max(1, wanted // versions)))


def sheet_size(cases: int, versions: int = 1) -> tuple[int, int]:
    """(width, height) of the sheet for this many cases."""
    columns = columns_for(cases, versions)
    rows = max(1, math.ceil(cases / columns))
    return columns * (THUMB + PAD) + PAD, rows * (THUMB + CAPTION + PAD) + PAD


def _font(size: int):
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def _fit(draw, text: str, font, width: int) -> str:
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength("…" + text, font=font) > width:
        text = text[1:]
    return "…" + text  # keep the end: the file name matters more than the folder


def _thumbnail(case: CaseResult):
    from PIL import Image, ImageDraw, ImageOps

    if case.render and Path(case.render).is_file():
        with Image.open(case.render) as image:
            thumb = ImageOps.contain(image.convert("RGB"), (THUMB, THUMB))  # small CI renders are scaled up too
        cell = Image.new("RGB", (THUMB, THUMB), (0, 0, 0))
        cell.paste(thumb, ((THUMB - thumb.width) // 2, (THUMB - thumb.height) // 2))
        return cell
    cell = Image.new("RGB", (THUMB, THUMB), (60, 60, 66))
    draw = ImageDraw.Draw(cell)
    draw.text(
        (THUMB // 2, THUMB // 2), f"no render\n({case.status})", fill=COLOURS[case.outcome], font=_font(14), anchor="mm", align="center"
    )
    return cell


def write_contact_sheet(cases: list[CaseResult], path: Path, versions: list[str] | None = None) -> Path:
    """Draw the grid, script by script with its versions side by side (in the order of versions), and save it as PNG."""
    from PIL import Image, ImageDraw

    order = {label: n for n, label in enumerate(versions or [])}
    cases = sorted(cases, key=lambda c: (c.script, order.get(c.target, len(order))))
    width, height = sheet_size(len(cases), len(order))
    columns = columns_for(len(cases), len(order))
    sheet = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    font = _font(11)
    for n, case in enumerate(cases):
        x = PAD + (n % columns) * (THUMB + PAD)
        y = PAD + (n // columns) * (THUMB + CAPTION + PAD)
        sheet.paste(_thumbnail(case), (x, y))
        colour = COLOURS[case.outcome]
        draw.rectangle([x, y + THUMB, x + THUMB - 1, y + THUMB + 3], fill=colour)
        if case.advisory:
            draw.rectangle([x - 2, y - 2, x + THUMB + 1, y + THUMB + CAPTION - 1], outline=ADVISORY, width=2)
        draw.text((x + 2, y + THUMB + 5), _fit(draw, case.script, font, THUMB - 4), fill=(230, 230, 230), font=font)
        draw.text((x + 2, y + THUMB + 19), _fit(draw, f"{case.target} · {case.outcome}", font, THUMB - 4), fill=colour, font=font)
    data = io.BytesIO()
    sheet.save(data, format="PNG")
    return write_nofollow(path, data.getvalue(), "contact sheet")
