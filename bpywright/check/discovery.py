"""Which scripts `bpywright check` runs: files named on the command line, and bpy scripts found in folders.

Rules: a file named on the command line is checked whatever it imports (unless the config excludes it).
In a folder, every *.py below it is a candidate; folders that are hidden (.git, .venv), virtual
environments (a pyvenv.cfg inside, or named venv/env/site-packages/node_modules) and __pycache__ are
skipped; a candidate must match the config's include globs (when there are any), must not match its
exclude globs, and must import bpy (or bmesh/mathutils/gpu): `import bpy` or `from bpy… import` at the
start of a line. The test is textual so that a script with a syntax error is still found (and fails).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .project_config import CheckConfig, glob_match

SKIPPED_DIRS = frozenset({"__pycache__", "venv", "env", "site-packages", "node_modules", "build", "dist"})
IMPORTS_BPY = re.compile(rb"^[ \t]*(?:import|from)[ \t]+(?:bpy|bmesh|mathutils|gpu)\b", re.M)


class DiscoveryError(ValueError):
    """A path that does not exist, or nothing to check; the message says which."""


@dataclass(frozen=True)
class Script:
    """A script to check and its stable name (posix path relative to the check's root)."""

    path: Path
    rel: str
    config_rel: str | None = None  # relative to the config file's folder: what its globs match


def imports_bpy(path: Path) -> bool:
    """True when the file imports a Blender module at the start of some line."""
    try:
        return IMPORTS_BPY.search(path.read_bytes()) is not None
    except OSError:
        return False


def _skip_dir(folder: Path) -> bool:
    return folder.name.startswith(".") or folder.name in SKIPPED_DIRS or (folder / "pyvenv.cfg").exists()


def _walk(folder: Path) -> list[Path]:
    found: list[Path] = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not _skip_dir(Path(here) / d))
        found.extend(Path(here) / f for f in sorted(files) if f.endswith(".py") and not f.startswith("."))
    return found


def check_root(paths: list[Path], config: CheckConfig) -> Path:
    """The folder script names are relative to: the config's folder, else the cwd when it holds them all, else their common folder."""
    resolved = [p.resolve() for p in paths]
    if config.root is not None and all(config.root == p or config.root in p.parents for p in resolved):
        return config.root
    cwd = Path.cwd().resolve()
    if all(cwd == p or cwd in p.parents for p in resolved):
        return cwd
    folders = [p if p.is_dir() else p.parent for p in resolved]
    return Path(os.path.commonpath(folders))


def _rel(path: Path, base: Path) -> str:
    return path.resolve().relative_to(base).as_posix()


def discover(paths: list[Path], config: CheckConfig) -> tuple[list[Script], Path]:
    """The scripts to check (sorted, each once) and the root their names are relative to."""
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise DiscoveryError(f"no such file or folder: {', '.join(missing)}")
    root = check_root(paths, config)
    glob_base = config.root or root
    chosen: dict[Path, Script] = {}
    for path in paths:
        named = path.is_file()
        for candidate in [path] if named else _walk(path):
            resolved = candidate.resolve()
            try:
                rel_glob = _rel(resolved, glob_base)
            except ValueError:  # outside the config's folder: its globs cannot name it
                rel_glob = None
            if rel_glob is not None and any(glob_match(p, rel_glob) for p in config.exclude):
                continue
            if not named:
                if config.include and (rel_glob is None or not any(glob_match(p, rel_glob) for p in config.include)):
                    continue
                if not imports_bpy(resolved):
                    continue
            chosen.setdefault(resolved, Script(resolved, _rel(resolved, root), rel_glob if config.root is not None else None))
    if not chosen:
        raise DiscoveryError(
            f"no bpy scripts found in {', '.join(map(str, paths))} (a folder's *.py files must `import bpy`; see include/exclude in the config)"
        )
    return sorted(chosen.values(), key=lambda s: s.rel), root
