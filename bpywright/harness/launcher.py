"""One-shot runs: a fresh (sandboxed) Blender process for one script, through the same zygote as the pool."""

from __future__ import annotations

from pathlib import Path

from .backend import Backend
from .job import check_root, project_root
from .options import RunOptions
from .report import RunReport
from .worker import STARTUP_BUDGET, Worker, limits_of, remove_leftovers

__all__ = ["STARTUP_BUDGET", "limits_of", "run_script"]


def run_script(
    script: Path | None = None,
    options: RunOptions | None = None,
    *,
    source: str | None = None,
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
    if (script is None) == (source is None):
        raise ValueError("give exactly one of script or source")
    backend = Backend.resolve(options.blender, options.python)
    text = script.read_bytes() if script is not None else source
    assert text is not None
    as_file = script if script is not None else as_file
    root = check_root(options.root or project_root(as_file), as_file) if as_file is not None else None
    remove_leftovers(workdir)
    worker = Worker(backend, options, root, 0, workdir)
    try:
        worker.start()
        job = worker.prepare(
            text,
            options,
            name=as_file.name if as_file else "script.py",
            origin=str(script) if script else None,
            as_file=as_file,
            max_bytes=options.max_script_bytes,
        )
        if job.rejected:
            return job.rejected_report(backend.name, worker.sandbox)
        return worker.run(job, render_to, outputs_to)
    finally:
        worker.discard()
