"""The service token, read from a private file: never from Blender's preferences, which are saved in userpref.blend
(readable by whoever can read the user's config folder, and copied along with it).

`bpywright addon token` creates the file (mode 0600 in a 0700 folder); `bpywright serve` reads the same file when
BPYWRIGHT_API_TOKEN is not set. Before reading, the add-on checks that the file is a regular file (not a link), owned
by this user, and readable by nobody else. Standard library only (no bpy).
"""

from __future__ import annotations

import os
import stat

MAX_BYTES = 4096
MAKE_ONE = "create it with `bpywright addon token` and restart `bpywright serve`"


class SecretError(Exception):
    """The token file is missing, or is not private to this user; the message says what to do."""


def default_path() -> str:
    """Where the token lives: $XDG_CONFIG_HOME/bpywright/token (~/.config/bpywright/token), %APPDATA% on Windows."""
    if os.name == "nt":
        base = os.environ.get("APPDATA") or os.path.expanduser("~")
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "bpywright", "token")


def read_token(path: str = "") -> str:
    """The token in `path` (default_path() when empty), or SecretError when it is missing, a link, someone else's, or
    readable or writable by group or others."""
    path = os.path.expanduser(path.strip()) or default_path()
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise SecretError(f"no token file at {path}: {MAKE_ONE}") from None
    except OSError as exc:
        raise SecretError(f"cannot open the token file {path} ({exc.strerror or exc}; a symbolic link is refused): {MAKE_ONE}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SecretError(f"the token file {path} is not a regular file")
        if hasattr(os, "getuid"):
            if info.st_uid != os.getuid():
                raise SecretError(f"the token file {path} belongs to uid {info.st_uid}, not to you: remove it and {MAKE_ONE}")
            if info.st_mode & 0o077:
                raise SecretError(
                    f"the token file {path} is readable or writable by others (mode {stat.S_IMODE(info.st_mode):o}): "
                    f"`chmod 600 {path}`, and replace the token if others may have read it"
                )
        raw = os.read(fd, MAX_BYTES + 1)
    finally:
        os.close(fd)
    token = raw.decode("utf-8", "replace").strip()
    if len(raw) > MAX_BYTES or not token or any(c.isspace() for c in token):
        raise SecretError(f"the token file {path} does not hold one token (one line, no spaces, under {MAX_BYTES} bytes)")
    return token
