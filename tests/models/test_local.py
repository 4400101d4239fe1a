"""Which model answers: the installed local model is served for as long as the caller needs it; a tampered one never is."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bpywright.config import DEFAULT_BUDGET_S, LOCAL_BUDGET_S, Settings
from bpywright.models.catalogue import CATALOGUE
from bpywright.models.install import model_path
from bpywright.models.local import describe, local_llm
from bpywright.service.context import start_local_llm

from ..real_llm import model_settings


@pytest.mark.model
def test_the_local_model_is_served_on_loopback_and_stopped_after(smollm2) -> None:
    settings = dataclasses.replace(model_settings(), local_model="smollm2-135m", llm_base_url=None, budget_s=None)
    assert describe(settings).kind == "local"
    with local_llm(settings) as (served, note):
        assert served.llm_base_url is not None and served.llm_base_url.startswith("http://127.0.0.1:")
        assert served.llm_model == "smollm2-135m" and served.prompt_exemplars == 1 and "smollm2-135m" in note
        assert served.budget_s == LOCAL_BUDGET_S > DEFAULT_BUDGET_S  # a CPU model gets minutes unless a budget is set
    with local_llm(dataclasses.replace(settings, budget_s=42.0)) as (served, _):
        assert served.budget_s == 42.0
        import urllib.request

        auth = {"Authorization": f"Bearer {served.llm_api_key}"}
        with urllib.request.urlopen(urllib.request.Request(f"{served.llm_base_url}/models", headers=auth), timeout=5) as resp:
            assert resp.status == 200
        url = served.llm_base_url
    import urllib.error

    try:
        urllib.request.urlopen(urllib.request.Request(f"{url}/models", headers=auth), timeout=2)
        raise AssertionError("the server still answers after the block")
    except (urllib.error.URLError, OSError):
        pass


def test_a_configured_endpoint_is_used_as_is_and_nothing_starts(tmp_path: Path) -> None:
    settings = Settings(artifacts=tmp_path, llm_base_url="http://127.0.0.1:9/v1", llm_model="m", local_model="smollm2-135m")
    with local_llm(settings) as (served, note):
        assert served is settings and note == ""


def test_a_tampered_model_is_not_served_and_the_service_says_why(tmp_path: Path) -> None:
    settings = Settings(artifacts=tmp_path / "artifacts", local_model="smollm2-135m")
    spec = CATALOGUE["smollm2-135m"]
    settings.models_dir.mkdir(parents=True)
    model_path(settings, spec).write_bytes(b"GGUF" + b"\0" * 100)  # a swapped file: wrong size, wrong hash
    (settings.models_dir / f"{spec.name}.json").write_text(json.dumps({}))
    served, server, note = start_local_llm(settings)
    assert server is None and served.llm_base_url is None
    assert "local model not served" in note and "bpywright model install smollm2-135m --force" in note


@pytest.mark.model
def test_the_local_server_gets_the_models_sampling_and_honours_it(smollm2) -> None:
    """llama-cpp-python's server applies repeat_penalty 1.1 unless a request names one: ours names 1.0 (the catalogue's)."""
    from bpywright.graph.model.llm import LLMClient

    settings = dataclasses.replace(model_settings(), local_model="smollm2-135m", llm_base_url=None)
    with local_llm(settings) as (served, _):
        assert dict(served.llm_sampling) == CATALOGUE["smollm2-135m"].sampling == {"repeat_penalty": 1.0}
        assert served.repair == "auto"  # no measured choice for SmolLM2: patch first
        assert served.review == "auto"  # … and no measured choice of who reviews: the critic model
        assert served.max_critic_rounds is None and served.critic_rounds == 1  # … nor of rounds for the critic
    with local_llm(dataclasses.replace(settings, review="checks")) as (served, _):
        assert served.review == "checks"  # the user's setting is kept
    with local_llm(dataclasses.replace(settings, llm_sampling=(("repeat_penalty", 1.05), ("top_k", 20.0)))) as (served, _):
        assert dict(served.llm_sampling) == {"repeat_penalty": 1.05, "top_k": 20.0}  # the user's setting wins
    assert CATALOGUE["qwen2.5-coder-1.5b"].repair == "regenerate"  # measured: its patches rarely ran, fresh scripts did
    ask = [{"role": "user", "content": "Write a Python list of twenty zeros: [0, 0, 0, ...]"}]
    plain = LLMClient(smollm2.base_url, smollm2.alias, max_tokens=40, sampling={"repeat_penalty": 1.0}, api_key=smollm2.api_key)
    harsh = LLMClient(smollm2.base_url, smollm2.alias, max_tokens=40, sampling={"repeat_penalty": 3.0}, api_key=smollm2.api_key)
    one, other = plain.chat(ask, temperature=0.0)[0], harsh.chat(ask, temperature=0.0)[0]
    assert one == plain.chat(ask, temperature=0.0)[0]  # greedy: the same request gives the same answer …
    assert one != other  # … and the server read the field (an ignored one would give the same answer too)


@pytest.mark.model
def test_a_measured_number_of_critic_rounds_is_taken_unless_the_user_set_one(smollm2, monkeypatch) -> None:
    """The catalogue's critic_rounds (0 for the local model: its revisions of a script that ran measured no gain) reaches the
    served settings when BPYWRIGHT_MAX_CRITIC_ROUNDS is unset; a set value wins."""
    monkeypatch.setitem(CATALOGUE, "smollm2-135m", CATALOGUE["smollm2-135m"].model_copy(update={"critic_rounds": 0}))
    settings = dataclasses.replace(model_settings(), local_model="smollm2-135m", llm_base_url=None)
    with local_llm(settings) as (served, _):
        assert served.max_critic_rounds == 0 and served.critic_rounds == 0
    with local_llm(dataclasses.replace(settings, max_critic_rounds=1)) as (served, _):
        assert served.critic_rounds == 1
    assert CATALOGUE["qwen2.5-coder-1.5b"].critic_rounds == 0
    monkeypatch.setitem(CATALOGUE, "smollm2-135m", CATALOGUE["smollm2-135m"].model_copy(update={"review": "none"}))
    with local_llm(settings) as (served, _):
        assert served.review == "none"  # a measured choice of who reviews reaches the served settings too …
    with local_llm(dataclasses.replace(settings, review="model")) as (served, _):
        assert served.review == "model"  # … and a user's BPYWRIGHT_REVIEW wins
    assert CATALOGUE["qwen2.5-coder-1.5b"].review == "neighbours"  # measured: its reviews scored every answer 0.70
