"""JobQueue: a bounded queue of service jobs (generate, validate, heal) run on threads next to the worker pool."""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from ..graph.loop.events import ProgressEvent

JobKind = Literal["generate", "validate", "heal"]
JobState = Literal["queued", "running", "done", "failed"]
log = logging.getLogger(__name__)


class QueueFull(Exception):
    """Every worker is busy and the waiting line is full: the client should retry after `retry_after` seconds."""

    def __init__(self, waiting: int, retry_after: int):
        super().__init__(f"the job queue is full ({waiting} waiting): retry in {retry_after} s")
        self.waiting = waiting
        self.retry_after = retry_after


@dataclass
class Job:
    """One request's work: its state, the progress events it emitted, and its result (a pydantic model) when done."""

    id: str
    kind: JobKind
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    state: JobState = "queued"
    started_at: datetime | None = None
    finished_at: datetime | None = None
    result: BaseModel | None = None
    error: str | None = None
    render_path: Path | None = None  # a render this job produced, served at /api/v1/jobs/{id}/render
    events: list[ProgressEvent] = field(default_factory=list)
    _t0: float = field(default_factory=time.monotonic)
    _done: threading.Event = field(default_factory=threading.Event)

    @property
    def finished(self) -> bool:
        """True once the job is done or failed."""
        return self._done.is_set()

    def emit(self, node: str, status: str = "", detail: str = "", *, seconds: float = 0.0, attempt: int = 0) -> None:
        """Record a progress event made here (validate and heal jobs have no graph to emit them)."""
        elapsed = time.monotonic() - self._t0
        self.add(
            ProgressEvent(thread_id=self.id, node=node, status=status, detail=detail, seconds=seconds, elapsed_s=elapsed, attempt=attempt)
        )

    def add(self, event: ProgressEvent) -> None:
        """Record a progress event (called from the job's thread; list appends are atomic)."""
        self.events.append(event)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the job finishes; False on timeout."""
        return self._done.wait(timeout)


Work = Callable[[Job], BaseModel]


class JobQueue:
    """Runs at most `concurrency` jobs at once, keeps at most `waiting` more in line, and refuses the rest (QueueFull)."""

    def __init__(self, concurrency: int, waiting: int, *, keep: int = 1000, scratch: Path | None = None):
        self.concurrency = max(1, concurrency)
        self.scratch = scratch  # renders under it belong to their job: deleted when the job is forgotten
        self.waiting = max(0, waiting)
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._active = 0  # queued + running
        self._running = 0
        self._durations: deque[float] = deque(maxlen=20)
        self._executor = ThreadPoolExecutor(self.concurrency, thread_name_prefix="bpywright-job")
        self._closed = False

    @property
    def running(self) -> int:
        """Jobs running now."""
        return self._running

    @property
    def depth(self) -> int:
        """Jobs waiting for a free slot."""
        return self._active - self._running

    def retry_after(self) -> int:
        """Seconds a refused client should wait: the recent mean job time × the line ahead of it per slot (1–120)."""
        mean = sum(self._durations) / len(self._durations) if self._durations else 5.0
        return max(1, min(120, math.ceil(mean * max(1, self.depth) / self.concurrency)))

    def submit(self, kind: JobKind, work: Work) -> Job:
        """Queue work(job) and return the job at once; raise QueueFull when the line is full."""
        with self._lock:
            if self._closed:
                raise QueueFull(self.depth, 30)
            if self._active >= self.concurrency + self.waiting:
                raise QueueFull(self.depth, self.retry_after())
            self._active += 1
            job = Job(id=uuid.uuid4().hex[:16], kind=kind)
            self._jobs[job.id] = job
            self._forget_old()
        self._executor.submit(self._run, job, work)
        return job

    def get(self, job_id: str) -> Job | None:
        """A job by id (finished jobs are kept until `keep` newer ones push them out)."""
        return self._jobs.get(job_id)

    def _forget_old(self) -> None:
        excess = len(self._jobs) - self.keep
        for job_id in [j.id for j in self._jobs.values() if j.finished][: max(0, excess)]:
            job = self._jobs.pop(job_id)
            if job.render_path is not None and self.scratch is not None and job.render_path.is_relative_to(self.scratch):
                job.render_path.unlink(missing_ok=True)

    def _run(self, job: Job, work: Work) -> None:
        with self._lock:
            self._running += 1
        job.state, job.started_at = "running", datetime.now(UTC)
        start = time.monotonic()
        try:
            job.result = work(job)
            job.state = "done"
        except Exception as exc:  # a bug in bpywright, not in the user's script (those are reports): keep serving
            log.exception("job %s (%s) failed", job.id, job.kind)
            job.error, job.state = f"{type(exc).__name__}: {exc}", "failed"
        finally:
            job.finished_at = datetime.now(UTC)
            with self._lock:
                self._running -= 1
                self._active -= 1
                self._durations.append(time.monotonic() - start)
            job._done.set()

    def close(self) -> None:
        """Refuse new jobs and drop the ones still waiting (running ones finish on their own)."""
        with self._lock:
            self._closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)
