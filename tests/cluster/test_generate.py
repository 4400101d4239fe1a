"""generate's parallel candidates on a RayPool (in-process Ray): the pool comes from cluster.factory.open_pool, and
n > 1 candidates end exactly as they do on the local pool (FAKE LLM on loopback, real Blender)."""

from __future__ import annotations

import dataclasses
import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from bpywright.cli import main
from bpywright.cluster import factory
from bpywright.cluster.raypool import RayPool
from bpywright.config import Settings
from bpywright.graph.loop.run import generate
from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.harness.pool import WorkerPool
from tests.graph.samples import EARLY_BUG, INDEX_BUG, PROMPT, THREE_CUBES, fenced

pytestmark = [pytest.mark.blender, pytest.mark.ray]

ray = pytest.importorskip("ray", reason="the [cluster] extra is not installed: `make setup` installs it")
CANDIDATES = (INDEX_BUG, EARLY_BUG, THREE_CUBES)  # two raise (at different lines), one is right


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """A Ray instance inside this process (2 CPUs), token auth on (conftest set this session's token)."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.fixture
def pools_made(monkeypatch: pytest.MonkeyPatch) -> list:
    """Every pool cluster.factory.open_pool hands out during the test."""
    made: list = []
    real = factory.open_pool

    def spy(*args, **kwargs):
        pool = real(*args, **kwargs)
        made.append(pool)
        return pool

    monkeypatch.setattr(factory, "open_pool", spy)
    return made


def _scripted(fake: FakeLLM) -> FakeLLM:
    fake.script("generate", *map(fenced, CANDIDATES))
    return fake.script("critic", *[critic_json(0.95, "three red cubes")] * 3)


def _outcome(result) -> tuple:
    report = result.run_report
    return (result.outcome, result.script, result.attempts, result.score, report.status if report else None, bool(result.render_path))


def _settings(tmp_path: Path, fake: FakeLLM, cluster: str | None) -> Settings:
    return dataclasses.replace(
        Settings(),
        artifacts=tmp_path / "artifacts",
        llm_base_url=fake.base_url,
        llm_model="fake-coder",
        max_heal_rounds=1,
        budget_s=600.0,
        workers=2,
        cluster=cluster,
    )


def test_n_candidates_on_ray_end_as_on_the_local_pool(local_ray, pools_made: list, tmp_path: Path) -> None:
    outcomes = {}
    for cluster in (None, "auto"):  # auto: this process's Ray instance (ray.init above)
        fake = FakeLLM()
        with fake:
            result = generate(PROMPT, settings=_settings(tmp_path / str(cluster), _scripted(fake), cluster), n=3)
            assert fake.chat_requests[0]["n"] == 3
        outcomes[cluster] = _outcome(result)
    assert [type(p) for p in pools_made] == [WorkerPool, RayPool]  # no pool given: generate made one through the factory
    assert pools_made[1].size == 2 and pools_made[1]._closed  # the run's own pool, closed with it
    assert outcomes["auto"] == outcomes[None], outcomes
    assert outcomes["auto"][:3] == ("accepted", THREE_CUBES, 3)


@pytest.fixture
def keep_sigpipe() -> Iterator[None]:
    previous = signal.getsignal(signal.SIGPIPE)
    yield
    signal.signal(signal.SIGPIPE, previous)


def test_generate_command_cluster_flag(
    local_ray, pools_made: list, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], keep_sigpipe: None
) -> None:
    fake = FakeLLM()
    with fake:
        _scripted(fake)
        for name, value in {
            "BPYWRIGHT_ARTIFACTS": str(tmp_path / "artifacts"),
            "BPYWRIGHT_LLM_BASE_URL": fake.base_url,
            "BPYWRIGHT_LLM_MODEL": "fake-coder",
            "BPYWRIGHT_WORKERS": "1",
        }.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("BPYWRIGHT_CLUSTER", raising=False)
        code = main(["generate", PROMPT, "--n", "3", "--max-rounds", "1", "--resolution", "64", "--cluster", "auto", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err[-3000:]
    result = json.loads(out)
    assert result["outcome"] == "accepted" and result["script"] == THREE_CUBES and result["attempts"] == 3
    (pool,) = pools_made
    assert isinstance(pool, RayPool) and pool.size == 2  # an actor per candidate, at most one per CPU of the cluster
    assert main(["generate", PROMPT, "--cluster", "ray://nowhere"]) == 2  # a malformed address is a usage error
    assert "expected auto, ray://HOST:PORT" in capsys.readouterr().err


def test_service_generate_runs_on_the_cluster_bpywright_cluster_names(local_ray, tmp_path: Path) -> None:
    """BPYWRIGHT_CLUSTER (settings.cluster) set: the app's pool is a RayPool and a generate job's candidates run there."""
    from fastapi.testclient import TestClient

    from bpywright.exemplars.store import ExemplarStore
    from bpywright.service.app import create_app
    from tests.service.test_api import read_sse

    fake = FakeLLM()
    with fake:
        settings = dataclasses.replace(_settings(tmp_path, _scripted(fake), "auto"), embedder="none", max_request_bytes=100_000)
        with (
            ExemplarStore.open(settings, clip=False) as store,
            TestClient(create_app(settings, store=store), base_url="http://localhost") as client,
        ):
            pool = client.app.state.ctx.pool  # type: ignore[attr-defined]
            assert isinstance(pool, RayPool) and pool.size == 2  # one actor per CPU of the cluster
            ran: list[str] = []
            run = pool.run

            def counted(*args, **kwargs):
                ran.append(kwargs.get("source") or "")
                return run(*args, **kwargs)

            pool.run = counted  # type: ignore[method-assign]
            job = client.post("/api/v1/generate", json={"prompt": PROMPT, "n": 3, "max_rounds": 1})
            assert job.status_code == 202, job.text
            with client.stream("GET", job.json()["events_url"]) as stream:
                events = read_sse(stream.iter_lines())
            assert sorted(ran) == sorted(CANDIDATES)  # the three candidates ran on the RayPool
        assert pool._closed  # closed with the app
    result = events[-1][1]["result"]
    assert result["outcome"] == "accepted" and result["script"] == THREE_CUBES and result["attempts"] == 3, result["message"]
