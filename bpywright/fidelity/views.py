"""Four fixed views of the scene a script builds (front, side, top, iso; orthographic, framing the visible geometry),
rendered in the same job after the script, for an image-capable judge. The PNGs come back through the harness's
outputs copy (regular files only) and are read by fixed name, size-capped and checked as PNGs of the asked size."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..harness.job import UnsafeFile, read_job_file
from ..harness.renders import RenderRejected, check_png
from .models import VIEWS

if TYPE_CHECKING:
    from ..harness.pool import WorkerPool
    from ..harness.report import RunReport

SNIPPET = Path(__file__).with_name("blender") / "views.py"
MAX_VIEW_BYTES = 4 * 1024 * 1024
CALL = """

try:
    _bpywright_render_views({size})
except Exception:
    pass  # no views: the judge gets the script and the scene summary only
"""


def views_script(script: str, size: int = 256) -> str:
    """The script with the four-view render appended (its own lines unchanged)."""
    return script.rstrip("\n") + "\n\n\n" + SNIPPET.read_text(encoding="utf-8") + CALL.format(size=int(size))


def render_views(pool: WorkerPool, script: str, to: Path, size: int = 256) -> tuple[RunReport, list[Path]]:
    """Run the script with the views appended; its report and the views that came back sound (to/view-NAME.png)."""
    to.mkdir(parents=True, exist_ok=True)
    kept = []
    with tempfile.TemporaryDirectory(prefix="bpywright-views-") as outputs:
        report = pool.run(source=views_script(script, size), outputs_to=Path(outputs))
        for name in VIEWS:
            try:
                data = read_job_file(None, str(Path(outputs) / f"view-{name}.png"), MAX_VIEW_BYTES)
                check_png(data, size, size)
            except (UnsafeFile, RenderRejected):
                continue
            (to / f"view-{name}.png").write_bytes(data)
            kept.append(to / f"view-{name}.png")
    return report, kept
