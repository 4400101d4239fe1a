"""The control pipe between the host and the in-Blender entry: JSON lines, read with deadlines."""

from __future__ import annotations

import json
import os
import select
import time


class ChannelClosed(Exception):
    """The Blender side closed the pipe (it exited or crashed)."""


class ControlChannel:
    """Read end of the pipe on which the entry announces 'ready', 'started' and 'done'."""

    def __init__(self, fd: int):
        self.fd = fd
        self._buffer = b""

    def receive(self, deadline: float) -> dict:
        """The next message; TimeoutError past the deadline (time.monotonic()), ChannelClosed on EOF."""
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                continue
            chunk = os.read(self.fd, 65536)
            if not chunk:
                raise ChannelClosed
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError:
            return {}

    def close(self) -> None:
        """Close the read end."""
        try:
            os.close(self.fd)
        except OSError:
            pass
