"""The per-version tables the rules read (rna-X.Y.json, sockets-X.Y.json): which one a target uses, and probing a bpy for one."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from ..starts import record
from ..versions import version_key

DATA = Path(__file__).with_name("data")


def closest_table(kind: str, version: str) -> dict:
    """The committed `kind-X.Y.json` closest to a Blender version: the newest one not newer, else the oldest."""
    tables = sorted(DATA.glob(f"{kind}-*.json"), key=lambda p: version_key(p.stem.removeprefix(f"{kind}-")))
    fitting = [p for p in tables if version_key(p.stem.removeprefix(f"{kind}-")) <= version_key(version)]
    return json.loads((fitting or tables)[-1].read_text())


def probe_table(what: str, generator: str, out: Path, python: str, timeout: float) -> dict:
    """Run a probe in the bpy module of `python` (it writes the table to `out`); the table."""
    record("blender", python)
    proc = subprocess.run([python, "-I", "-c", generator, str(out)], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{what} probe failed: {proc.stderr.strip()[-500:]}")
    return json.loads(out.read_text())
