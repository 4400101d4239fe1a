"""The project's check settings: `[tool.bpywright]` in pyproject.toml or a bpywright.toml, found from the scripts upward."""

from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveFloat, ValidationError

from ..harness.options import Engine
from ..untrusted_files import UntrustedFileError, read_capped

MAX_CONFIG_BYTES = 1 << 20  # a config file is a few lines; a link to /dev/zero or a huge file is refused, not read


class ConfigError(ValueError):
    """The config file cannot be read or holds settings we do not know; the message names the file and key."""


class CheckConfig(BaseModel):
    """Settings for `bpywright check`; globs are relative to the config file's folder (`**` crosses folders)."""

    model_config = ConfigDict(extra="forbid")

    include: list[str] = Field([], description="Only scripts matching one of these (default: every *.py that imports bpy).")
    exclude: list[str] = Field([], description="Never these scripts (also applies to files named on the command line).")
    timeout: float | None = Field(None, gt=0, description="Seconds per script (default 60).")
    timeouts: dict[str, PositiveFloat] = Field({}, description="Per-script seconds: glob → seconds (first match wins).")
    args: dict[str, list[str]] = Field({}, description="Per-script arguments (what the script finds after '--'): glob → list.")
    engine: Engine | None = None
    resolution: int | None = Field(None, ge=16, le=4096)
    expected_failures: list[str] = Field([], description="Globs of scripts known to fail: they pass as xfail.")
    fail_on: Literal["blocking", "advisory", "never"] | None = None
    hash_threshold: int | None = Field(None, ge=0, le=64, description="Perceptual-hash distance above which a render moved.")
    blender_versions: list[str] = Field([], description="Runtimes to check on (X.Y of `bpywright blender list`, or 'all').")
    blender_version: str | None = Field(None, description="The project's default target version (every command's default).")
    # The operator's sandbox limits (every command reads them through Settings; BPYWRIGHT_* variables win).
    memory_mb: int | None = Field(None, ge=512, description="Memory of a worker's processes together, in MB.")
    disk_mb: int | None = Field(None, ge=1, description="Space one job's dir may use, in MB.")
    tmp_mb: int | None = Field(None, ge=1, description="Size of each of the sandbox's /tmp and /dev/shm, in MB.")
    max_processes: int | None = Field(None, ge=8, description="Processes and threads of one sandbox.")
    max_file_mb: int | None = Field(None, ge=1, description="Largest file a script may write, in MB.")
    path: Path | None = Field(None, exclude=True, description="The file these settings came from.")

    @property
    def root(self) -> Path | None:
        """The folder globs are relative to."""
        return self.path.parent if self.path is not None else None

    def timeout_for(self, rel: str) -> float | None:
        """The per-script timeout of the first glob that matches rel."""
        return next((seconds for pattern, seconds in self.timeouts.items() if glob_match(pattern, rel)), None)

    def args_for(self, rel: str) -> list[str]:
        """The script arguments of the first glob that matches rel."""
        return next((list(argv) for pattern, argv in self.args.items() if glob_match(pattern, rel)), [])

    def is_expected_failure(self, rel: str) -> bool:
        """True when rel is on the expected-failure list."""
        return any(glob_match(p, rel) for p in self.expected_failures)


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


def glob_match(pattern: str, rel: str) -> bool:
    """Match a posix relative path; a pattern without '/' matches the file name at any depth, one ending in '/' a folder."""
    pattern = pattern.removeprefix("./")
    if pattern.endswith("/"):  # a folder: everything below it
        pattern += "**"
    if "/" not in pattern:
        return bool(_glob_regex(pattern).match(rel.rsplit("/", 1)[-1]))
    return bool(_glob_regex(pattern).match(rel))


def _table(path: Path) -> dict | None:
    """The check table of a config file, or None when a pyproject.toml has no [tool.bpywright]."""
    try:
        data = tomllib.loads(read_capped(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except UntrustedFileError as exc:
        raise ConfigError(str(exc)) from exc
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    if path.name == "pyproject.toml":
        return data.get("tool", {}).get("bpywright")
    return data.get("tool", {}).get("bpywright", data)


def load_config(path: Path) -> CheckConfig:
    """Read and validate one config file (keys may use '-' or '_')."""
    table = _table(path) or {}
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.bpywright] must be a table")
    normalised = {key.replace("-", "_"): value for key, value in table.items()}
    try:
        config = CheckConfig.model_validate(normalised)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])).replace('_', '-')}: {e['msg']}" for e in exc.errors())
        raise ConfigError(f"{path}: bad [tool.bpywright] setting: {problems}") from exc
    return config.model_copy(update={"path": path.resolve()})


def _stop_dir(start: Path) -> Path | None:
    """Where the upward search ends: the git root, else the working directory when start is inside it."""
    for folder in (start, *start.parents):
        if (folder / ".git").exists():
            return folder
    cwd = Path.cwd().resolve()
    return cwd if start == cwd or cwd in start.parents else None


def find_config(first: Path) -> Path | None:
    """The nearest bpywright.toml, or pyproject.toml with [tool.bpywright], from first's folder up to the git root / cwd."""
    start = first.resolve()
    start = start if start.is_dir() else start.parent
    stop = _stop_dir(start)
    for folder in (start, *start.parents):
        candidate = folder / "bpywright.toml"
        if candidate.is_file():
            return candidate
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _table(candidate) is not None:
            return candidate
        if folder == stop:
            break
    return None
