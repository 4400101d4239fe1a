"""Settings: the one configuration object, read from BPYWRIGHT_* environment variables (no globals)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value).expanduser() if value else None


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in {"0", "false", "no", "off"}


@dataclass(frozen=True)
class Settings:
    """Where bpywright keeps its data and which external services/binaries it uses."""

    artifacts: Path = Path("artifacts")
    blender: Path | None = None
    sandbox: bool = True
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = None
    clip_weights: Path | None = None
    embedder: str = "local"
    embed_model: str | None = None
    embed_base_url: str | None = None

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from BPYWRIGHT_* variables, with embedded defaults for everything."""
        return cls(
            artifacts=_env_path("BPYWRIGHT_ARTIFACTS") or Path("artifacts"),
            blender=_env_path("BPYWRIGHT_BLENDER"),
            sandbox=_env_bool("BPYWRIGHT_SANDBOX", True),
            workers=int(os.environ.get("BPYWRIGHT_WORKERS") or (os.cpu_count() or 1)),
            llm_base_url=os.environ.get("BPYWRIGHT_LLM_BASE_URL") or None,
            llm_model=os.environ.get("BPYWRIGHT_LLM_MODEL") or None,
            llm_api_key=os.environ.get("BPYWRIGHT_LLM_API_KEY") or None,
            clip_weights=_env_path("BPYWRIGHT_CLIP_WEIGHTS"),
            embedder=os.environ.get("BPYWRIGHT_EMBEDDER") or "local",
            embed_model=os.environ.get("BPYWRIGHT_EMBED_MODEL") or None,
            embed_base_url=os.environ.get("BPYWRIGHT_EMBED_BASE_URL") or None,
        )

    def index_for(self, version: str) -> Path:
        """The symbol index directory of one Blender version."""
        return self.index_dir / version

    @property
    def index_dir(self) -> Path:
        """Root of the per-version symbol indexes."""
        return self.artifacts / "index"
