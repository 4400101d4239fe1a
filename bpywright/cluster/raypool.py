"""RayPool: the WorkerPool interface over Ray actors, each one warm sandboxed Blender worker on some node of the cluster."""

from __future__ import annotations

import queue
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..harness.backend import Backend, BackendError
from ..harness.options import RunOptions
from ..harness.report import ExceptionInfo, RunReport
from ..starts import record
from .actor import ACTOR_NAMESPACE, BlenderActor
from .connect import connect, disconnect, import_ray
from .renders import RenderRejected, check_png, default_render_path, write_render
from .spec import ClusterError, ClusterSpec

if TYPE_CHECKING:
    from ..harness.lint import Linter

ATTEMPTS = 2  # a job whose actor is lost is retried once, on another actor
HANG_MARGIN = 300.0  # seconds past a job's own timeout before a silent actor counts as lost (worker start + reset fit in it)
WAIT_FOR_ACTOR = 300.0  # seconds a job may wait while no actor is alive at all (the cluster lost its CPUs) before it is a crash


@dataclass
class _Job:
    """One script on its way through the pool: resolved exactly once, through `future`."""

    source: bytes
    origin: str | None
    options: RunOptions
    render_to: Path | None
    future: Future = field(default_factory=Future)
    failures: list[str] = field(default_factory=list)
    queued: float = field(default_factory=time.monotonic)


@dataclass
class _Actor:
    """A Ray actor handle and what it is doing: starting (ready_ref), idle, or running `job` (job_ref)."""

    handle: Any
    ready_ref: Any = None
    info: dict = field(default_factory=dict)
    job: _Job | None = None
    job_ref: Any = None  # the run, then (after a `crash` answer) the check that the actor itself survived it
    held: RunReport | None = None  # a `crash` answer waiting for that check
    started: float = 0.0

    def where(self) -> str:
        node = str(self.info.get("node_id", "?"))[:8]
        return f"node {node} pid {self.info.get('pid', '?')}"


def accept_answer(report_json: str, png: bytes | None, origin: str | None, render_to: Path | None) -> RunReport:
    """An actor's answer as this machine's RunReport: the caller's script path; the render written here only after checks.

    A node is trusted no more than a job: a report that fails validation raises (the attempt counts as lost), and a
    render that is not the PNG the report describes is dropped, with a note in stderr.
    """
    report = RunReport.model_validate_json(report_json)
    report.script_path = origin
    if report.render is not None:
        try:
            if png is None:
                raise RenderRejected("the actor sent no render")
            check_png(png, report.render.width, report.render.height)
            report.render.path = str(write_render(png, render_to or default_render_path()))
        except (RenderRejected, OSError) as exc:
            report.render = None
            report.stderr = (report.stderr + f"\n[bpywright] render dropped: {exc}").strip()
    return report


def _reason(exc: BaseException) -> str:
    """The line of a Ray error that says what happened (its last non-empty line names the cause)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    cause = next((line for line in reversed(lines) if "died" in line or "Error" in line), lines[-1] if lines else "")
    return f"{type(exc).__name__}: {cause[:300]}"


class RayPool:
    """N Ray actors, each one warm sandboxed Blender worker; `run`/`map`/context manager exactly like WorkerPool.

    One job per actor at a time (work in flight is bounded by the actors; callers beyond that wait), results come
    back as they complete with the same RunReport, renders come back as PNG bytes and are written here.
    A lost actor or node costs the job one retry on another actor; a second loss makes it a `crash` naming both.
    """

    def __init__(
        self,
        spec: ClusterSpec | None = None,
        size: int | None = None,
        options: RunOptions | None = None,
        *,
        at_most: int | None = None,
        recycle_after: int = 200,
        wait_for_actor: float = WAIT_FOR_ACTOR,
    ):
        self.options = options or RunOptions()
        self.backend = Backend.resolve(self.options.blender)
        record("ray", "RayPool")
        self.ray = import_ray()
        self._owns_connection = connect(spec) if spec is not None else False
        if not self.ray.is_initialized():
            raise ClusterError("RayPool needs a cluster: name one (--cluster auto | ray://HOST:PORT) or call ray.init() first")
        cpus = int(self.ray.cluster_resources().get("CPU", 0))
        wanted = size or cpus  # by default one actor per CPU of the cluster (an actor reserves one CPU)
        self.size = max(1, min(wanted, at_most) if at_most else wanted)
        self.recycle_after = recycle_after
        self.wait_for_actor = wait_for_actor
        self._remote = self.ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(BlenderActor)
        self._actors: list[_Actor] = []
        self._pending: deque[_Job] = deque()
        self._inbox: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._broken: str | None = None
        self._start_failures = 0
        self._ever_ready = False
        self.actors_started = 0
        self.actors_lost = 0
        for _ in range(self.size):
            self._start_actor()
        self._thread = threading.Thread(target=self._dispatch, name="bpywright-raypool", daemon=True)
        self._thread.start()

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- the caller's side -------------------------------------------------------------------------------------------

    def warm(self) -> None:
        """Wait until every actor has its Blender worker running (they start at construction)."""
        refs = [a.ready_ref for a in list(self._actors) if a.ready_ref is not None]
        if refs:
            self.ray.wait(refs, num_returns=len(refs))
        deadline = time.monotonic() + 30
        while any(a.ready_ref is not None for a in list(self._actors)) and time.monotonic() < deadline:
            time.sleep(0.05)  # the dispatcher marks them ready

    def run(
        self,
        script: Path | None = None,
        options: RunOptions | None = None,
        *,
        source: str | None = None,
        as_file: Path | None = None,
        render_to: Path | None = None,
        linter: Linter | None = None,
    ) -> RunReport:
        """Run one script (a path, or source text) on an actor; blocks until its report is ready.

        as_file is taken for the Pool interface and not used: a node has no project folder to run `source` in.
        """
        if (script is None) == (source is None):
            raise ValueError("give exactly one of script or source")
        text = script.read_bytes() if script is not None else (source or "").encode("utf-8")
        future = self._submit(text, str(script) if script is not None else None, options, render_to)
        lint_report = linter.lint(text.decode("utf-8", "replace")) if linter else None  # while the actor runs it
        report = future.result()
        report.lint = lint_report
        return report

    def map(
        self,
        scripts: Sequence[Path],
        options: RunOptions | None = None,
        *,
        render_dir: Path | None = None,
        on_done: Callable[[Path, RunReport], None] | None = None,
        linter: Linter | None = None,
    ) -> list[RunReport]:
        """Run many scripts, reports in input order; on_done fires as each completes. At most 2 jobs per actor are queued."""
        results: list[RunReport | None] = [None] * len(scripts)
        window = 2 * self.size
        todo = iter(enumerate(scripts))
        running: dict[Future, tuple[int, Future | None]] = {}
        with ThreadPoolExecutor(1, thread_name_prefix="bpywright-lint") as linting:
            while True:
                while len(running) < window and (item := next(todo, None)) is not None:
                    i, script = item
                    text = script.read_bytes()
                    render_to = render_dir / f"{script.stem}.png" if render_dir else None
                    lint_future = linting.submit(linter.lint, text.decode("utf-8", "replace")) if linter else None
                    running[self._submit(text, str(script), options, render_to)] = (i, lint_future)
                if not running:
                    break
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    i, lint_future = running.pop(future)
                    report = future.result()
                    report.lint = lint_future.result() if lint_future is not None else None
                    results[i] = report
                    if on_done is not None:
                        on_done(scripts[i], report)
        return [r for r in results if r is not None]

    def close(self) -> None:
        """Stop the actors (jobs not finished get RuntimeError) and disconnect when this pool connected."""
        if self._closed:
            return
        self._closed = True
        self._inbox.put(None)
        self._thread.join()
        if self._owns_connection:
            disconnect()

    def actor_info(self) -> list[dict]:
        """Where each live actor runs and what it is running (for status pages and tests)."""
        return [a.info | {"busy": a.job is not None, "origin": a.job.origin if a.job else None} for a in list(self._actors) if a.info]

    def _submit(self, text: bytes, origin: str | None, options: RunOptions | None, render_to: Path | None) -> Future:
        if self._closed:
            raise RuntimeError("RayPool is closed")
        record("blender", "RayPool")
        if self._broken is not None or not self._thread.is_alive():
            raise BackendError(self._broken or "the Ray pool stopped")
        job = _Job(text, origin, self._job_options(options), render_to)
        self._inbox.put(job)
        return job.future

    def _job_options(self, options: RunOptions | None) -> RunOptions:
        options = options or self.options
        if "root" in RunOptions.model_fields and getattr(options, "root", None) is not None:
            options = options.model_copy(update={"root": None})  # a path on this machine: the node has no such folder
        return options

    # ---- the dispatcher thread: the only code that touches actors and job state --------------------------------------

    def _start_actor(self) -> None:
        name = f"worker-{uuid.uuid4().hex[:12]}"
        handle = self._remote.options(name=name, namespace=ACTOR_NAMESPACE).remote(self.options.model_dump_json(), self.recycle_after)
        self._actors.append(_Actor(handle=handle, ready_ref=handle.ready.remote()))
        self.actors_started += 1

    def _dispatch(self) -> None:
        try:
            while True:
                busy = any(a.job_ref is not None or a.ready_ref is not None for a in self._actors)
                if not self._take_inbox(block=not busy, timeout=0.25 if self._pending else None):
                    break
                self._assign()
                refs = self._refs()
                if refs:
                    idle = any(a.ready_ref is None and a.job is None for a in self._actors)
                    ready, _ = self.ray.wait(refs, num_returns=1, timeout=0.01 if idle else 0.2)
                    if ready and len(refs) > 1:  # settle every finished one per pass: on a big cluster many finish at once
                        ready, _ = self.ray.wait(refs, num_returns=len(refs), timeout=0)
                    for ref in ready:
                        self._settle(ref)
                self._expire()
        except Exception as exc:  # the connection to the cluster broke (or a bpywright bug): fail loudly, never hang callers
            self._broken = f"the Ray pool stopped: {type(exc).__name__}: {exc}"
        finally:
            self._shutdown()

    def _take_inbox(self, block: bool, timeout: float | None) -> bool:
        """Move submitted jobs into the pending queue; False once close() was called."""
        try:
            item = self._inbox.get(timeout=timeout) if block else self._inbox.get_nowait()
        except queue.Empty:
            return True
        while True:
            if item is None:
                return False
            self._pending.append(item)
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return True

    def _refs(self) -> list:
        return [r for a in self._actors for r in (a.ready_ref, a.job_ref) if r is not None]

    def _assign(self) -> None:
        for actor in self._actors:
            if not self._pending:
                return
            if actor.ready_ref is None and actor.job is None:
                job = self._pending.popleft()
                actor.job, actor.started = job, time.monotonic()
                actor.job_ref = actor.handle.run.remote(job.source, job.options.model_dump_json())

    def _settle(self, ref) -> None:
        actor = next((a for a in self._actors if ref in (a.ready_ref, a.job_ref)), None)
        if actor is None:
            return
        if ref == actor.ready_ref:
            try:
                actor.info = self.ray.get(ref)
                actor.ready_ref, self._ever_ready = None, True
            except Exception as exc:  # the actor could not start Blender (or its node went away while it did)
                self._start_failures += 1
                self._lose(actor, _reason(exc), replace=self._ever_ready or self._start_failures < self.size)
                if not self._ever_ready and not any(a.ready_ref is not None for a in self._actors):
                    self._fail_all(f"no Ray actor could start a Blender worker: {_reason(exc)}")
            return
        job = actor.job
        assert job is not None
        try:
            if actor.held is not None:
                self.ray.get(ref)  # the actor answered after the crash: the script crashed its worker, not the node
                report, actor.held = actor.held, None
            else:
                report_json, png = self.ray.get(ref)
                report = accept_answer(report_json, png, job.origin, job.render_to)
                if report.status == "crash":
                    # A node going down kills the actor's Blender before the actor itself: that `crash` is the node's,
                    # and the job is retried — unless the actor is still alive, which makes it the script's.
                    actor.held, actor.job_ref = report, actor.handle.alive.remote()
                    return
        except Exception as exc:  # actor or node lost, or the actor's code raised: not the script's doing
            self._lose(actor, _reason(exc), replace=True)
            self._failed_attempt(job, f"{actor.where()}: {_reason(exc)}")
            return
        actor.job = actor.job_ref = None
        job.future.set_result(report)

    def _failed_attempt(self, job: _Job, reason: str) -> None:
        job.failures.append(reason)
        if len(job.failures) < ATTEMPTS:
            self._pending.appendleft(job)  # first in line for the next free actor: never a lost one
            return
        message = f"the Ray actor running the script was lost {len(job.failures)} times, so it is not retried: " + "; ".join(job.failures)
        job.future.set_result(self._crash(job, "WorkerLost", message))

    def _crash(self, job: _Job, kind: str, message: str) -> RunReport:
        sandbox = "bwrap" if self.options.sandbox else "rlimits-only"
        return RunReport(
            status="crash",
            backend=self.backend.name,
            exception=ExceptionInfo(type=kind, message=message),
            sandbox=sandbox,
            script_path=job.origin,
        )

    def _lose(self, actor: _Actor, reason: str, replace: bool) -> None:
        self._actors.remove(actor)
        self.actors_lost += 1
        try:
            self.ray.kill(actor.handle, no_restart=True)  # it may still be running (unreachable, not dead): its answer must never count
        except Exception:  # already gone
            pass
        if replace and not self._closed:
            self._start_actor()

    def _expire(self) -> None:
        """Hung actors count as lost; jobs waiting while no actor is alive at all end as a crash after wait_for_actor."""
        now = time.monotonic()
        for actor in list(self._actors):
            job = actor.job
            if job is not None and now - actor.started > job.options.timeout + HANG_MARGIN:
                self._lose(actor, "no answer", replace=True)
                self._failed_attempt(job, f"{actor.where()}: no answer within {job.options.timeout + HANG_MARGIN:g}s")
        if self._pending and not any(a.ready_ref is None for a in self._actors):
            while self._pending and now - self._pending[0].queued > self.wait_for_actor:
                job = self._pending.popleft()
                msg = f"no Ray actor was alive for {self.wait_for_actor:g}s (the cluster has no free CPU for one: `ray status`)"
                job.future.set_result(self._crash(job, "NoWorker", msg))

    def _fail_all(self, reason: str) -> None:
        self._broken = reason
        while self._pending:
            self._pending.popleft().future.set_exception(BackendError(reason))

    def _shutdown(self) -> None:
        """Close time: unfinished jobs get an error (RuntimeError, or BackendError when the pool broke); actors are killed."""
        while True:  # jobs still in the inbox (some may have come after close() put its sentinel)
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                self._pending.append(item)
        for job in [*self._pending, *(a.job for a in self._actors if a.job is not None)]:
            if not job.future.done():
                job.future.set_exception(
                    BackendError(self._broken) if self._broken else RuntimeError("RayPool closed before the job finished")
                )
        self._pending.clear()
        try:
            closing = [a.handle.close.remote() for a in self._actors if a.ready_ref is None and a.job is None]
            if closing:
                self.ray.wait(closing, num_returns=len(closing), timeout=10)
        except Exception:  # the cluster is gone: nothing left to close there
            pass
        for actor in self._actors:
            try:
                self.ray.kill(actor.handle, no_restart=True)
            except Exception:
                pass
        self._actors.clear()
