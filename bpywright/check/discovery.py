"""Which scripts `bpywright check` runs: files named on the command line, and bpy scripts found in folders.

Rules: a file named on the command line is checked whatever it imports (unless the config excludes it).
In a folder, every *.py below it is a candidate; folders that are hidden (.git, .venv), virtual
environments (a pyvenv.cfg inside, or named venv/env/site-packages/node_modules) and __pycache__ are
skipped; a candidate must match the config's include globs (when there are any), must not match its
exclude globs, and must import bpy (or bmesh/mathutils/gpu): `import bpy` or `from bpy… import` at the
start of a line. The test is textual so that a script with a syntax error is still found (and fails).

The tree may be a pull request's: a link to a file outside the folder searched is skipped (said on stderr), as is
anything that is not a regular file (a FIFO, a device: reading it would block or never end); a symlinked folder is
never entered. Only the first SCAN_BYTES of a candidate are read to tell whether it imports bpy, and a script over
MAX_SCRIPT_BYTES is a clear error naming it. A path named on the command line must not link out of the working
directory (or, outside it, out of its own folder).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ..harness.summary import escape_controls
from ..untrusted_files import UntrustedFileError, read_head, regular_size
from .project_config import CheckConfig, glob_match

SKIPPED_DIRS = frozenset({"__pycache__", "venv", "env", "site-packages", "node_modules", "build", "dist"})
IMPORTS_BPY = re.compile(rb"^[ \t]*(?:import|from)[ \t]+(?:bpy|bmesh|mathutils|gpu)\b", re.M)
SCAN_BYTES = 1 << 20  # read of a candidate to find its bpy import
MAX_SCRIPT_BYTES = 2 << 20  # a checked script (a scene script with its data inline stays far below)


class DiscoveryError(ValueError):
    """A path that does not exist, or nothing to check; the message says which."""


@dataclass(frozen=True)
class Script:
    """A script to check and its stable name (posix path relative to the check's root)."""

    path: Path
    rel: str
    config_rel: str | None = None  # relative to the config file's folder: what its globs match


def imports_bpy(path: Path) -> bool:
    """True when the file imports a Blender module at the start of a line in its first SCAN_BYTES (regular files only)."""
    return IMPORTS_BPY.search(read_head(path, SCAN_BYTES)) is not None


def _inside(path: Path, tree: Path) -> bool:
    real = Path(os.path.realpath(path))
    return real == tree or tree in real.parents


def _candidate(path: Path, tree: Path) -> str | None:
    """Why a file found in a folder is not a candidate (None: it is): a link out of the tree, or not a regular file."""
    if path.is_symlink() and not _inside(path, tree):
        return f"links out of {tree} (to {os.path.realpath(path)})"
    try:
        regular_size(path)
    except UntrustedFileError as exc:
        return str(exc).removeprefix(f"{path}: ")
    return None


def _skip_dir(folder: Path) -> bool:
    return folder.name.startswith(".") or folder.name in SKIPPED_DIRS or (folder / "pyvenv.cfg").exists()


def _walk(folder: Path) -> list[Path]:
    """The candidate *.py files below folder; symlinked folders are not entered (os.walk's default), skipped files said."""
    found: list[Path] = []
    tree = Path(os.path.realpath(folder))
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not _skip_dir(Path(here) / d))
        for name in sorted(files):
            if not name.endswith(".py") or name.startswith("."):
                continue
            path = Path(here) / name
            why = _candidate(path, tree)
            if why is None:
                found.append(path)
            else:
                print(escape_controls(f"note: skipped {path}: {why}"), file=sys.stderr)  # a file name may hold escapes
    return found


def _named_tree(path: Path) -> Path:
    """What a path named on the command line may link into: the working directory holding it, else its own folder."""
    cwd = Path(os.getcwd())
    absolute = Path(os.path.abspath(path))
    return Path(os.path.realpath(cwd if cwd in absolute.parents or cwd == absolute else absolute.parent))


def _refuse_named(path: Path) -> None:
    """DiscoveryError for a named path that links out of its tree, or a named file that is not a regular file."""
    tree = _named_tree(path)
    if not _inside(path, tree):
        raise DiscoveryError(f"{path} links out of {tree} (to {os.path.realpath(path)}): refused; name the real path")
    if not path.is_dir():
        try:
            regular_size(path)
        except UntrustedFileError as exc:
            raise DiscoveryError(str(exc)) from None


def _refuse_oversized(scripts: list[Script]) -> None:
    """DiscoveryError naming every script over MAX_SCRIPT_BYTES."""
    big = [(s.rel, regular_size(s.path)) for s in scripts]
    over = [f"{rel} ({size / (1 << 20):.1f} MB)" for rel, size in big if size > MAX_SCRIPT_BYTES]
    if over:
        raise DiscoveryError(
            f"over the {MAX_SCRIPT_BYTES >> 20} MB cap of a checked script: {', '.join(over)} "
            "(exclude it in the config, or keep data out of the script)"
        )


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
    for path in paths:
        _refuse_named(path)
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
    scripts = sorted(chosen.values(), key=lambda s: s.rel)
    _refuse_oversized(scripts)
    return scripts, root
