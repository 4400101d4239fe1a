"""The committed per-version tables the rules read (rna-X.Y.json, sockets-X.Y.json) and which one a target uses."""

from __future__ import annotations

import json
from pathlib import Path

from ..versions import version_key

DATA = Path(__file__).with_name("data")


def closest_table(kind: str, version: str) -> dict:
    """The committed `kind-X.Y.json` closest to a Blender version: the newest one not newer, else the oldest."""
    tables = sorted(DATA.glob(f"{kind}-*.json"), key=lambda p: version_key(p.stem.removeprefix(f"{kind}-")))
    fitting = [p for p in tables if version_key(p.stem.removeprefix(f"{kind}-")) <= version_key(version)]
    return json.loads((fitting or tables)[-1].read_text())
