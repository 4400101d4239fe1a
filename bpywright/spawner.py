"""One long-lived thread that starts every child process that must die with bpywright (sandboxed workers, the local LLM server).

bubblewrap's `--die-with-parent` (PR_SET_PDEATHSIG) fires when the *thread* that forked bwrap exits, not the
process. A worker started from a short-lived thread (a ThreadPoolExecutor in `warm()` or `map()`, a web server's
request thread, a Ray actor's task thread) was SIGKILLed as soon as that thread ended: the warm pool silently paid a
restart, and a job sent before the kill landed came back as a `crash`. Starting every worker from this one thread,
which lives as long as the process, keeps die-with-parent meaning "dies with bpywright".
"""

from __future__ import annotations

import os
import queue
import shutil
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_state: dict[str, object] = {}  # "pid" → the process that owns the thread, "queue" → its work queue


def _serve(work: queue.SimpleQueue) -> None:
    while True:
        fn, future = work.get()
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(fn())
            except BaseException as exc:  # handed to the caller, who re-raises it
                future.set_exception(exc)


def _queue() -> queue.SimpleQueue:
    """This process's spawner queue, (re)starting the thread after a fork (a forked child has no threads)."""
    with _lock:
        if _state.get("pid") != os.getpid():
            work: queue.SimpleQueue = queue.SimpleQueue()
            threading.Thread(target=_serve, args=(work,), name="bpywright-spawner", daemon=True).start()
            _state.update(pid=os.getpid(), queue=work)
        return _state["queue"]  # type: ignore[return-value]


def dying_with_parent(argv: Sequence[str]) -> tuple[list[str], Callable[[], None] | None]:
    """(argv, preexec_fn) for a child SIGKILLed when the thread that started it ends (PR_SET_PDEATHSIG, Linux); start
    it with on_spawner_thread, so that this means "when bpywright ends".

    Where util-linux's setpriv is installed, argv runs under `setpriv --pdeathsig KILL` and preexec_fn is None: no Python
    runs between fork and exec, which in a process with other threads can deadlock the child before it ever execs
    (Python's subprocess documentation warns of this for preexec_fn). Elsewhere: die_with_parent.
    """
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return list(argv), die_with_parent
    return [setpriv, "--pdeathsig", "KILL", "--", *argv], None


def die_with_parent() -> None:
    """In a child before exec (preexec_fn): SIGKILL when the thread that started it ends (PR_SET_PDEATHSIG, Linux).

    Start such a child with on_spawner_thread, so that this means "when bpywright ends". dying_with_parent does the
    same without Python code in the child where it can.
    """
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def on_spawner_thread(fn: Callable[[], T]) -> T:
    """Run fn (which starts a process) on the process-lifetime spawner thread and return its result."""
    if threading.current_thread().name == "bpywright-spawner" and _state.get("pid") == os.getpid():
        return fn()
    future: Future[T] = Future()
    _queue().put((fn, future))
    return future.result()
