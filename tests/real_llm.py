"""The real small model for tests: SmolLM2-135M (installed by `make setup`) served by llama.cpp on loopback, once per session."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bpywright.config import Settings
from bpywright.models.catalogue import spec_for
from bpywright.models.install import ModelInstallError, model_path, verify
from bpywright.models.server import LocalServer, llama_cpp_available

ROOT = Path(__file__).resolve().parent.parent
TEST_MODEL = "smollm2-135m"
SERVED: list[LocalServer] = []  # the session's servers: the summary shows the log of one that died (see conftest.py)


def model_settings() -> Settings:
    """Settings whose models dir holds the test model: BPYWRIGHT_ARTIFACTS, else the checkout's artifacts/."""
    settings = Settings.from_env()
    return settings if settings.artifacts.is_absolute() else Settings(artifacts=ROOT / settings.artifacts)


@pytest.fixture(scope="session")
def smollm2(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """SmolLM2-135M behind llama.cpp's OpenAI-compatible server (verified against its pin first)."""
    if not llama_cpp_available():
        pytest.fail("llama-cpp-python is not installed: `make setup` builds it (the [llm] extra)")
    settings, spec = model_settings(), spec_for(TEST_MODEL)
    try:
        verify(spec, settings, full=False)
    except ModelInstallError as exc:
        pytest.fail(f"{exc} (`make setup` installs it)")
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with LocalServer(model_path(settings, spec), spec.name, log_path=log, n_ctx=spec.n_ctx) as server:
        SERVED.append(server)
        yield server


def report_deaths(write_line: Callable[[str], None]) -> None:
    """Where the session's test-model server died, say how and show its log's end (a CI log otherwise says only 'refused')."""
    for server in SERVED:
        if server.restarts or server.last_error:
            write_line(
                f"the test model's server at {server.base_url} died {len(server.restarts)} time(s): {server.last_error or 'restarted'}"
            )
            write_line(server.log_tail(3000))
