"""LLMClient against the FAKE server: streamed answers with timing, and the structured-output form learnt per endpoint."""

from __future__ import annotations

import json
import time

import pytest

from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.graph.model.llm import (
    MAX_REPLY_TOKENS,
    MAX_TOKENS,
    VARIANT_TEMPERATURE,
    CallStats,
    LLMClient,
    LLMError,
    OutOfTime,
    deadline,
    reply_budget,
)

SCHEMA = {"type": "object", "properties": {"score": {"type": "number"}}, "required": ["score"]}


def test_a_streamed_answer_arrives_piece_by_piece_and_is_timed() -> None:
    with FakeLLM() as fake:
        fake.enqueue("```python\nimport bpy\n```")
        seen: list[tuple[str, int]] = []
        client = LLMClient(fake.base_url, "fake-coder")
        text = client.chat([{"role": "user", "content": "hi"}], on_token=lambda piece, stats: seen.append((piece, stats.tokens)))
        assert text == ["```python\nimport bpy\n```"]
        assert "".join(p for p, _ in seen) == text[0] and [n for _, n in seen] == list(range(1, len(seen) + 1))
        assert fake.chat_requests[0]["stream"] is True and fake.chat_requests[0]["max_tokens"] == 1536
        stats = client.stats[-1]
        assert stats.kind == "stream" and stats.tokens == len(seen) and stats.first_token_s is not None


def test_several_samples_are_not_streamed() -> None:
    with FakeLLM() as fake:
        fake.enqueue("a", "b")
        client = LLMClient(fake.base_url, "fake-coder")
        assert client.chat([{"role": "user", "content": "x"}], n=2, on_token=lambda p, s: None) == ["a", "b"]
        assert "stream" not in fake.chat_requests[0]


def test_a_llama_cpp_like_server_gets_json_object_with_the_schema_after_one_refusal() -> None:
    with FakeLLM() as fake:
        fake.reject_json_schema = True
        fake.script("critic", critic_json(0.8, "ok"), critic_json(0.7, "again"))
        client = LLMClient(fake.base_url, "fake-coder", backoff_s=0.01)
        assert json.loads(client.structured([{"role": "user", "content": "rate"}], "critique", SCHEMA))["score"] == 0.8
        forms = [body["response_format"]["type"] for body in fake.chat_requests]
        assert forms == ["json_schema", "json_object"]  # refused once, not retried as if transient
        assert fake.chat_requests[1]["response_format"]["schema"] == SCHEMA
        again = LLMClient(fake.base_url, "fake-coder")  # a new client for the same endpoint remembers the form
        assert json.loads(again.structured([{"role": "user", "content": "rate"}], "critique", SCHEMA))["score"] == 0.7
        assert [body["response_format"]["type"] for body in fake.chat_requests] == ["json_schema", "json_object", "json_object"]


def test_a_vllm_like_server_keeps_getting_json_schema() -> None:
    with FakeLLM() as fake:
        fake.script("critic", critic_json(0.9), critic_json(0.9))
        client = LLMClient(fake.base_url, "fake-coder")
        client.structured([{"role": "user", "content": "a"}], "critique", SCHEMA)
        client.structured([{"role": "user", "content": "b"}], "critique", SCHEMA)
        assert [body["response_format"]["type"] for body in fake.chat_requests] == ["json_schema", "json_schema"]


def test_a_real_server_error_is_still_retried_as_transient() -> None:
    with FakeLLM() as fake:
        fake.fail_next(500, 1)
        fake.script("critic", critic_json(0.5))
        client = LLMClient(fake.base_url, "fake-coder", backoff_s=0.01)
        assert json.loads(client.structured([{"role": "user", "content": "a"}], "critique", SCHEMA))["score"] == 0.5
        assert [body["response_format"]["type"] for body in fake.chat_requests] == ["json_schema", "json_schema"]


def test_call_stats_speed() -> None:
    assert CallStats(kind="stream", tokens=50, seconds=5.0).tokens_per_s == 10.0
    assert CallStats(kind="stream").tokens_per_s == 0.0


def test_a_stream_cut_short_is_retried_not_taken_for_the_whole_answer() -> None:
    """llama.cpp ends a streamed answer with [DONE] and no finish reason when another request waits: a truncated script."""
    with FakeLLM() as fake:
        answer = "```python\nimport bpy\nbpy.ops.mesh.primitive_cube_add(size=2.0)\n```"
        fake.enqueue(answer, answer)
        fake.cut_streams = 1
        client = LLMClient(fake.base_url, "fake-coder", backoff_s=0.01)
        assert client.chat([{"role": "user", "content": "a cube"}], on_token=lambda p, s: None) == [answer]
        assert len(fake.chat_requests) == 2 and fake.chat_requests[1]["stream"] is True


def test_streams_cut_every_time_are_an_error_that_says_so() -> None:
    with FakeLLM() as fake:
        fake.enqueue(*["one two three four"] * 3)
        fake.cut_streams = 3
        client = LLMClient(fake.base_url, "fake-coder", retries=2, backoff_s=0.01)
        with pytest.raises(LLMError, match="without a finish reason"):
            client.chat([{"role": "user", "content": "x"}], on_token=lambda p, s: None)


def test_a_reply_that_rewrites_a_long_script_gets_room_for_it() -> None:
    assert reply_budget("import bpy\n") == MAX_TOKENS  # a short script: the usual limit
    long = "obj = bpy.data.objects.new('Part', None)  # a line of a long script\n" * 125  # the local model's 125-line inverters
    assert MAX_TOKENS < len(long) / 3 < reply_budget(long) <= MAX_REPLY_TOKENS
    assert reply_budget(long * 10) == MAX_REPLY_TOKENS  # a model stuck repeating itself is still cut off


def test_a_call_may_set_its_own_reply_limit() -> None:
    with FakeLLM() as fake:
        fake.script("generate", "one", "two")
        client = LLMClient(fake.base_url, "m")
        client.chat([{"role": "user", "content": "Write a Blender script: a cube"}], max_tokens=2222)
        client.chat([{"role": "user", "content": "Write a Blender script: a cube"}], on_token=lambda piece, stats: None)
        assert [r["max_tokens"] for r in fake.chat_requests] == [2222, MAX_TOKENS]


def test_extra_sampling_fields_go_with_every_request_and_the_calls_own_temperature_wins() -> None:
    with FakeLLM() as fake:
        fake.enqueue("a", "b", "c")
        fake.script("critic", critic_json(0.8, "ok"))
        client = LLMClient(fake.base_url, "fake-coder", sampling={"repeat_penalty": 1.0, "temperature": 0.3})
        client.chat([{"role": "user", "content": "x"}], on_token=lambda p, s: None)
        client.chat([{"role": "user", "content": "x"}], n=2, temperature=0.8)
        client.structured([{"role": "user", "content": "rate"}], "critique", SCHEMA)
        streamed, sampled, rated = fake.chat_requests
        assert streamed["repeat_penalty"] == 1.0 and streamed["temperature"] == 0.3
        assert sampled["repeat_penalty"] == 1.0 and sampled["temperature"] == 0.8  # the call's own value
        assert rated["repeat_penalty"] == 1.0 and rated["temperature"] == 0.0
        assert "repeat_penalty" not in json.dumps(LLMClient(fake.base_url, "m")._limits())  # none unless configured


def test_a_structured_variant_is_sampled_with_its_own_seed_and_named_in_its_stats() -> None:
    """The k-th of n plan candidates: greedy for the first, sampled with the configured seed + k for the others (a
    seeded server otherwise writes the same plan n times)."""
    with FakeLLM() as fake:
        fake.script("critic", critic_json(0.8, "ok"), critic_json(0.7, "ok"))
        client = LLMClient(fake.base_url, "fake-coder", sampling={"seed": 42})
        client.structured([{"role": "user", "content": "plan"}], "plan", SCHEMA, generator=True)
        client.structured([{"role": "user", "content": "plan"}], "plan", SCHEMA, generator=True, variant=2)
        first, third = fake.chat_requests
        assert (first["temperature"], first["seed"]) == (0.0, 42)
        assert (third["temperature"], third["seed"]) == (VARIANT_TEMPERATURE, 44)
        assert [s.name for s in client.stats] == ["plan", "plan"]


@pytest.mark.parametrize(
    ("field", "variable", "given", "read", "bad", "choices"),
    [
        ("repair", "BPYWRIGHT_REPAIR", "Regenerate", "regenerate", "rewrite", "auto, patch, regenerate"),
        ("review", "BPYWRIGHT_REVIEW", "checks", "checks", "llm", "auto, model, grounded, checks, none"),
    ],
)
def test_a_choice_from_the_environment_and_a_bad_one_says_which_exist(
    monkeypatch: pytest.MonkeyPatch, field: str, variable: str, given: str, read: str, bad: str, choices: str
) -> None:
    from bpywright.config import Settings

    assert getattr(Settings.from_env(), field) == "auto"
    monkeypatch.setenv(variable, given)
    assert getattr(Settings.from_env(), field) == read
    monkeypatch.setenv(variable, bad)
    with pytest.raises(ValueError, match=choices):
        Settings.from_env()


def test_sampling_from_the_environment_is_parsed_and_a_bad_pair_says_how(monkeypatch: pytest.MonkeyPatch) -> None:
    from bpywright.config import Settings

    monkeypatch.setenv("BPYWRIGHT_LLM_SAMPLING", "repeat_penalty=1.05, top_k=20")
    assert Settings.from_env().llm_sampling == (("repeat_penalty", 1.05), ("top_k", 20.0))
    for bad in ("repeat_penalty", "repeat_penalty=high", "=1.0", "top k=2"):
        monkeypatch.setenv("BPYWRIGHT_LLM_SAMPLING", bad)
        with pytest.raises(ValueError, match="is not NAME=NUMBER"):
            Settings.from_env()


def test_redraws_default_to_two_and_the_environment_sets_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from bpywright.config import DEFAULT_REDRAWS, Settings

    monkeypatch.delenv("BPYWRIGHT_REDRAWS", raising=False)
    assert Settings.from_env().redraws == DEFAULT_REDRAWS == Settings().redraws == 2
    monkeypatch.setenv("BPYWRIGHT_REDRAWS", "0")
    assert Settings.from_env().redraws == 0
    monkeypatch.setenv("BPYWRIGHT_REDRAWS", "1")
    assert Settings.from_env().redraws == 1
    monkeypatch.setenv("BPYWRIGHT_REDRAWS", "-2")
    assert Settings.from_env().redraws == 0


def test_a_streamed_answer_past_the_deadline_is_abandoned_not_retried() -> None:
    """The request's budget bounds a model call, not only the steps between calls: a benchmark plan call on a busy CPU
    streamed for half an hour and took its request to 2384 s of a 1200 s budget."""
    with FakeLLM() as fake:
        fake.word_delay_s = 0.1
        fake.enqueue(" ".join(["word"] * 200))  # 20 s in all
        client = LLMClient(fake.base_url, "fake-coder", retries=3, backoff_s=0.01)
        seen: list[str] = []
        with deadline(time.monotonic() + 1.0), pytest.raises(OutOfTime, match="time budget ran out during a model's answer"):
            client.chat([{"role": "user", "content": "hi"}], on_token=lambda piece, stats: seen.append(piece))
        assert 0 < len(seen) < 200 and len(fake.chat_requests) == 1  # cut mid-answer, and no retry after it
        assert isinstance(OutOfTime("x"), LLMError)  # the nodes' LLMError handling ends the request with its best attempt


def test_an_unstreamed_call_waits_no_longer_than_the_time_left() -> None:
    with FakeLLM() as fake:
        fake.word_delay_s = 0.2
        fake.enqueue(" ".join(["a"] * 50), " ".join(["b"] * 50))  # each answer 10 s, sent whole at the end
        client = LLMClient(fake.base_url, "fake-coder", timeout=120.0, retries=3, backoff_s=0.01)
        with deadline(time.monotonic() + 1.0), pytest.raises(OutOfTime, match="during a model call"):
            client.chat([{"role": "user", "content": "x"}], n=2)
        assert len(fake.chat_requests) == 1  # the timeout was the time left, and it was not taken for a dropped connection
        with deadline(time.monotonic() - 1.0), pytest.raises(OutOfTime):  # nothing left: nothing is sent
            client.chat([{"role": "user", "content": "x"}])
        assert len(fake.chat_requests) == 1


def test_without_a_deadline_a_slow_answer_is_waited_for() -> None:
    with FakeLLM() as fake:
        fake.word_delay_s = 0.05
        fake.enqueue(" ".join(["word"] * 30))
        client = LLMClient(fake.base_url, "fake-coder", timeout=5.0, retries=0)
        with deadline(None):
            assert client.chat([{"role": "user", "content": "x"}], on_token=lambda p, s: None) == [" ".join(["word"] * 30)]


def test_a_server_that_keeps_the_stream_alive_but_writes_nothing_is_cut_at_the_deadline() -> None:
    """llama.cpp reading a long prompt on a busy CPU: the stream is open and alive, no word comes. A read timeout set when
    the request started cannot bound it (a 30 s budget ended at 39 s); the deadline closes the stream under the reader."""
    with FakeLLM() as fake:
        fake.think_s = 8.0
        fake.enqueue("import bpy")
        client = LLMClient(fake.base_url, "fake-coder", timeout=120.0, retries=3, backoff_s=0.01)
        seen: list[str] = []
        with deadline(time.monotonic() + 1.0), pytest.raises(OutOfTime, match="0 piece"):
            client.chat([{"role": "user", "content": "hi"}], on_token=lambda piece, stats: seen.append(piece))
        assert seen == [] and len(fake.chat_requests) == 1  # stopped before any word came, and not asked again
