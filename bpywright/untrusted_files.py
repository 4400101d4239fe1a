"""Files in a tree someone else controls (a pull request's checkout, a project to heal): read and write them safely.

Reading: regular files only (a FIFO or a device would block or never end), opened without blocking, never more than a
cap. Writing: never through a symbolic link, neither the file itself nor a folder on the way to it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class UntrustedFileError(ValueError):
    """A file that is not a regular file, is too big, or a path that passes through a symbolic link; the message says which."""


def _megabytes(size: int) -> str:
    return f"{size / (1 << 20):.1f} MB"


def regular_size(path: Path) -> int:
    """The size of a regular file (following a link), or UntrustedFileError naming what it is instead."""
    try:
        info = path.stat()
    except OSError as exc:
        raise UntrustedFileError(f"{path}: cannot be read ({exc.strerror})") from exc
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a FIFO"
            if stat.S_ISFIFO(info.st_mode)
            else "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "not a file"
        )
        raise UntrustedFileError(f"{path}: {kind}, not a regular file (refused: reading it could block or never end)")
    return info.st_size


def read_capped(path: Path, limit: int, *, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; UntrustedFileError for anything else (before reading it)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise UntrustedFileError(f"{path}: cannot be opened ({exc.strerror})") from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UntrustedFileError(f"{path}: not a regular file (a FIFO, a device or a socket): refused")
        if info.st_size > limit:
            raise UntrustedFileError(f"{path}: {_megabytes(info.st_size)}, over the {_megabytes(limit)} cap: refused")
        data = handle.read(limit + 1)
    if len(data) > limit:  # grew while read
        raise UntrustedFileError(f"{path}: over the {_megabytes(limit)} cap: refused")
    return data


def read_head(path: Path, limit: int) -> bytes:
    """The first `limit` bytes of a regular file (b'' for anything else): enough to tell what a file is without reading it all."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        return handle.read(limit) if stat.S_ISREG(os.fstat(fd).st_mode) else b""


def link_on_the_way(path: Path, trusted: Path | None = None) -> Path | None:
    """The first symbolic link among path and the folders above it (None: none); `trusted` and its ancestors are not asked.

    Lexical: `path` is made absolute without resolving anything, so what is checked is what will be opened.
    """
    absolute = Path(os.path.abspath(path))
    anchor = Path(os.path.abspath(trusted if trusted is not None else os.getcwd()))
    spared = {anchor, *anchor.parents}
    for here in reversed([absolute, *absolute.parents]):
        if here not in spared and here.is_symlink():
            return here
    return None


def refuse_links(path: Path, what: str, trusted: Path | None = None) -> Path:
    """path made absolute, or UntrustedFileError when it is, or passes through, a symbolic link (below `trusted`, the cwd)."""
    link = link_on_the_way(path, trusted)
    if link is not None:
        raise UntrustedFileError(
            f"{what} {path} passes through the symbolic link {link} -> {os.readlink(link)}: refused "
            "(a link in a checked-out tree could send output anywhere); remove the link or name a real folder"
        )
    return Path(os.path.abspath(path))


def links_inside(folder: Path, limit: int = 10_000) -> list[Path]:
    """Symbolic links anywhere below folder (not followed), at most `limit` entries looked at."""
    found: list[Path] = []
    seen = 0
    for here, dirs, files in os.walk(folder):
        for name in [*dirs, *files]:
            seen += 1
            if (Path(here) / name).is_symlink():
                found.append(Path(here) / name)
        if seen > limit:
            break
    return found


def write_nofollow(path: Path, data: bytes, what: str = "output", trusted: Path | None = None) -> Path:
    """Write data to path, creating its folders, never through a symbolic link (checked, then opened with O_NOFOLLOW)."""
    path = refuse_links(path, what, trusted)
    path.parent.mkdir(parents=True, exist_ok=True)
    refuse_links(path, what, trusted)  # a folder swapped for a link meanwhile
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        raise UntrustedFileError(f"{what} {path}: cannot be written ({exc.strerror})") from exc
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    return path
