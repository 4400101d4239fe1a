"""A job: one script in its own directory, the payload the in-Blender entry reads, and its final RunReport."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from .imagestats import nonblank_fraction
from .options import RunOptions
from .report import ExceptionInfo, ExitInfo, RunReport, Timings
from .sandbox import SandboxKind

MAX_SCRIPT_BYTES = 1_000_000
TAIL_CHARS = 4000


def read_tail(path: Path, chars: int = TAIL_CHARS) -> str:
    """The last `chars` characters of a text file, or '' when it does not exist."""
    try:
        with path.open("rb") as fh:
            fh.seek(0, 2)
            fh.seek(max(0, fh.tell() - chars * 4))
            return fh.read().decode("utf-8", "replace")[-chars:]
    except OSError:
        return ""


def default_render_dir() -> Path:
    """Where renders go when the caller named no destination (the job dir itself is deleted)."""
    return Path(tempfile.gettempdir()) / "bpywright-renders"


def _safe_name(name: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(name).name) or "script.py"
    return stem if stem.endswith(".py") else stem + ".py"


@dataclass
class Job:
    """One script prepared for a run inside `job_dir` (the only place its Blender may write)."""

    job_id: str
    job_dir: Path
    script_path: Path
    origin: str | None
    options: RunOptions
    rejected: str | None = None

    @classmethod
    def prepare(cls, source: str | bytes, root: Path, options: RunOptions, name: str = "script.py", origin: str | None = None) -> Job:
        """Create the job dir under root and copy the script in; refuse binaries and oversized scripts."""
        job_id = uuid.uuid4().hex[:12]
        job_dir = root / f"job-{job_id}"
        job_dir.mkdir(parents=True)
        script_path = job_dir / _safe_name(name)
        raw = source.encode("utf-8") if isinstance(source, str) else source
        rejected = None
        if len(raw) > MAX_SCRIPT_BYTES:
            rejected = f"script is {len(raw)} bytes; the limit is {MAX_SCRIPT_BYTES}"
        elif b"\x00" in raw:
            rejected = "script contains NUL bytes: not a Python source file"
        script_path.write_bytes(raw)
        return cls(job_id, job_dir, script_path, origin, options, rejected)

    @property
    def report_path(self) -> Path:
        """Where the entry writes its raw report."""
        return self.job_dir / "report.json"

    @property
    def render_path(self) -> Path:
        """Where the entry writes the render."""
        return self.job_dir / "render.png"

    def payload(self, sandbox: SandboxKind) -> dict:
        """The job description the in-Blender entry reads."""
        opts = self.options
        return {
            "job_id": self.job_id,
            "job_dir": str(self.job_dir),
            "script_path": str(self.script_path),
            "report_path": str(self.report_path),
            "render_path": str(self.render_path) if opts.render else None,
            "engine": opts.engine,
            "resolution": opts.resolution,
            "samples": opts.samples,
            "empty_scene": opts.empty_scene,
            "sandbox": sandbox,
        }

    def write_payload(self, sandbox: SandboxKind) -> Path:
        """Write the payload as job.json for a one-shot run."""
        path = self.job_dir / "job.json"
        path.write_text(json.dumps(self.payload(sandbox)), encoding="utf-8")
        return path

    def rejected_report(self, backend: str, sandbox: SandboxKind) -> RunReport:
        """The report for a script refused before it ran."""
        exc = ExceptionInfo(type="Rejected", message=self.rejected or "rejected")
        return RunReport(status="rejected", backend=backend, exception=exc, sandbox=sandbox, script_path=self.origin)  # type: ignore[arg-type]

    def finish(
        self,
        *,
        backend: str,
        sandbox: SandboxKind,
        wall: float,
        timed_out: bool,
        exit: ExitInfo | None,
        process_log: str = "",
        render_to: Path | None = None,
        blender_version: str | None = None,
        outputs_to: Path | None = None,
    ) -> RunReport:
        """Turn what the run left in the job dir into the final RunReport (timeout/crash when it left none).

        outputs_to: files the script wrote under `out/` in its working directory are moved there.
        """
        report = None if timed_out else self._read_report()
        if report is None:
            report = self._synthesised(backend, sandbox, timed_out, exit, process_log, blender_version)
        else:
            report.exit = exit
        entry = report.timings
        work = entry.reset + entry.script + entry.render
        report.timings = Timings(startup=max(wall - work, 0.0), reset=entry.reset, script=entry.script, render=entry.render, total=wall)
        report.script_path = self.origin
        if outputs_to is not None and (self.job_dir / "out").is_dir():
            outputs_to.mkdir(parents=True, exist_ok=True)
            for item in (self.job_dir / "out").iterdir():
                shutil.move(str(item), outputs_to / item.name)
        if report.render is not None:
            png = Path(report.render.path)
            if png.is_file():
                report.render.nonblank_fraction = nonblank_fraction(png)
                render_to = render_to or default_render_dir() / f"{self.job_id}.png"
                render_to.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(png), render_to)
                report.render.path = str(render_to.resolve())
            else:
                report.render = None
        return report

    def _read_report(self) -> RunReport | None:
        try:
            return RunReport.model_validate_json(self.report_path.read_text(encoding="utf-8"))
        except (OSError, ValidationError, ValueError):
            return None

    def _synthesised(self, backend, sandbox, timed_out, exit, process_log, blender_version) -> RunReport:
        stderr = read_tail(self.job_dir / "stderr.txt")
        if timed_out:
            exc = ExceptionInfo(type="Timeout", message=f"the script did not finish within {self.options.timeout:g}s")
            status = "timeout"
        else:
            sig = exit.signal if exit else None
            how = f"killed by {sig}" if sig else f"exited with code {exit.returncode if exit else '?'}"
            exc = ExceptionInfo(type="Crash", message=f"Blender {how} before writing a report")
            status = "crash"
            stderr = (stderr + "\n" + process_log[-TAIL_CHARS:]).strip()[-TAIL_CHARS:]
        return RunReport(
            status=status,  # type: ignore[arg-type]
            backend=backend,  # type: ignore[arg-type]
            blender_version=blender_version,
            exception=exc,
            stdout=read_tail(self.job_dir / "stdout.txt"),
            stderr=stderr,
            exit=exit,
            sandbox=sandbox,
        )

    def cleanup(self) -> None:
        """Remove the job dir (results have been moved out)."""
        shutil.rmtree(self.job_dir, ignore_errors=True)
