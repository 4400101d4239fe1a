"""Setting up a SQLite database that several connections may open at once: one at a time, and waited out when locked.

Two connections that set up a fresh database together (switch it to WAL, create or migrate its tables) can deadlock:
each must upgrade a lock the other holds, and SQLite answers "database is locked" at once rather than waiting out the
busy timeout. A service's concurrent requests (threads of one process) take turns under one lock; another process (a
CLI run beside the service) is waited out by retrying, for as long as the busy timeout would have waited.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable

_SETUP = threading.Lock()


def set_up(conn: sqlite3.Connection, step: Callable[[], None], *, wait: float = 30.0) -> None:
    """Run step (the set-up through conn) under the process's set-up lock, retried while another process locks it."""
    deadline = time.monotonic() + wait
    with _SETUP:
        while True:
            try:
                step()
                return
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or time.monotonic() > deadline:
                    raise
                if conn.in_transaction:
                    conn.rollback()
                time.sleep(0.05)
