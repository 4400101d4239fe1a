"""Content-addressed files (renders, thumbnails): named by the sha256 of their bytes, written atomically."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from ..harness.sandbox import pid_alive


class ContentFiles:
    """A directory of files named `ab/abcdef….ext` after their sha256; writes are temp file + fsync + rename."""

    def __init__(self, root: Path):
        self.root = Path(root)

    def put(self, data: bytes, suffix: str) -> str:
        """Store bytes (a no-op when present) and return their path relative to the root."""
        digest = hashlib.sha256(data).hexdigest()
        relpath = f"{digest[:2]}/{digest}{suffix}"
        target = self.root / relpath
        if target.is_file():
            return relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        temp = target.with_name(f".{digest}.{os.getpid()}.{threading.get_ident()}.tmp")
        with temp.open("wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)  # readers see the whole file or none; a killed writer leaves only a .tmp
        return relpath

    def remove_orphans(self) -> int:
        """Delete temp files of writers that died mid-write (their pid is gone); returns how many."""
        removed = 0
        for temp in self.root.glob("??/.*.tmp"):
            parts = temp.name.split(".")
            pid = int(parts[2]) if len(parts) > 3 and parts[2].isdigit() else None
            if pid is not None and pid != os.getpid() and not pid_alive(pid):
                temp.unlink(missing_ok=True)
                removed += 1
        return removed

    def resolve(self, relpath: str) -> Path:
        """The absolute path of a stored file; ValueError for anything that is not under the root."""
        if not relpath or "\x00" in relpath or Path(relpath).is_absolute():
            raise ValueError(f"not a stored file path: {relpath!r}")
        root = self.root.resolve()
        path = (root / relpath).resolve()
        if path == root or not path.is_relative_to(root):
            raise ValueError(f"path escapes the exemplar files directory: {relpath!r}")
        return path
