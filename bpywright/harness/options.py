"""RunOptions: how one script should be run (engine, resolution, limits, sandbox)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_args

from pydantic import BaseModel, Field

Engine = Literal["workbench", "cycles", "eevee"]
ENGINES: tuple[str, ...] = get_args(Engine)  # the render engines every front door offers (CLI choices, MCP, config)


class RunOptions(BaseModel):
    """Per-run settings shared by the one-shot launcher and the worker pool.

    The limits' defaults here are bpywright's own; the operator's (BPYWRIGHT_* or [tool.bpywright]) come from
    Settings, which every front door passes in: `RunOptions(**settings.run_limits(), ...)`. Nothing here reads
    the environment.
    """

    render: bool = True
    engine: Engine = "workbench"
    resolution: int = Field(256, ge=16, le=4096)
    samples: int = Field(16, ge=1, le=4096)
    timeout: float = Field(60.0, gt=0)
    sandbox: bool = True
    memory_mb: int = Field(
        6144,
        ge=512,
        description="Memory of a worker's processes together (memory cgroup where writable), and of each (address space).",
    )
    max_file_mb: int = Field(256, ge=1, description="Largest file the script may write.")
    max_processes: int = Field(
        64,
        ge=8,
        description="Process/thread cap of the sandbox (pids cgroup when available).",
    )
    disk_mb: int = Field(
        1024,
        ge=1,
        description="Disk quota: space one job's dir may use (its own tmpfs in the sandbox; deleted-but-open files count).",
    )
    tmp_mb: int = Field(
        256,
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
