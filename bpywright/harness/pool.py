"""WorkerPool: warm, sandboxed Blender zygotes; every job runs in a fresh forked child, so no state crosses jobs."""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from .backend import Backend
from .job import ScriptInput, script_input
from .options import RunOptions
from .report import RunReport
from .worker import Worker, remove_leftovers

if TYPE_CHECKING:
    from .lint import Linter


class WorkerPool:
    """N warm Blender workers running jobs concurrently: `pool.run(script, options) -> RunReport`.

    Process-level settings (backend, sandbox, resource limits) come from the pool's options; per-job
    settings (engine, resolution, samples, timeout, render, empty_scene, args) from each run's options.
    A script given by path sees its project root read-only (options.root, default: its git root or
    folder); workers are kept per root, since what a sandbox shows is fixed when it starts.
    """

    def __init__(
        self,
        size: int | None = None,
        options: RunOptions | None = None,
        *,
        recycle_after: int = 500,
        workdir: Path | None = None,
    ):
        self.size = max(1, size or os.cpu_count() or 1)
        self.options = options or RunOptions()
        self.backend = Backend.resolve(self.options.blender, self.options.python)
        self.recycle_after = recycle_after
        self.workdir = workdir
        self._idle: list[Worker] = []
        self._slots = threading.Semaphore(self.size)
        self._lock = threading.Lock()
        self._closed = False
        self.workers_started = 0
        remove_leftovers(workdir)

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def warm(self) -> None:
        """Start all workers now (in parallel) instead of on first use."""
        with ThreadPoolExecutor(self.size) as ex:
            workers = list(ex.map(lambda _: self._new_worker(None), range(self.size)))
        with self._lock:
            self._idle.extend(workers)

    def _new_worker(self, root: Path | None) -> Worker:
        with self._lock:
            self.workers_started += 1
            index = self.workers_started
        worker = Worker(self.backend, self.options, root, index, self.workdir)
        try:
            worker.start()
        except BaseException:
            worker.discard()
            raise
        return worker

    def _acquire(self, root: Path | None) -> Worker:
        """An idle live worker showing `root`, else a new one (retiring an idle one of another root beyond size)."""
        retire: list[Worker] = []
        found = None
        with self._lock:
            for worker in list(self._idle):
                if not worker.alive:
                    self._idle.remove(worker)
                    retire.append(worker)
                elif found is None and worker.root == root:
                    self._idle.remove(worker)
                    found = worker
            if found is None and len(self._idle) >= self.size:
                retire.append(self._idle.pop(0))
        for worker in retire:
            worker.discard()
        return found or self._new_worker(root)

    def run(
        self,
        script: Path | None = None,
        options: RunOptions | None = None,
        *,
        source: str | bytes | None = None,
        as_file: Path | None = None,
        render_to: Path | None = None,
        outputs_to: Path | None = None,
        linter: Linter | None = None,
        inputs: Mapping[str, bytes] | None = None,
    ) -> RunReport:
        """Run one script (a path, or source text) on a warm worker; blocks until its report is ready.

        as_file: run `source` as if it were that file of its project (a healed version of it, say).
        outputs_to: the files the script wrote in its working directory are copied there.
        inputs: files (plain name → content) placed in its working directory before it runs.
        linter: the caller's Linter, built for the target version; its LintReport is attached to the report.
        """
        if self._closed:
            raise RuntimeError("WorkerPool is closed")
        options = options or self.options
        given = script_input(script, source, as_file, options)
        if inputs:
            given = dataclasses.replace(given, inputs=tuple(inputs.items()))
        text = given.text
        lint_report = linter.lint(text.decode("utf-8", "replace") if isinstance(text, bytes) else text) if linter else None
        report = self._run_on_worker(given, options, render_to, outputs_to)
        report.lint = lint_report
        return report

    def _run_on_worker(self, given: ScriptInput, options: RunOptions, render_to: Path | None, outputs_to: Path | None) -> RunReport:
        with self._slots:
            worker = self._acquire(given.root)
            try:
                return worker.run_script(given, options, render_to, outputs_to)
            finally:
                if worker.alive and worker.jobs_done < self.recycle_after and not self._closed:
                    with self._lock:
                        self._idle.append(worker)
                else:
                    worker.discard()

    def map(
        self,
        scripts: Sequence[Path],
        options: RunOptions | None = None,
        *,
        render_dir: Path | None = None,
        on_done: Callable[[Path, RunReport], None] | None = None,
        linter: Linter | None = None,
    ) -> list[RunReport]:
        """Run many scripts concurrently, in input order; renders go to render_dir/<stem>.png."""

        def one(script: Path) -> RunReport:
            render_to = render_dir / f"{script.stem}.png" if render_dir else None
            report = self.run(script, options, render_to=render_to, linter=linter)
            if on_done is not None:
                on_done(script, report)
            return report

        with ThreadPoolExecutor(self.size) as ex:
            return list(ex.map(one, scripts))

    def close(self) -> None:
        """Stop every worker."""
        self._closed = True
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.discard()
