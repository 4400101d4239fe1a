"""What a finished run leaves in its folder (runs/THREAD_ID/): the chosen attempt's script, report and render."""

from __future__ import annotations

import shutil
from pathlib import Path

from .context import RunContext
from .state import Attempt


def stored_id(result: object) -> str:
    """The exemplar id in whatever store.add returned (an Exemplar, an AddResult with .exemplar, or an id)."""
    exemplar = getattr(result, "exemplar", result)
    return str(getattr(exemplar, "id", exemplar))


def write_outputs(ctx: RunContext, a: Attempt) -> dict[str, str | None]:
    """script.py, run.json (with the LintReport attached) and render.png of one attempt; the paths written."""
    ctx.run_dir.mkdir(parents=True, exist_ok=True)
    paths: dict[str, str | None] = {"script_path": None, "report_path": None, "render_path": None}
    if a.script is not None:
        script = ctx.run_dir / "script.py"
        script.write_text(a.script, encoding="utf-8")
        paths["script_path"] = str(script)
    if a.run is not None:
        report = ctx.run_dir / "run.json"
        a.run.model_copy(update={"lint": a.lint}).write(report)
        paths["report_path"] = str(report)
    if a.render_path and Path(a.render_path).is_file():
        render = ctx.run_dir / "render.png"
        shutil.copyfile(a.render_path, render)
        paths["render_path"] = str(render)
    return paths
