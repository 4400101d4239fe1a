"""Tool answers: library results turned into MCP results (text for the model, structured content, images), failures as is_error."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from pathlib import Path

from mcp_types import CallToolResult, ImageContent, TextContent
from pydantic import BaseModel

from ..harness.report import RunReport
from .models import RenderBrief, RunResult

TAIL_CHARS = 2000  # stdout/stderr kept in a result: enough to see a print or a warning, not a flood


Picture = tuple[bytes, str]  # image bytes and their MIME type
MIME = {".png": "image/png", ".webp": "image/webp", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


def answer(text: str, data: BaseModel | None = None, images: Sequence[Picture] = (), *, error: bool = False) -> CallToolResult:
    """A tool result: text the model reads, the structured copy, images; error=True marks a failure the model should act on."""
    content: list = [TextContent(type="text", text=text)]
    content += [ImageContent(type="image", data=base64.b64encode(data).decode("ascii"), mime_type=mime) for data, mime in images]
    structured = data.model_dump(mode="json") if data is not None else None
    return CallToolResult(content=content, structured_content=structured, is_error=error)


def refusal(reason: str) -> CallToolResult:
    """A failure before anything ran (bad input, unknown version, busy server): the reason and nothing else."""
    return CallToolResult(content=[TextContent(type="text", text=reason)], is_error=True)


def read_image(path: Path | str | None) -> list[Picture]:
    """The image at path (PNG render, WebP thumbnail) as a one-item list, or [] when there is none."""
    if path is None or Path(path).suffix.lower() not in MIME:
        return []
    try:
        return [(Path(path).read_bytes(), MIME[Path(path).suffix.lower()])]
    except OSError:
        return []


def source_line(script: str, line: int | None) -> str | None:
    """Line `line` (1-based) of the script, or None."""
    lines = script.splitlines()
    return lines[line - 1].rstrip() if line and 0 < line <= len(lines) else None


def run_result(report: RunReport, script: str) -> RunResult:
    """The compact, path-free view of a RunReport."""
    render = report.render
    return RunResult(
        status=report.status,
        ok=report.ok,
        blender_version=report.blender_version,
        exception=report.exception,
        failing_line=source_line(script, report.exception.line if report.exception else None),
        scene=report.scene,
        render=RenderBrief(
            width=render.width,
            height=render.height,
            engine=render.engine,
            nonblank_fraction=render.nonblank_fraction,
            camera_light_added=report.camera_light_added,
        )
        if render
        else None,
        blender_errors=report.blender_errors[:20],
        stdout_tail=report.stdout[-TAIL_CHARS:],
        stderr_tail=report.stderr[-TAIL_CHARS:],
        signal=report.exit.signal if report.exit else None,
        seconds=report.timings.total,
    )
