"""json_stdout: while a `--json` command runs, stdout carries only what the command itself prints (its JSON document).

Libraries the command uses may print on stdout from their own threads or below Python: Ray's driver prints the
errors the cluster pushes to it ("(raylet) …", e.g. workers slow to register under load) with print() from a
background thread, whatever log_to_driver says; a child process or native code may write to file descriptor 1.
Inside the guard, descriptor 1 points at stderr (children and native writes land there), and sys.stdout sends the
writes of the command's own thread to the real stdout and every other thread's to stderr. Nothing is lost: it is
all on stderr. Stdlib only (the CLI imports it before parsing).
"""

from __future__ import annotations

import io
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class _OwnThreadOnly(io.TextIOBase):
    """A sys.stdout that passes the owning thread's writes to `real` and everyone else's to `other`."""

    def __init__(self, real: TextIO, other: TextIO, owner: threading.Thread):
        self._real, self._other, self._owner = real, other, owner
        self._sealed = False

    def _target(self) -> TextIO:
        return self._real if not self._sealed and threading.current_thread() is self._owner else self._other

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        for stream in (self._real, self._other):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe: nothing more to say there
                pass

    def seal(self) -> None:
        """From now on every write goes to `other` (the command has returned)."""
        self.flush()
        self._sealed = True

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._real.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]  # typeshed has a plain attribute; this one reads the real stream's
        return getattr(self._real, "encoding", "utf-8")


@contextmanager
def json_stdout(enabled: bool = True) -> Iterator[None]:
    """Keep stdout for the calling thread's prints (the JSON document) while the block runs; see the module doc."""
    if not enabled:
        yield
        return
    real = sys.stdout
    try:
        fd = real.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (pytest's capsys, a StringIO): no descriptor to guard
        fd = None
    saved = None
    if fd == 1:
        real.flush()
        saved = os.dup(1)
        os.dup2(2, 1)  # children and native code: stderr
        real = open(saved, "w", encoding=sys.stdout.encoding, errors=sys.stdout.errors, closefd=False)  # noqa: SIM115
    guard = _OwnThreadOnly(real, sys.stderr, threading.current_thread())
    previous = sys.stdout
    sys.stdout = guard
    try:
        yield
    finally:
        guard.seal()
        if sys.stdout is guard:
            sys.stdout = previous
        if saved is not None:
            real.flush()
            os.dup2(saved, 1)
            os.close(saved)
