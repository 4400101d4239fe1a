"""Which CPython a bpy wheel accepts, and where such a Python is on this machine (pyenv, PATH, ours)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# bpy wheels are built for exactly one CPython per Blender release (measured on the registry: 3.11 gets 4.2–5.0,
# 3.13 gets 5.1–5.2). A version not listed here is tried with every Python found, newest first.
WHEEL_PYTHON: dict[str, str] = {"4.2": "3.11", "4.3": "3.11", "4.4": "3.11", "4.5": "3.11", "5.0": "3.11", "5.1": "3.13", "5.2": "3.13"}
_NAME = re.compile(r"^python(3\.\d+)$")


def _minor_of(python: Path) -> str | None:
    """'3.13' of an interpreter, asked once (None when it does not start)."""
    try:
        proc = subprocess.run(
            [str(python), "-I", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = proc.stdout.strip()
    return out if proc.returncode == 0 and re.fullmatch(r"3\.\d+", out) else None


def _candidates() -> list[Path]:
    """Interpreters worth asking: pyenv's versions, python3.X on PATH, and ours."""
    found: list[Path] = []
    pyenv = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    if pyenv.is_dir():
        for version in sorted(pyenv.iterdir()):
            if re.fullmatch(r"3\.\d+\.\d+", version.name):
                found += sorted(p for p in (version / "bin").glob("python3.*") if _NAME.match(p.name))
    for minor in range(10, 20):
        which = shutil.which(f"python3.{minor}")
        if which:
            found.append(Path(which))
    found.append(Path(sys.executable))
    return found


def find_pythons() -> dict[str, Path]:
    """'3.X' → one interpreter of that version found here (the newest pyenv patch wins; venvs are skipped)."""
    pythons: dict[str, Path] = {}
    for path in _candidates():
        if "shims" in path.parts or path.parent != path.resolve().parent:
            # a pyenv shim (or a link to one) may refuse to start the version it is named after: ask it
            minor = _minor_of(path)
        else:
            named = _NAME.match(path.name)
            minor = named.group(1) if named else _minor_of(path)
        if minor is None or not path.is_file() or (minor in pythons and "shims" in path.parts):
            continue
        base = path.resolve()
        if (base.parent.parent / "pyvenv.cfg").is_file():  # a venv's python: use the real one it points at
            continue
        pythons[minor] = base
    return pythons


def pythons_for(version: str, found: dict[str, Path] | None = None, wanted: str | None = None) -> list[tuple[str, Path]]:
    """The interpreters to try for bpy==version, best first ([] when none of the right CPython is here)."""
    found = find_pythons() if found is None else found
    wanted = wanted or WHEEL_PYTHON.get(version)
    if wanted is not None:
        return [(wanted, found[wanted])] if wanted in found else []
    return sorted(found.items(), key=lambda kv: tuple(int(x) for x in kv[0].split(".")), reverse=True)
