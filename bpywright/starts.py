"""A record of the heavy processes a run starts: Blender (workers, jobs, version probes), a local model server, Ray.

Where BPYWRIGHT_RECORD_STARTS names a file, each start (and each Blender job) appends one line to it:
`KIND<TAB>PID<TAB>DETAIL`, where KIND is `blender`, `model` or `ray` and DETAIL is what started (a Blender's
interpreter or executable). Child processes inherit the variable, so a CLI run in a subprocess is recorded too. The
test suite sets it to check that every test starting one of these carries its tier's mark (tests/conftest.py).
Unset, nothing is written.
"""

from __future__ import annotations

import os

RECORD_ENV = "BPYWRIGHT_RECORD_STARTS"


def record(kind: str, detail: str = "") -> None:
    """Append `kind` (and what started) to the file BPYWRIGHT_RECORD_STARTS names; nothing when it is unset."""
    path = os.environ.get(RECORD_ENV)
    if not path:
        return
    line = f"{kind}\t{os.getpid()}\t{detail}".replace("\n", " ") + "\n"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    except OSError:
        return
    try:
        os.write(fd, line.encode("utf-8", "replace"))  # one short write with O_APPEND: lines from many processes never mix
    finally:
        os.close(fd)
