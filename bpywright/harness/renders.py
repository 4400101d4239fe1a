"""Renders a job (or a remote actor) hands back: checked as a PNG of the asked size, then written without following links."""

from __future__ import annotations

import io
import os
import re
import uuid
from pathlib import Path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_RENDER_BYTES = 128 * 1024 * 1024  # a 4096² RGBA PNG stays below this; anything larger is not one of ours
MAX_RENDER_SIDE = 8192  # pixels: no render bpywright asks for is larger (the header is checked before decoding)


class RenderRejected(ValueError):
    """Bytes that are not the PNG the job was asked for."""


def check_png(data: bytes, width: int, height: int) -> None:
    """Raise RenderRejected unless data is a complete, decodable PNG of width x height."""
    from PIL import Image

    if not data.startswith(PNG_SIGNATURE):
        raise RenderRejected("render.png is not a PNG (bad signature)")
    if len(data) > MAX_RENDER_BYTES:
        raise RenderRejected(f"render.png is {len(data)} bytes, over the {MAX_RENDER_BYTES}-byte limit")
    declared = png_header_size(data)
    if declared != (width, height) or max(declared) > MAX_RENDER_SIDE:
        # Refused from the header alone: a small file can declare a huge image (a decompression bomb).
        raise RenderRejected(f"render.png declares {declared[0]}x{declared[1]}, expected {width}x{height}")
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.verify()  # checksums and structure
        with Image.open(io.BytesIO(data)) as image:
            size = image.size
            image.load()  # and every pixel decodes
    except Exception as exc:  # Pillow raises many types for damaged files
        raise RenderRejected(f"damaged PNG: {exc}") from exc
    if size != (width, height):
        raise RenderRejected(f"render.png is {size[0]}x{size[1]}, expected {width}x{height}")


def png_header_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk, which must come first; RenderRejected when it does not."""
    if len(data) < 24 or data[12:16] != b"IHDR" or int.from_bytes(data[8:12], "big") != 13:
        raise RenderRejected("damaged PNG: no IHDR header first")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def default_render_path(name: str | None = None) -> Path:
    """Where a render goes when the caller named no destination: this user's private scratch folder."""
    from .sandbox import user_temp_dir

    return user_temp_dir("renders") / f"{name or uuid.uuid4().hex[:12]}.png"


def write_render(data: bytes, to: Path) -> Path:
    """Write data to `to` atomically (a temp file beside it, then rename: a symlink at `to` is replaced, never followed)."""
    to.parent.mkdir(parents=True, exist_ok=True)
    tmp = to.parent / f".{re.sub(r'[^A-Za-z0-9_.-]', '_', to.name)}.{uuid.uuid4().hex[:8]}.part"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, to)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return to.resolve()
