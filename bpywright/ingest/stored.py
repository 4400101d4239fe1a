"""Readers of a built index's files that a cold search can afford: BM25 matrix and vectors memory-mapped, symbols lazily.

`import bm25s` (scipy, tqdm) and `import faiss` cost ~0.5 s each of a cold search here; the files they wrote are plain
.npy arrays, read here the way those libraries read them, with the same scores.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:
    import numpy as np

    from .embedder import Embedder
    from .symbols import Symbol

VECTORS = "dense.npy"  # the dense vectors, row j = FAISS id j (dense_rows.npy maps it to a symbol)
# bm25s methods whose scores are a sum of precomputed per-token columns; bm25l/bm25+ add a non-occurrence term.
_COLUMN_METHODS = {"lucene", "robertson", "atire"}


class StoredFormatError(ValueError):
    """The index files are not in the layout these readers know (the caller falls back to the library)."""


class Bm25Matrix:
    """BM25 as per-token score columns (CSC), the layout bm25s writes: get_scores gives bm25s.BM25.get_scores's scores."""

    def __init__(self, vocab_dict: dict[str, int], data: np.ndarray, indices: np.ndarray, indptr: np.ndarray, num_docs: int) -> None:
        self.vocab_dict = vocab_dict
        self.data, self.indices, self.indptr = data, indices, indptr
        self.num_docs = num_docs
        self.dtype = data.dtype

    @classmethod
    def read(cls, folder: Path) -> Bm25Matrix:
        """A bm25s index folder, memory-mapped."""
        import numpy as np

        try:
            params = json.loads((folder / "params.index.json").read_text(encoding="utf-8"))
            vocab_dict: dict[str, int] = json.loads((folder / "vocab.index.json").read_text(encoding="utf-8"))
            data = np.load(folder / "data.csc.index.npy", mmap_mode="r")
            indices = np.load(folder / "indices.csc.index.npy", mmap_mode="r")
            indptr = np.load(folder / "indptr.csc.index.npy", mmap_mode="r")
        except (OSError, ValueError) as exc:
            raise StoredFormatError(f"unreadable BM25 files in {folder}: {exc}") from exc
        if params.get("method", "lucene") not in _COLUMN_METHODS or not isinstance(params.get("num_docs"), int):
            raise StoredFormatError(f"BM25 method {params.get('method')!r} in {folder} needs bm25s to score")
        return cls(vocab_dict, data.astype(params.get("dtype", "float32"), copy=False), indices, indptr, params["num_docs"])

    @classmethod
    def from_corpus(cls, corpus: Sequence[Sequence[str]], k1: float = 1.5, b: float = 0.75) -> Bm25Matrix:
        """A small corpus (the recipes) scored in memory as bm25s.BM25() would: Lucene idf, Robertson term frequency."""
        import math
        from collections import Counter

        import numpy as np

        counts = [Counter(doc) for doc in corpus]
        df = Counter(t for c in counts for t in c)
        vocab = {t: i for i, t in enumerate(sorted(df))}
        avg = sum(len(doc) for doc in corpus) / max(1, len(corpus)) or 1.0
        columns: list[list[tuple[int, float]]] = [[] for _ in vocab]
        for d, (doc, c) in enumerate(zip(corpus, counts)):
            norm = k1 * ((1 - b) + b * len(doc) / avg)
            for t, tf in c.items():
                idf = math.log(1 + (len(corpus) - df[t] + 0.5) / (df[t] + 0.5))
                columns[vocab[t]].append((d, idf * tf / (norm + tf)))
        indptr = np.cumsum([0, *(len(col) for col in columns)])
        indices = np.array([d for col in columns for d, _ in col], dtype=np.int32)
        data = np.array([s for col in columns for _, s in col], dtype=np.float32)
        return cls(vocab, data, indices, indptr, len(corpus))

    def get_scores(self, tokens: list[str]) -> np.ndarray:
        """One score per document: the sum of the query tokens' columns (tokens outside the vocabulary add nothing)."""
        import numpy as np

        scores = np.zeros(self.num_docs, dtype=self.dtype)
        for token in tokens:
            t = self.vocab_dict.get(token)
            if t is not None:  # accumulated token by token, in query order, as bm25s does: bit-identical sums
                start, end = int(self.indptr[t]), int(self.indptr[t + 1])
                np.add.at(scores, self.indices[start:end], self.data[start:end])
        return scores


class FlatVectors:
    """Unit vectors searched by inner product with numpy: FAISS IndexFlatIP's answers without importing faiss."""

    def __init__(self, vectors: np.ndarray) -> None:
        self.vectors = vectors
        self.ntotal = int(vectors.shape[0])

    @classmethod
    def load(cls, folder: Path) -> FlatVectors:
        """The folder's dense.npy, memory-mapped."""
        import numpy as np

        try:
            vectors = np.load(folder / VECTORS, mmap_mode="r")
        except (OSError, ValueError) as exc:
            raise StoredFormatError(f"unreadable {folder / VECTORS}: {exc}") from exc
        if vectors.ndim != 2 or vectors.dtype != np.float32:
            raise StoredFormatError(f"{folder / VECTORS} holds {vectors.dtype} {vectors.shape}, not float32 rows")
        return cls(vectors)

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(scores, ids) of the k best rows per query, best first (ties by row), shaped like FAISS's answer."""
        import numpy as np

        k = min(k, self.ntotal)
        scores = np.asarray(queries, dtype=np.float32) @ self.vectors.T
        top = np.argpartition(-scores, k - 1, axis=1)[:, :k] if k < self.ntotal else np.tile(np.arange(self.ntotal), (len(scores), 1))
        order = np.lexsort((top, -np.take_along_axis(scores, top, axis=1)), axis=1)
        ids = np.take_along_axis(top, order, axis=1)
        return np.take_along_axis(scores, ids, axis=1), ids


class FaissVectors:
    """A FAISS index read from dense.faiss (an index built before dense.npy was written), searched on one thread."""

    def __init__(self, index: Any) -> None:
        self.index = index
        self.ntotal = int(index.ntotal)

    @classmethod
    def load(cls, folder: Path) -> FaissVectors:
        """The folder's dense.faiss."""
        import faiss

        return cls(faiss.read_index(str(folder / "dense.faiss")))

    def search(self, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """FAISS search with one OpenMP thread: one query over ~16k vectors takes 0.8 ms on one thread, 2 ms on two."""
        import faiss

        threads = faiss.omp_get_max_threads()
        faiss.omp_set_num_threads(1)
        try:
            return self.index.search(queries, min(k, self.ntotal))
        finally:
            faiss.omp_set_num_threads(threads)

    def vectors(self) -> np.ndarray:
        """All stored vectors, in id order (to write dense.npy for an older index)."""
        return self.index.reconstruct_n(0, self.ntotal)


def load_vectors(folder: Path) -> FlatVectors | FaissVectors:
    """The folder's dense vectors: dense.npy memory-mapped when present, else the FAISS file."""
    if (folder / VECTORS).is_file():
        try:
            return FlatVectors.load(folder)
        except StoredFormatError:
            pass  # a damaged dense.npy: the FAISS file is the source of truth
    return FaissVectors.load(folder)


KNOWN = "known.npz"  # vectors of texts every load embeds (modelling phrases, recipe prompts), with the embedder's name


def read_known(folder: Path, embedder_name: str) -> dict[str, np.ndarray]:
    """Text → vector stored at ingest for this embedder; empty when absent, unreadable or from another embedder."""
    import numpy as np

    try:
        with np.load(folder / KNOWN) as data:
            if str(data["embedder"]) != embedder_name:
                return {}
            texts, vectors = data["texts"], np.asarray(data["vectors"], dtype=np.float32)
    except Exception:  # noqa: BLE001 - missing, truncated (BadZipFile), foreign: a damaged cache is only no cache
        return {}
    if vectors.ndim != 2 or len(vectors) != len(texts):
        return {}
    return {str(t): v for t, v in zip(texts, vectors)}


def write_known(folder: Path, embedder_name: str, texts: list[str], vectors: np.ndarray) -> None:
    """Store known texts' vectors (written whole, then renamed into place)."""
    import numpy as np

    tmp = folder / f".{KNOWN}.tmp.npz"
    np.savez(tmp, embedder=np.array(embedder_name), texts=np.array(texts, dtype=str), vectors=np.asarray(vectors, dtype=np.float32))
    tmp.replace(folder / KNOWN)


def load_bm25(folder: Path) -> Any:
    """The BM25 index in folder: the score matrix read with numpy, or bm25s itself for a layout it alone knows."""
    try:
        return Bm25Matrix.read(folder)
    except StoredFormatError:
        import bm25s

        return bm25s.BM25.load(str(folder))


def with_known_vectors(embedder: Embedder, folder: Path) -> Embedder:
    """The embedder answering the texts stored at ingest from known.npz (itself when there are none for it)."""
    from .embedder import KnownVectors

    known = read_known(folder, embedder.name)
    return KnownVectors(embedder, known) if known else embedder


_NAME_PREFIX = '{"name":"'  # write_symbols puts the name first; names are identifiers (no quote, no escape)


class SymbolRecords(Sequence["Symbol"]):
    """symbols.jsonl held as its lines, each validated into a Symbol on first access (a search reads a few hundred of
    ~18k; validating all costs a cold search ~0.5 s here). `names` is read without validation, in file order."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.names = [_record_name(line) for line in lines]
        self._parsed: list[Symbol | None] = [None] * len(lines)

    @classmethod
    def read(cls, path: Path) -> SymbolRecords:
        """The records of a symbols.jsonl file (blank lines skipped)."""
        return cls([line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()])

    def __len__(self) -> int:
        return len(self.lines)

    def has_examples(self, i: int) -> bool:
        """Whether record i has recipe lines, without validating it: the key can only appear unescaped as a key."""
        sym = self._parsed[i]
        return bool(sym.examples) if sym is not None else '"examples":["' in self.lines[i]

    @overload
    def __getitem__(self, i: int) -> Symbol: ...

    @overload
    def __getitem__(self, i: slice) -> list[Symbol]: ...

    def __getitem__(self, i: int | slice) -> Symbol | list[Symbol]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        sym = self._parsed[i]
        if sym is None:
            from .symbols import Symbol

            sym = self._parsed[i] = Symbol.model_validate_json(self.lines[i])
        return sym


def _record_name(line: str) -> str:
    """A record's name: sliced from the line when it has write_symbols' layout, else parsed."""
    if line.startswith(_NAME_PREFIX):
        end = line.find('"', len(_NAME_PREFIX))
        name = line[len(_NAME_PREFIX) : end]
        if end > 0 and "\\" not in name:
            return name
    value = json.loads(line).get("name") if line.lstrip().startswith("{") else None
    if not isinstance(value, str):
        raise StoredFormatError(f"a symbols.jsonl record without a name: {line[:80]}")
    return value


class SymbolsByName(Mapping[str, "Symbol"]):
    """Name → Symbol over SymbolRecords, validating only the records looked up."""

    def __init__(self, records: Sequence[Symbol]) -> None:
        self.records = records
        names = getattr(records, "names", None) or [s.name for s in records]
        self.index = {name: i for i, name in enumerate(names)}

    def __getitem__(self, name: str) -> Symbol:
        return self.records[self.index[name]]

    def __iter__(self) -> Iterator[str]:
        return iter(self.index)

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, name: object) -> bool:
        return name in self.index
