"""One-shot runs: a fresh (sandboxed) Blender process for one script, through the same zygote as the pool."""

from __future__ import annotations

from pathlib import Path

from .backend import Backend
from .job import script_input
from .options import RunOptions
from .report import RunReport
from .worker import STARTUP_BUDGET, Worker, limits_of, remove_leftovers

__all__ = ["STARTUP_BUDGET", "limits_of", "run_script"]


def run_script(
    script: Path | None = None,
    options: RunOptions | None = None,
    *,
    source: str | bytes | None = None,
    as_file: Path | None = None,
    render_to: Path | None = None,
    workdir: Path | None = None,
    outputs_to: Path | None = None,
) -> RunReport:
    """Run one script (a path, or source text) in a fresh Blender process and return its report.

    as_file: run `source` as that file of its project. Files the script writes in its working
    directory are copied to outputs_to.
    """
    options = options or RunOptions()
    given = script_input(script, source, as_file, options)
    backend = Backend.resolve(options.blender, options.python)
    remove_leftovers(workdir)
    worker = Worker(backend, options, given.root, 0, workdir)
    try:
        worker.start()
        return worker.run_script(given, options, render_to, outputs_to)
    finally:
        worker.discard()
