"""One-screen human summaries of RunReports."""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

from .report import RunReport

MARK = {"ok": "✔", "error": "✘", "timeout": "⏱", "crash": "💥", "rejected": "⛔"}


def escape_controls(text: str) -> str:
    """text safe to print on a terminal: control and format characters (ESC, OSC, bidi overrides) escaped, newlines and tabs kept."""
    return "\n".join(
        "".join(ch if ch == "\t" or not unicodedata.category(ch).startswith("C") else ascii(ch)[1:-1] for ch in line)
        for line in text.split("\n")
    )


def _source_line(path: str | None, line: int | None) -> str | None:
    if not path or not line:
        return None
    try:
        lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return lines[line - 1].rstrip() if 0 < line <= len(lines) else None


def one_line(report: RunReport, name: str) -> str:
    """`✔ ok    name  1.23s` plus the exception, for batch listings."""
    text = f"{MARK[report.status]} {report.status:<8} {name}  {report.timings.total:.2f}s"
    if report.exception is not None:
        text += f"  {report.failure_with_line}"[:200]
    return escape_controls(text)


def render_summary(report: RunReport, name: str | None = None) -> str:
    """A short multi-line summary: status, versions, timings, scene, render, failure and output tails."""
    name = name or report.script_path or "script"
    t = report.timings
    out = [
        f"{MARK[report.status]} {report.status.upper()}  {name}",
        f"  Blender {report.blender_version or '?'} ({report.backend}), sandbox: {report.sandbox}",
        f"  time {t.total:.2f}s (startup {t.startup:.2f}, reset {t.reset:.2f}, script {t.script:.2f}, render {t.render:.2f})",
    ]
    if report.scene is not None:
        s = report.scene
        types = ", ".join(f"{n} {k}" for k, n in Counter(o.type for o in s.objects).most_common())
        verts = sum(o.vertices or 0 for o in s.objects)
        size = ""
        if s.bbox is not None:
            dims = [hi - lo for lo, hi in zip(s.bbox.min, s.bbox.max)]
            size = " · size " + "×".join(f"{d:.2f}" for d in dims)
        out.append(f"  scene: {s.object_count} objects ({types}) · {verts:,} vertices{size}")
        out.append(f"         camera {'yes' if s.camera else 'no'} · light {'yes' if s.light else 'no'}")
    if report.render is not None:
        r = report.render
        frac = f"{r.nonblank_fraction:.0%} non-blank" if r.nonblank_fraction is not None else ""
        added = f" (added {' + '.join(report.camera_light_added)})" if report.camera_light_added else ""
        out.append(f"  render: {r.path} {r.width}×{r.height} {r.engine}, {frac}{added}")
    if report.exception is not None:
        out.append(f"  {report.failure_with_line}")
        code = _source_line(report.script_path, report.exception.line)
        if code is not None:
            out.append(f"    {report.exception.line} | {code}")
    if report.exit is not None and report.exit.signal:
        out.append(f"  exit: signal {report.exit.signal}")
    for err in report.blender_errors[:5]:
        out.append(f"  blender: {err}")
    for label, text in (("stdout", report.stdout), ("stderr", report.stderr if not report.ok else "")):
        lines = [ln for ln in text.splitlines() if ln.strip()][-5:]
        if lines:
            out.append(f"  {label} (last {len(lines)} lines):")
            out.extend(f"    {ln[:160]}" for ln in lines)
    return escape_controls("\n".join(out))
