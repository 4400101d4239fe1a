"""One-shot runs: a fresh (sandboxed) Blender process per script."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path

from .backend import Backend
from .channel import ChannelClosed, ControlChannel
from .job import Job, read_tail
from .options import RunOptions
from .report import ExitInfo, RunReport
from .sandbox import Limits, kill_tree, sandbox_command, sandbox_kind, signal_name, wait_quietly


def limits_of(options: RunOptions) -> Limits:
    """The sandbox limits a RunOptions asks for."""
    return Limits(memory_mb=options.memory_mb, max_file_mb=options.max_file_mb, max_processes=options.max_processes)


def run_script(
    script: Path | None = None,
    options: RunOptions | None = None,
    *,
    source: str | None = None,
    render_to: Path | None = None,
    workdir: Path | None = None,
    outputs_to: Path | None = None,
) -> RunReport:
    """Run one script (a path, or source text) in a fresh Blender process and return its report.

    Files the script writes under `out/` (relative to its working directory) are moved to outputs_to.
    """
    options = options or RunOptions()
    if (script is None) == (source is None):
        raise ValueError("give exactly one of script or source")
    backend = Backend.resolve(options.blender, options.python)
    name = script.name if script is not None else "script.py"
    text = script.read_bytes() if script is not None else source
    with tempfile.TemporaryDirectory(prefix="bpywright-run-", dir=workdir) as tmp:
        root = Path(tmp)
        job = Job.prepare(text, root, options, name=name, origin=str(script) if script is not None else None)
        return _run_job(job, backend, options, render_to, outputs_to)


STARTUP_BUDGET = 120.0  # seconds Blender may take to start before the script's own timeout begins


def _run_job(job: Job, backend: Backend, options: RunOptions, render_to: Path | None, outputs_to: Path | None = None) -> RunReport:
    kind = sandbox_kind(options.sandbox)
    if job.rejected:
        return job.rejected_report(backend.name, kind)
    payload = job.write_payload(kind)
    read_fd, write_fd = os.pipe()
    argv = backend.command("--job", str(payload), "--control-fd", str(write_fd))
    sandboxed = sandbox_command(argv, job.job_dir, use_bwrap=options.sandbox, limits=limits_of(options), readable=backend.sandbox_paths)
    log_path = job.job_dir.parent / f"{job.job_id}.log"
    channel = ControlChannel(read_fd)
    start = time.perf_counter()
    timed_out = False
    version = None
    with log_path.open("wb") as log:
        proc = sandboxed.start(stdin=subprocess.DEVNULL, log=log, cwd=job.job_dir, control_fd=write_fd)
        os.close(write_fd)
        try:
            started = channel.receive(time.monotonic() + STARTUP_BUDGET)
            version = started.get("blender_version")
            channel.receive(time.monotonic() + options.timeout)
            proc.wait(timeout=10)  # the entry leaves right after "done"
        except TimeoutError:
            timed_out = True
        except ChannelClosed:
            wait_quietly(proc, 10)  # it is exiting (crash): let it, to learn the signal
        except subprocess.TimeoutExpired:
            pass
        finally:
            kill_tree(proc)
            proc.wait()
            channel.close()
            sandboxed.cleanup()
    wall = time.perf_counter() - start
    exit_info = ExitInfo(returncode=proc.returncode, signal=signal_name(proc.returncode, sandboxed.kind == "bwrap"))
    return job.finish(
        backend=backend.name,
        sandbox=sandboxed.kind,
        wall=wall,
        timed_out=timed_out,
        exit=exit_info,
        process_log=read_tail(log_path),
        render_to=render_to,
        blender_version=version,
        outputs_to=outputs_to,
    )

