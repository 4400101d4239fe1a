"""Service calls on a worker thread, so Blender's UI never waits on the network; results are applied on the main thread.

A Task runs a function that only does I/O (no bpy) and keeps its progress lines; the main thread polls it (from a
bpy.app.timers callback) and, once it is done, hands its result or error to the `apply` callback, exactly once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from .client import ServiceError


class Task:
    """One service call in flight: its label, progress lines, and its result or error message once done."""

    def __init__(self, label: str, work: Callable[[Callable[[str], None]], Any], apply: Callable[[Any, str], None]) -> None:
        self.label = label
        self.progress: list[str] = []
        self.result: Any = None
        self.error = ""
        self._apply = apply
        self._done = threading.Event()
        self._applied = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, args=(work,), name=f"bpywright-{label}", daemon=True)

    def start(self) -> Task:
        """Start the worker thread."""
        self._thread.start()
        return self

    def _run(self, work: Callable[[Callable[[str], None]], Any]) -> None:
        try:
            self.result = work(self._note)
        except ServiceError as exc:
            self.error = str(exc)
        except Exception as exc:  # a bug in the add-on: shown, never raised into Blender's timer loop
            self.error = f"bpywright add-on error: {type(exc).__name__}: {exc}"
        finally:
            self._done.set()

    def _note(self, line: str) -> None:
        with self._lock:
            self.progress.append(line)

    @property
    def done(self) -> bool:
        """True once the worker has finished (its result or error is set)."""
        return self._done.is_set()

    @property
    def last(self) -> str:
        """The newest progress line."""
        with self._lock:
            return self.progress[-1] if self.progress else "starting"

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the worker finishes (scripts and tests; the UI polls instead)."""
        return self._done.wait(timeout)

    def apply_once(self) -> bool:
        """On the main thread: hand the outcome to `apply` the first time this is called after the work ended."""
        if not self.done or self._applied:
            return False
        self._applied = True
        self._apply(self.result, self.error)
        return True
