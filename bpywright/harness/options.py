"""RunOptions: how one script should be run (engine, resolution, limits, sandbox)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, Field

Engine = Literal["workbench", "cycles", "eevee"]
ENGINES: tuple[str, ...] = get_args(Engine)  # the render engines every front door offers (CLI choices, MCP, config)

# Operators' defaults for the sandbox limits: BPYWRIGHT_MEMORY_MB, _DISK_MB, _TMP_MB, _MAX_PROCESSES, _MAX_FILE_MB, _TIMEOUT.
LIMIT_ENV = {
    "memory_mb": "BPYWRIGHT_MEMORY_MB",
    "disk_mb": "BPYWRIGHT_DISK_MB",
    "tmp_mb": "BPYWRIGHT_TMP_MB",
    "max_processes": "BPYWRIGHT_MAX_PROCESSES",
    "max_file_mb": "BPYWRIGHT_MAX_FILE_MB",
    "timeout": "BPYWRIGHT_TIMEOUT",
}


def _env_default(field: str, default: float) -> float:
    """The operator's default for a limit (its BPYWRIGHT_* variable), else bpywright's; a bad value is bpywright's bug report."""
    raw = os.environ.get(LIMIT_ENV[field], "").strip()
    if not raw:
        return default
    try:
        return type(default)(float(raw)) if isinstance(default, int) else float(raw)
    except ValueError as exc:
        raise ValueError(f"{LIMIT_ENV[field]}={raw!r} is not a number") from exc


class RunOptions(BaseModel):
    """Per-run settings shared by the one-shot launcher and the worker pool."""

    render: bool = True
    engine: Engine = "workbench"
    resolution: int = Field(256, ge=16, le=4096)
    samples: int = Field(16, ge=1, le=4096)
    timeout: float = Field(default_factory=lambda: _env_default("timeout", 60.0), gt=0)
    sandbox: bool = True
    memory_mb: int = Field(
        default_factory=lambda: int(_env_default("memory_mb", 6144)),
        ge=512,
        description="Memory of a worker's processes together (memory cgroup where writable), and of each (address space).",
    )
    max_file_mb: int = Field(
        default_factory=lambda: int(_env_default("max_file_mb", 256)), ge=1, description="Largest file the script may write."
    )
    max_processes: int = Field(
        default_factory=lambda: int(_env_default("max_processes", 64)),
        ge=8,
        description="Process/thread cap of the sandbox (pids cgroup when available).",
    )
    disk_mb: int = Field(
        default_factory=lambda: int(_env_default("disk_mb", 1024)),
        ge=1,
        description="Disk quota: space one job's dir may use (its own tmpfs in the sandbox; deleted-but-open files count).",
    )
    tmp_mb: int = Field(
        default_factory=lambda: int(_env_default("tmp_mb", 256)),
        ge=1,
        description="Size of each of the sandbox's private /tmp and /dev/shm (RAM-backed).",
    )
    max_script_bytes: int = Field(1_000_000, ge=1, description="Largest script accepted (the service sets its request limit here).")
    empty_scene: bool = Field(False, description="Start from an empty scene instead of the factory startup scene.")
    blender: Path | None = Field(None, description="A Blender executable; None uses the bpy module.")
    root: Path | None = Field(
        None, description="Project root shown read-only to a script run by path (default: its git root, else its folder)."
    )
    args: list[str] = Field([], description="Arguments the script finds after '--' in sys.argv.")
    python: Path | None = Field(None, description="The interpreter whose bpy module runs scripts (a runtime's venv); None: ours.")
