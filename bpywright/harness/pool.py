"""WorkerPool: warm, sandboxed Blender workers that reset between jobs and are recycled when they fail."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from .backend import Backend, BackendError
from .channel import ChannelClosed, ControlChannel
from .job import Job, read_tail
from .launcher import STARTUP_BUDGET, limits_of
from .options import RunOptions
from .report import ExitInfo, RunReport
from .sandbox import SandboxedCommand, kill_tree, sandbox_command, sandbox_kind, signal_name, wait_quietly

if TYPE_CHECKING:
    from .lint import Linter

RESET_BUDGET = 60.0  # seconds a worker may take to reset before the job's own timeout starts


class Worker:
    """One warm Blender process serving jobs, each in a directory under the worker's private root."""

    def __init__(self, backend: Backend, options: RunOptions, workdir: Path | None, index: int):
        self.backend = backend
        self.options = options
        self.index = index
        self.root = Path(tempfile.mkdtemp(prefix=f"bpywright-worker{index}-", dir=workdir))
        self.log_path = self.root.with_suffix(".log")
        self.jobs_done = 0
        self.blender_version: str | None = None
        self.proc: subprocess.Popen | None = None
        self._sandboxed: SandboxedCommand | None = None
        self._channel: ControlChannel | None = None

    @property
    def sandbox(self):
        """The sandbox kind this worker runs under."""
        return self._sandboxed.kind if self._sandboxed else sandbox_kind(self.options.sandbox)

    def start(self) -> None:
        """Start Blender in serve mode and wait until it says it is ready."""
        read_fd, write_fd = os.pipe()
        argv = self.backend.command("--serve", "--control-fd", str(write_fd))
        self._sandboxed = sandbox_command(
            argv, self.root, use_bwrap=self.options.sandbox, limits=limits_of(self.options), readable=self.backend.sandbox_paths
        )
        with self.log_path.open("ab") as log:
            self.proc = self._sandboxed.start(stdin=subprocess.PIPE, log=log, cwd=self.root, control_fd=write_fd)
        os.close(write_fd)
        self._channel = ControlChannel(read_fd)
        try:
            ready = self._channel.receive(time.monotonic() + STARTUP_BUDGET)
        except (TimeoutError, ChannelClosed) as exc:
            self.stop()
            raise BackendError(f"Blender worker did not start: {read_tail(self.log_path, 800).strip()}") from exc
        self.blender_version = ready.get("blender_version")

    @property
    def alive(self) -> bool:
        """True while the worker process runs."""
        return self.proc is not None and self.proc.poll() is None

    def run(self, job: Job, render_to: Path | None) -> RunReport:
        """Run one prepared job; on timeout or crash the worker is left dead (the pool replaces it)."""
        assert self.proc is not None and self.proc.stdin is not None and self._channel is not None
        start = time.perf_counter()
        timed_out = False
        exit_info = None
        line = (_json_line(job.payload(self.sandbox))).encode()
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
            self._channel.receive(time.monotonic() + RESET_BUDGET)
            self._channel.receive(time.monotonic() + job.options.timeout)
        except TimeoutError:
            timed_out = True
            self.stop()
        except (ChannelClosed, BrokenPipeError, OSError):
            wait_quietly(self.proc, 10)  # it is exiting (crash): let it, to learn the signal
            self.stop()
        if not self.alive and self.proc.returncode is not None:
            exit_info = ExitInfo(returncode=self.proc.returncode, signal=signal_name(self.proc.returncode, self.sandbox == "bwrap"))
        self.jobs_done += 1
        return job.finish(
            backend=self.backend.name,
            sandbox=self.sandbox,
            wall=time.perf_counter() - start,
            timed_out=timed_out,
            exit=exit_info,
            process_log=read_tail(self.log_path) if exit_info else "",
            render_to=render_to,
            blender_version=self.blender_version,
        )

    def stop(self) -> None:
        """End the worker (EOF first, then kill) and release its sandbox resources."""
        if self.proc is not None:
            if self.proc.poll() is None:
                try:
                    assert self.proc.stdin is not None
                    self.proc.stdin.close()
                    self.proc.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired, AssertionError):
                    pass
            kill_tree(self.proc)
            self.proc.wait()
            if self.proc.stdin is not None:
                try:
                    self.proc.stdin.close()
                except OSError:
                    pass
        if self._channel is not None:
            self._channel.close()
        if self._sandboxed is not None:
            self._sandboxed.cleanup()

    def discard(self) -> None:
        """Stop and delete the worker's files."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
        self.log_path.unlink(missing_ok=True)


def _as_text(source: str | bytes | None) -> str:
    return source.decode("utf-8", "replace") if isinstance(source, bytes) else source or ""


def _json_line(payload: dict) -> str:
    return json.dumps(payload) + "\n"


class WorkerPool:
    """N warm Blender workers running jobs concurrently: `pool.run(script, options) -> RunReport`.

    Process-level settings (backend, sandbox, resource limits) come from the pool's options; per-job
    settings (engine, resolution, samples, timeout, render, empty_scene) from each run's options.
    """

    def __init__(
        self,
        size: int | None = None,
        options: RunOptions | None = None,
        *,
        recycle_after: int = 200,
        workdir: Path | None = None,
    ):
        self.size = max(1, size or os.cpu_count() or 1)
        self.options = options or RunOptions()
        self.backend = Backend.resolve(self.options.blender, self.options.python)
        self.recycle_after = recycle_after
        self.workdir = workdir
        self._idle: queue.LifoQueue[Worker] = queue.LifoQueue()
        self._slots = threading.Semaphore(self.size)
        self._lock = threading.Lock()
        self._started = 0
        self._closed = False
        self.workers_started = 0
        self._lint: Linter | None = None

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def warm(self) -> None:
        """Start all workers now (in parallel) instead of on first use."""
        with ThreadPoolExecutor(self.size) as ex:
            workers = list(ex.map(lambda _: self._new_worker(), range(self.size)))
        for worker in workers:
            self._idle.put(worker)

    def _new_worker(self) -> Worker:
        with self._lock:
            self.workers_started += 1
            index = self.workers_started
        worker = Worker(self.backend, self.options, self.workdir, index)
        worker.start()
        return worker

    def _acquire(self) -> Worker:
        try:
            worker = self._idle.get_nowait()
        except queue.Empty:
            return self._new_worker()
        if worker.alive:
            return worker
        worker.discard()
        return self._new_worker()

    def run(
        self,
        script: Path | None = None,
        options: RunOptions | None = None,
        *,
        source: str | None = None,
        render_to: Path | None = None,
        lint: bool = False,
    ) -> RunReport:
        """Run one script (a path, or source text) on a warm worker; blocks until its report is ready.

        lint=True first checks it with the pool's warm Linter and attaches the LintReport.
        """
        if self._closed:
            raise RuntimeError("WorkerPool is closed")
        if (script is None) == (source is None):
            raise ValueError("give exactly one of script or source")
        options = options or self.options
        text = script.read_bytes() if script is not None else source
        name = script.name if script is not None else "script.py"
        lint_report = self._linter().lint(_as_text(text)) if lint else None
        report = self._run_on_worker(text, name, script, options, render_to)
        report.lint = lint_report
        return report

    def _linter(self) -> Linter:
        with self._lock:
            if self._lint is None:
                from .lint import Linter

                self._lint = Linter()
            return self._lint

    def _run_on_worker(
        self, text: str | bytes | None, name: str, script: Path | None, options: RunOptions, render_to: Path | None
    ) -> RunReport:
        with self._slots:
            worker = self._acquire()
            job = Job.prepare(text, worker.root, options, name=name, origin=str(script) if script is not None else None)
            try:
                if job.rejected:
                    return job.rejected_report(self.backend.name, worker.sandbox)
                return worker.run(job, render_to)
            finally:
                job.cleanup()
                if worker.alive and worker.jobs_done < self.recycle_after:
                    self._idle.put(worker)
                else:
                    worker.discard()

    def map(
        self,
        scripts: Sequence[Path],
        options: RunOptions | None = None,
        *,
        render_dir: Path | None = None,
        on_done: Callable[[Path, RunReport], None] | None = None,
        lint: bool = False,
    ) -> list[RunReport]:
        """Run many scripts concurrently, in input order; renders go to render_dir/<stem>.png."""

        def one(script: Path) -> RunReport:
            render_to = render_dir / f"{script.stem}.png" if render_dir else None
            report = self.run(script, options, render_to=render_to, lint=lint)
            if on_done is not None:
                on_done(script, report)
            return report

        with ThreadPoolExecutor(self.size) as ex:
            return list(ex.map(one, scripts))

    def close(self) -> None:
        """Stop every worker (and the linter, when one was started)."""
        self._closed = True
        if self._lint is not None:
            self._lint.close()
        while True:
            try:
                self._idle.get_nowait().discard()
            except queue.Empty:
                break
