"""The Blenders a check runs on: the bpy wheel and/or executables (`--blender`, `--version-matrix`)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .models import BlenderTarget

WHEEL = "bpy"  # `--blender bpy` names the bpy wheel in the project's Python


class TargetError(ValueError):
    """A Blender that cannot be used; the message says which and how to fix it."""


def blenders_on_path() -> list[Path]:
    """Every executable named `blender` on PATH, each real file once, in PATH order."""
    seen: dict[Path, Path] = {}
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(folder or ".") / "blender"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            seen.setdefault(candidate.resolve(), candidate)
    return list(seen.values())


def _executable(spec: str) -> Path:
    path = Path(spec).expanduser()
    if path.is_file():
        return path
    found = shutil.which(spec) if os.sep not in spec else None
    if found is None:
        raise TargetError(f"Blender executable not found: {spec} (give a path to a `blender` binary, or `bpy` for the wheel)")
    return Path(found)


def probe(spec: str | Path | None) -> BlenderTarget:
    """Start the Blender once to learn its version (None or 'bpy' = the wheel)."""
    from ..harness.backend import Backend, BackendError

    executable = None if spec is None or str(spec) == WHEEL else _executable(str(spec))
    try:
        backend = Backend.resolve(executable)
        version = backend.version()
    except BackendError as exc:
        raise TargetError(str(exc)) from exc
    return BlenderTarget(
        label=f"blender-{version.split()[0]}", version=version, backend=backend.name, executable=str(executable) if executable else None
    )


def runtime_targets(versions: list[str], settings) -> list[BlenderTarget]:
    """Targets for registered runtimes by version ('all': every installed one); a version not installed raises TargetError."""
    from ..runtimes import RuntimeMissing, RuntimeRegistry, VersionError

    registry = RuntimeRegistry.for_settings(settings)
    try:
        runtimes = registry.installed() if "all" in versions else [registry.get(v) for v in versions]
    except (RuntimeMissing, VersionError) as exc:
        raise TargetError(str(exc)) from exc
    return [
        BlenderTarget(
            label=f"blender-{r.blender_version.split()[0]}",
            version=r.blender_version,
            backend="blender-exe" if r.kind == "executable" else "bpy-module",
            executable=str(r.blender) if r.blender else None,
            python=str(r.python) if r.kind == "wheel" else None,
        )
        for r in runtimes
    ]


def resolve_targets(blenders: list[str], version_matrix: bool, default: Path | None) -> tuple[list[BlenderTarget], list[str]]:
    """The targets (one per Blender version, first wins) and notes on duplicates left out.

    No --blender: the default (BPYWRIGHT_BLENDER, else the wheel). --version-matrix adds the wheel and
    every `blender` on PATH to the --blender list.
    """
    specs: list[str | Path | None] = list(blenders) or ([] if version_matrix else [default])
    if version_matrix:
        specs += [WHEEL, *blenders_on_path()]
    targets: list[BlenderTarget] = []
    notes: list[str] = []
    for spec in specs:
        target = probe(spec)
        same = next((t for t in targets if t.version == target.version), None)
        if same is not None:
            if (same.executable, target.executable) != (None, None) and same.executable != target.executable:
                notes.append(f"{spec or WHEEL} is Blender {target.version} like {same.executable or WHEEL}: run once")
            continue
        targets.append(target)
    return targets, notes
