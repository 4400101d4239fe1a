"""Output capture: the script's stdout/stderr (Python and C level) go to files in its job dir, read back as tails."""

import os
import sys

from .libc import LIBC

TAIL_CHARS = 4000


class CapturedOutput:
    """Redirect fds 0/1/2 (Python and C level) to files in the job dir for the script's duration."""

    def __init__(self, job_dir, prefix=""):
        self.paths = {key: os.path.join(job_dir, prefix + key + ".txt") for key in ("stdout", "stderr")}
        self.saved = {}

    def __enter__(self):
        self._flush()
        for fd in (0, 1, 2):
            self.saved[fd] = os.dup(fd)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        for fd, key in ((1, "stdout"), (2, "stderr")):
            out = os.open(self.paths[key], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, fd)
            os.close(out)
        self.saved_streams = (sys.stdin, sys.stdout, sys.stderr)
        # line-buffered while the script runs, so a crash loses no printed line
        self.saved_buffering = [getattr(s, "line_buffering", False) for s in (sys.stdout, sys.stderr)]
        for stream in (sys.stdout, sys.stderr):
            _reconfigure(stream, True)
        return self

    def __exit__(self, *exc):
        self._flush()
        sys.stdin, sys.stdout, sys.stderr = self.saved_streams
        for stream, buffering in zip((sys.stdout, sys.stderr), self.saved_buffering):
            _reconfigure(stream, buffering)
        for fd, saved in self.saved.items():
            os.dup2(saved, fd)
            os.close(saved)
        return False

    @staticmethod
    def _flush():
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        LIBC.fflush(None)

    def tail(self, key):
        """The last TAIL_CHARS characters of a captured stream."""
        try:
            with open(self.paths[key], "rb") as fh:
                fh.seek(0, os.SEEK_END)
                size = fh.tell()
                fh.seek(max(0, size - TAIL_CHARS * 4))
                return fh.read().decode("utf-8", "replace")[-TAIL_CHARS:]
        except OSError:
            return ""

    def blender_errors(self, limit=50):
        """Blender's own 'Error:' report lines (operators print these instead of raising in some paths)."""
        found = []
        for key in ("stdout", "stderr"):
            try:
                with open(self.paths[key], "rb") as fh:
                    for raw in fh:
                        line = raw.decode("utf-8", "replace").rstrip()
                        if line.startswith("Error:") or ": Error:" in line or line.startswith("ERROR ("):
                            found.append(line[:500])
                            if len(found) >= limit:
                                return found
            except OSError:
                pass
        return found


def _reconfigure(stream, line_buffering):
    try:
        stream.reconfigure(line_buffering=line_buffering)
    except Exception:
        pass
