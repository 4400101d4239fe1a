"""Service fixtures: one warm rendering pool, a store seeded with real validated recipes, an in-process client, a live uvicorn."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from bpywright.config import Settings
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.recipes import all_recipes
from bpywright.service.app import create_app

SEED_RECIPES = ("low_poly_pine", "primitives_modifiers", "checker_plane")
RENDER_PX = 96
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "test-screenshots"


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """Settings for the service tests: a tmp artifacts dir, one worker, BM25-only symbol search, no LLM, small limits."""
    return Settings(artifacts=tmp_path_factory.mktemp("artifacts"), workers=1, embedder="none", queue_size=2, max_request_bytes=100_000)


@pytest.fixture(scope="session")
def service_pool() -> Iterator[WorkerPool]:
    """One warm sandboxed worker rendering small images, shared by every service test."""
    with WorkerPool(1, RunOptions(render=True, resolution=RENDER_PX, timeout=60)) as pool:
        yield pool


@pytest.fixture(scope="session")
def store(settings: Settings, service_pool: WorkerPool, warm_linter, tmp_path_factory: pytest.TempPathFactory):
    """The exemplar store of `settings`, seeded with three recipes validated (the session's warm 4.5 Linter: the same
    rules as validate_and_add's own without a symbol index) and rendered through the pool."""
    from bpywright.exemplars.store import ExemplarStore
    from bpywright.exemplars.validate import validate_and_add

    store = ExemplarStore.open(settings, clip=True)
    recipes = {r.name: r for r in all_recipes()}
    items = [(recipes[name].prompt, recipes[name].source) for name in SEED_RECIPES]
    validate_and_add(
        store,
        service_pool,
        items,
        source="recipe",
        render_dir=tmp_path_factory.mktemp("seed-renders"),
        resolution=RENDER_PX,
        linter=warm_linter,
    )
    assert store.status().count == len(SEED_RECIPES)
    yield store
    store.close()


@pytest.fixture(scope="session")
def app(settings: Settings, service_pool: WorkerPool, store) -> FastAPI:
    """The app over the shared pool and seeded store."""
    return create_app(settings, pool=service_pool, store=store)


@pytest.fixture(scope="session")
def client(app: FastAPI) -> Iterator[TestClient]:
    """An in-process client (lifespan run)."""
    with TestClient(app, base_url="http://localhost") as c:
        yield c


class LiveServer:
    """A real uvicorn serving an app on an ephemeral loopback port, from a thread."""

    def __init__(self, app: FastAPI) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, name="uvicorn-test", daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()


@pytest.fixture(scope="session")
def live_url(settings: Settings, service_pool: WorkerPool, store) -> Iterator[str]:
    """Base URL of a live uvicorn over the shared pool and store (its own app, so its own job queue)."""
    with LiveServer(create_app(settings, pool=service_pool, store=store)) as server:
        yield server.url


def replace(settings: Settings, **changes) -> Settings:
    """settings with some fields changed."""
    return dataclasses.replace(settings, **changes)
