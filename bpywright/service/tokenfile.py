"""The service token's private file, shared with the Blender add-on: created 0600 in a 0700 folder, read back only
when it is still private to this user. The add-on reads the same file with its own standard-library copy of the
reader (extension/secret.py), so the token never has to be typed into Blender's preferences."""

from __future__ import annotations

import importlib.util
import os
import secrets
import sys
from pathlib import Path

# extension/secret.py is standard library only, but its package's __init__ imports bpy: load the one file by path.
_SPEC = importlib.util.spec_from_file_location("bpywright._addon_secret", Path(__file__).parents[1] / "addon" / "extension" / "secret.py")
assert _SPEC is not None and _SPEC.loader is not None
_secret = sys.modules.setdefault(_SPEC.name, importlib.util.module_from_spec(_SPEC))
if not hasattr(_secret, "read_token"):
    _SPEC.loader.exec_module(_secret)
SecretError: type[Exception] = _secret.SecretError
default_path = _secret.default_path
read_token = _secret.read_token


def create_token(path: str = "") -> tuple[Path, bool]:
    """(the token file, whether it was created now): a fresh random token in a new 0600 file; an existing file is left
    as it is and checked (SecretError when it is not private)."""
    target = Path(os.path.expanduser(path.strip()) or default_path())
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        read_token(str(target))
        return target, False
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(secrets.token_urlsafe(32) + "\n")
    return target, True
