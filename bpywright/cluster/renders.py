"""Renders travel back from Ray actors as PNG bytes; the driver checks them before they touch its disk."""

from __future__ import annotations

from pathlib import Path

# The driver checks and writes what actors send exactly as the local host does with what a job leaves.
from ..harness.job import UnsafeFile, read_job_file
from ..harness.renders import MAX_RENDER_BYTES, RenderRejected, check_png, default_render_path, write_render

__all__ = ["MAX_RENDER_BYTES", "RenderRejected", "check_png", "default_render_path", "read_render", "write_render"]


def read_render(path: Path, limit: int = MAX_RENDER_BYTES) -> bytes | None:
    """The file's bytes (not following a symlink), or None when it is missing, not a regular file or too large."""
    try:
        return read_job_file(None, str(path), limit)
    except UnsafeFile:
        return None
