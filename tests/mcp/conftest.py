"""MCP fixtures: a data dir with a small symbol index and a seeded exemplar store, a live service on loopback, the stdio command."""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bpywright.config import Settings
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.ingest.index import build_index
from bpywright.ingest.symbols import Symbol, write_symbols
from bpywright.recipes import all_recipes

from ..service.conftest import LiveServer  # one real uvicorn-on-loopback helper for both suites

SEED_RECIPES = ("low_poly_pine", "checker_plane")
SEED_PX = 64
MAX_BYTES = 100_000
DOCS = "https://docs.blender.org/api/4.5/"
SYMBOLS = [
    ("bpy.ops.mesh.primitive_cube_add", "operator", "Construct a cube mesh", "(size=2.0, location=(0.0, 0.0, 0.0))"),
    (
        "bpy.ops.mesh.primitive_uv_sphere_add",
        "operator",
        "Construct a UV sphere mesh",
        "(segments=32, ring_count=16, radius=1.0, location=(0.0, 0.0, 0.0))",
    ),
    ("bpy.ops.mesh.primitive_monkey_add", "operator", "Construct a Suzanne mesh", "(size=2.0, location=(0.0, 0.0, 0.0))"),
    ("bpy.types.BevelModifier", "struct", "Bevel modifier to make edges and vertices more rounded", None),
    ("bpy.types.BevelModifier.width", "property", "Bevel amount", "float"),
    ("bpy.types.BevelModifier.segments", "property", "Number of segments for round edges/verts", "int"),
    ("bpy.types.Light.type", "property", "Type of light", "enum"),
    ("bpy.types.Object.location", "property", "Location of the object", "float array of 3 items"),
]


def _symbols() -> list[Symbol]:
    out = []
    for name, kind, description, detail in SYMBOLS:
        extra = {"signature": detail} if kind == "operator" else {"type": detail} if detail else {}
        parent = None if kind == "struct" else name.rsplit(".", 1)[0]
        enums = ["POINT", "SUN", "SPOT", "AREA"] if name == "bpy.types.Light.type" else []
        out.append(
            Symbol(
                name=name,
                kind=kind,
                description=description,
                blender_version="4.5",
                uri=f"{DOCS}{name}.html",
                parent=parent,
                enum_items=enums,
                examples=["bpy.ops.mesh.primitive_cube_add(size=1)"] if "cube" in name else [],
                **extra,
            )
        )
    return out


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """A tmp data dir, one worker, BM25-only search, no LLM (nor a local model), small limits."""
    base = Settings(
        artifacts=tmp_path_factory.mktemp("mcp-artifacts"), workers=1, embedder="none", queue_size=4, max_request_bytes=MAX_BYTES
    )
    if "local_model" in {f.name for f in dataclasses.fields(Settings)}:
        base = dataclasses.replace(base, local_model="off")  # retrieval only, whatever models are installed here
    return base


@pytest.fixture(scope="session")
def pool() -> Iterator[WorkerPool]:
    """One warm sandboxed worker, shared by the seeding and the live service."""
    with WorkerPool(1, RunOptions(render=True, resolution=SEED_PX, timeout=60)) as p:
        yield p


@pytest.fixture(scope="session")
def seeded(settings: Settings, pool: WorkerPool, tmp_path_factory: pytest.TempPathFactory):
    """The data dir's symbol index (a few real names, BM25) and exemplar store (two recipes, validated and rendered)."""
    from bpywright.exemplars.store import ExemplarStore
    from bpywright.exemplars.validate import validate_and_add

    version_dir = settings.index_for("4.5")
    version_dir.mkdir(parents=True)
    write_symbols(_symbols(), version_dir / "symbols.jsonl")
    build_index(version_dir, settings=settings)
    store = ExemplarStore.open(settings, clip=True)
    recipes = {r.name: r for r in all_recipes()}
    items = [(recipes[name].prompt, recipes[name].source) for name in SEED_RECIPES]
    validate_and_add(store, pool, items, source="recipe", render_dir=tmp_path_factory.mktemp("seed"), resolution=SEED_PX, lint=False)
    assert store.status().count == len(SEED_RECIPES)
    yield store
    store.close()


@pytest.fixture(scope="session")
def mcp_url(settings: Settings, pool: WorkerPool, seeded) -> Iterator[str]:
    """The service's /mcp endpoint on a live uvicorn (the service's own app, pool and store)."""
    from bpywright.service.app import create_app

    with LiveServer(create_app(settings, pool=pool, store=seeded)) as server:
        yield f"{server.url}/mcp"


@pytest.fixture(scope="session")
def stdio_env(settings: Settings, seeded) -> dict[str, str]:
    """Environment of `bpywright mcp` over the same data dir (the SDK passes children only an allow-list plus this)."""
    env = {
        "BPYWRIGHT_ARTIFACTS": str(settings.artifacts),
        "BPYWRIGHT_EMBEDDER": "none",
        "BPYWRIGHT_WORKERS": "1",
        "BPYWRIGHT_MAX_REQUEST_BYTES": str(MAX_BYTES),
        "BPYWRIGHT_LOCAL_MODEL": "off",
        "PYTHONUNBUFFERED": "1",
    }
    for name in (
        "PYTHONPATH",
        "BPYWRIGHT_SANDBOX",
        "BPYWRIGHT_BLENDER",
        "BPYWRIGHT_RECORD_STARTS",
    ):  # the last: tests/conftest.py's tier check
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


@pytest.fixture(scope="session")
def python() -> str:
    """The interpreter that runs `-m bpywright mcp`."""
    return sys.executable


def repo_root() -> Path:
    """The checkout (the stdio server's working directory)."""
    return Path(__file__).resolve().parents[2]
