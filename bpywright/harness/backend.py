"""Blender backends: the bpy wheel in a Python interpreter, or a `blender` executable."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ..starts import record

ENTRY = Path(__file__).with_name("blender") / "entry.py"
BackendName = Literal["bpy-module", "blender-exe"]


class BackendError(RuntimeError):
    """The Blender backend cannot be started (missing bpy, bad executable path)."""


@dataclass(frozen=True)
class Backend:
    """How to start Blender: an interpreter that can `import bpy`, or a Blender binary."""

    name: BackendName
    executable: Path

    @classmethod
    def resolve(cls, blender: Path | str | None = None, python: Path | str | None = None) -> Backend:
        """The blender-exe backend when a binary is given, else the bpy module in `python` (default: ours)."""
        if blender is not None:
            path = Path(blender).expanduser()
            if not path.is_file():
                raise BackendError(f"Blender executable not found: {path} (check --blender / BPYWRIGHT_BLENDER)")
            return cls("blender-exe", path.resolve())
        return cls("bpy-module", Path(python or sys.executable))

    def command(self, *entry_args: str) -> list[str]:
        """argv that runs the in-Blender entry with entry_args."""
        if self.name == "blender-exe":
            return [
                str(self.executable),
                "-b",
                "--factory-startup",
                "-noaudio",
                "--python-exit-code",
                "1",
                "--python",
                str(ENTRY),
                "--",
                *entry_args,
            ]
        return [str(self.executable), "-I", str(ENTRY), *entry_args]

    @property
    def sandbox_paths(self) -> tuple[Path, ...]:
        """Directories the sandbox must show read-only for this backend to start (and nothing else of the host)."""
        if self.name == "blender-exe":
            return (self.executable.resolve().parent,)
        return _python_prefixes(str(self.executable))

    def version(self) -> str:
        """The Blender version this backend runs (probed once per backend)."""
        return _probe_version(self.name, str(self.executable))


@functools.cache
def _python_prefixes(executable: str) -> tuple[Path, ...]:
    """The install trees an interpreter (a venv and the Python it was made from) needs to import bpy."""
    exe = Path(executable)
    found = {exe.parent.parent, exe.resolve().parent.parent}
    if exe == Path(sys.executable):
        found |= {Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix)}
    else:
        code = "import sys, json; print(json.dumps([sys.prefix, sys.base_prefix, sys.exec_prefix]))"
        try:
            proc = subprocess.run([executable, "-I", "-c", code], capture_output=True, text=True, timeout=60)
            found |= {Path(p) for p in json.loads(proc.stdout.strip().splitlines()[-1])}
        except (OSError, subprocess.TimeoutExpired, ValueError, IndexError):
            pass
    return tuple(sorted({p.resolve() for p in found}))


@functools.cache
def _probe_version(name: str, executable: str) -> str:
    if name == "blender-exe":
        cmd = [executable, "--version"]
    else:
        cmd = [executable, "-I", "-c", "import bpy, sys; sys.stdout.write('Blender ' + bpy.app.version_string)"]
    record("blender", executable)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BackendError(f"cannot start {executable}: {exc}") from exc
    match = re.search(r"Blender (\d+\.\d+(?:\.\d+)?(?: \w+)?)", proc.stdout)
    if proc.returncode != 0 or match is None:
        hint = "run `make setup` to install the bpy wheel" if name == "bpy-module" else "is it a Blender binary?"
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        raise BackendError(f"{executable} did not report a Blender version ({hint}): {tail[0]}")
    return match.group(1)
