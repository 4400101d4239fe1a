"""Session fixtures of the ingest tests: a hybrid index built once with the real MiniLM model (tests/conftest.py's
`minilm`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.ingest.embedder import SentenceTransformerEmbedder


@pytest.fixture(scope="session")
def hybrid_dir(tmp_path_factory: pytest.TempPathFactory, minilm: SentenceTransformerEmbedder) -> Path:
    """symbols.jsonl of the search tests' symbol set + a hybrid index (and its query files) built with the real model."""
    from bpywright.ingest.index import build_index
    from bpywright.ingest.symbols import write_symbols

    from .test_search import ROWS, make_symbols

    path = tmp_path_factory.mktemp("index") / "4.5"
    path.mkdir()
    write_symbols(make_symbols(), path / "symbols.jsonl")
    stats = build_index(path, embedder=minilm)
    assert stats.dense == len(ROWS) - 2 and stats.dim == 384  # UI panel and theme setting are left out of the vectors
    return path
