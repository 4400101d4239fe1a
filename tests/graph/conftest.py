"""Graph fixtures: one warm rendering worker for the whole session, the FAKE LLM, settings under tmp_path."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bpywright.config import Settings
from bpywright.graph.loop.events import ProgressEvent
from bpywright.graph.model.fake_llm import FakeLLM
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool


@pytest.fixture(scope="session")
def render_pool() -> Iterator[WorkerPool]:
    """One sandboxed worker rendering 64 px workbench images, shared by every graph test (its linter stays warm too)."""
    with WorkerPool(1, RunOptions(render=True, resolution=64, timeout=30)) as pool:
        yield pool


@pytest.fixture
def fake() -> Iterator[FakeLLM]:
    """The FAKE OpenAI-compatible LLM on loopback, answering per role."""
    with FakeLLM() as server:
        yield server


@pytest.fixture
def settings(tmp_path: Path, fake: FakeLLM) -> Settings:
    """Artifacts under tmp_path, the FAKE LLM as endpoint, two heal rounds."""
    return dataclasses.replace(
        Settings(),
        artifacts=tmp_path / "artifacts",
        llm_base_url=fake.base_url,
        llm_model="fake-coder",
        max_heal_rounds=2,
        budget_s=600.0,
        workers=1,
    )


@pytest.fixture
def offline_settings(tmp_path: Path) -> Settings:
    """Artifacts under tmp_path and no LLM endpoint."""
    return dataclasses.replace(Settings(), artifacts=tmp_path / "artifacts", llm_base_url=None, workers=1)


class Events(list):
    """Collects ProgressEvents (use as on_event)."""

    def __call__(self, event: ProgressEvent) -> None:
        self.append(event)

    def nodes(self) -> list[str]:
        return [e.node for e in self]


@pytest.fixture
def events() -> Events:
    return Events()


class Interrupted(Exception):
    """Raised from on_event to stop a run mid-way, like a killed process."""


@pytest.fixture
def interrupted_run(fake: FakeLLM, render_pool: WorkerPool) -> Callable[..., None]:
    """Start a run that targets `version` and stop it at its first script run: a checkpoint to resume."""
    from bpywright.graph.loop.run import generate
    from bpywright.graph.model.fake_llm import critic_json

    from .samples import PROMPT, THREE_CUBES, fenced

    def start(settings: Settings, thread_id: str, version: str) -> None:
        fake.script("generate", fenced(THREE_CUBES)).script("critic", critic_json(0.9))

        def stop_at_first_run(event: ProgressEvent) -> None:
            if event.node == "run":
                raise Interrupted

        with pytest.raises(Interrupted):
            generate(PROMPT, settings=settings, pool=render_pool, on_event=stop_at_first_run, thread_id=thread_id, version=version)

    return start
