"""Fixtures of the exemplar tests: real renders (rendered once per session), stores in tmp dirs, a tiny random CLIP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bpywright.exemplars.store import ExemplarStore
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.harness.report import RunReport
from bpywright.recipes import all_recipes

BLENDNET = Path(__file__).resolve().parents[3] / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
TINY_CLIP = "bpywright-tiny-test-clip"  # a small open_clip architecture, randomly initialised (real code, no weights)
TINY_CLIP_CONFIG = {
    "embed_dim": 32,
    "vision_cfg": {"image_size": 64, "layers": 2, "width": 64, "head_width": 32, "patch_size": 16},
    "text_cfg": {"context_length": 77, "vocab_size": 49408, "width": 64, "heads": 2, "layers": 2},
}
# A tiny change: every material 0.02 lighter (the scene and its framing stay the same).
NUDGE = "\nimport bpy as _b\nfor _m in _b.data.materials:\n    _m.diffuse_color = tuple(min(1.0, c + 0.02) for c in _m.diffuse_color[:3]) + (1.0,)\n"


@dataclass(frozen=True)
class Rendered:
    """A script, its prompt, its run report and its render."""

    prompt: str
    script: str
    report: RunReport
    render: Path


def recipe(name: str):
    """A bundled recipe by name."""
    return next(r for r in all_recipes() if r.name == name)


@pytest.fixture(scope="session")
def render_pool() -> Iterator[WorkerPool]:
    """One warm worker that renders small workbench images."""
    with WorkerPool(1, RunOptions(render=True, resolution=128, timeout=60)) as pool:
        yield pool


@pytest.fixture(scope="session")
def renders(render_pool: WorkerPool, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rendered]:
    """table, table_nudged (same scene, materials slightly lighter) and spiral (a different scene), rendered for real."""
    out = tmp_path_factory.mktemp("renders")
    table, spiral = recipe("wooden_table"), recipe("bezier_spiral")
    scenes = {
        "table": (table.prompt, table.source),
        "table_nudged": (table.prompt + " (lighter)", table.source + NUDGE),
        "spiral": (spiral.prompt, spiral.source),
    }
    found = {}
    for key, (prompt, script) in scenes.items():
        png = out / f"{key}.png"
        report = render_pool.run(source=script, render_to=png)
        assert report.ok and png.is_file(), report.exception
        found[key] = Rendered(prompt, script, report, png)
    return found


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ExemplarStore]:
    """An empty store in tmp_path, CLIP off."""
    with ExemplarStore(tmp_path / "db" / "exemplars.sqlite", tmp_path / "files") as s:
        yield s


def ok_report(status: str = "ok") -> RunReport:
    """A RunReport as a run without a render would produce (for tests about storage, not rendering)."""
    return RunReport(status=status, backend="bpy-module", sandbox="rlimits-only", blender_version="4.5.0")  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def tiny_clip_name(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Register the tiny architecture with open_clip (process-wide) and return its name."""
    from bpywright.exemplars.clip import _open_clip

    path = tmp_path_factory.mktemp("clip") / f"{TINY_CLIP}.json"
    path.write_text(json.dumps(TINY_CLIP_CONFIG), encoding="utf-8")
    _open_clip().add_model_config(path)
    return TINY_CLIP


@pytest.fixture(scope="session")
def tiny_clip(tiny_clip_name: str):
    """A randomly initialised tiny open_clip model as the store's ClipEncoder."""
    from bpywright.exemplars.clip import ClipEncoder

    return ClipEncoder.random(tiny_clip_name, seed=0)
