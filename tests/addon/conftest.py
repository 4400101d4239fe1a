"""Add-on fixtures: the built zip, and a live bpywright service (real pool, FAKE LLM, a token) for the Blender side."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bpywright.addon.build import build
from bpywright.config import Settings
from bpywright.graph.model.fake_llm import FakeLLM
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.service.app import create_app
from bpywright.starts import record

from ..service.conftest import LiveServer

TOKEN = "addon-test-token-8d1f"
BLENDER_SIDE = Path(__file__).with_name("blender_side.py")

Scenario = Callable[..., dict[str, Any]]


@pytest.fixture(scope="module")
def addon_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The extension zip, built as `bpywright addon build` builds it."""
    return build(tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="module")
def fake_llm() -> Iterator[FakeLLM]:
    """The FAKE OpenAI-compatible endpoint (tests queue its generate and critic answers)."""
    with FakeLLM() as fake:
        yield fake


@pytest.fixture(scope="module")
def service_url(tmp_path_factory: pytest.TempPathFactory, fake_llm: FakeLLM) -> Iterator[str]:
    """A live service on loopback with a token, one warm sandboxed worker rendering small images, and the FAKE LLM."""
    settings = Settings(
        artifacts=tmp_path_factory.mktemp("artifacts"),
        workers=1,
        embedder="none",
        api_token=TOKEN,
        llm_base_url=fake_llm.base_url,
        llm_model="fake-coder",
        max_heal_rounds=1,
    )
    installed = Settings.from_env().artifacts / "runtimes" / "5.2"  # the 5.2 runtime where `make runtimes` made it, read only
    if installed.is_dir():
        (settings.artifacts / "runtimes").mkdir()
        (settings.artifacts / "runtimes" / "5.2").symlink_to(installed.resolve())
    from bpywright.exemplars.store import ExemplarStore

    with WorkerPool(1, RunOptions(render=True, resolution=64, timeout=60)) as pool, ExemplarStore.open(settings, clip=False) as store:
        pool.warm()  # Blender started before the first test's clock, not inside its first call
        with LiveServer(create_app(settings, pool=pool, store=store)) as server:
            yield server.url


@pytest.fixture
def blender_side(addon_zip: Path, tmp_path: Path) -> Scenario:
    """`blender_side(scenario, url, …)`: run tests/addon/blender_side.py in a bpy module (`python`'s); its JSON result."""

    def run(scenario: str, url: str, token: str = TOKEN, arg: str = "", python: str = sys.executable) -> dict[str, Any]:
        out = tmp_path / "result.json"
        record("blender", python)  # a bpy module started by the test itself: its tier check sees it like a pool's
        env = {**os.environ, "BLENDER_USER_RESOURCES": str(tmp_path / "user")}  # a private extensions repo and preferences
        proc = subprocess.run(
            [str(python), str(BLENDER_SIDE), str(addon_zip), url, token, str(out), scenario, arg],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            cwd=tmp_path,
        )
        assert out.is_file(), f"rc {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        result = json.loads(out.read_text(encoding="utf-8"))
        assert "crash" not in result, f"{result['crash']}\nmessages: {result.get('messages')}\nseconds: {result.get('seconds')}"
        print(scenario, "seconds:", result.get("seconds"), "total", result.get("total_seconds"))
        return result

    return run
