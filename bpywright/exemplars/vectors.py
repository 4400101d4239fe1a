"""The CLIP vector index: a FAISS IndexFlatIP persisted next to the DB, rebuilt from the DB's vector blobs."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np


class ClipIndex:
    """Inner-product search over one model's vectors (ids = exemplars.seq); the SQLite blobs are the truth."""

    def __init__(self, path: Path, key: str, dim: int):
        self.path = path  # e.g. exemplars.clip.faiss; its stamp lives in path + ".json"
        self.key = key
        self.dim = dim
        self.index: Any = None
        self.stamp: list | None = None
        self.rebuilt = 0  # how often the index was rebuilt from the DB (tests and status)

    @property
    def stamp_path(self) -> Path:
        """Sidecar that says which model and which DB rows the persisted index holds."""
        return self.path.with_name(self.path.name + ".json")

    def _db_stamp(self, db: sqlite3.Connection) -> list:
        count, last = db.execute("SELECT COUNT(*), COALESCE(MAX(rowid), 0) FROM clip_vectors WHERE model = ?", (self.key,)).fetchone()
        return [self.key, self.dim, count, last]

    def ensure(self, db: sqlite3.Connection) -> None:
        """Make the in-memory index match the DB: keep it, load the persisted file, or rebuild from blobs."""
        stamp = self._db_stamp(db)
        if self.index is not None and self.stamp == stamp:
            return
        if self._load_persisted(stamp):
            return
        import faiss

        index = faiss.IndexIDMap(faiss.IndexFlatIP(self.dim))
        rows = db.execute("SELECT seq, vector FROM clip_vectors WHERE model = ? ORDER BY seq", (self.key,)).fetchall()
        if rows:
            ids = np.array([r[0] for r in rows], dtype=np.int64)
            vectors = np.stack([np.frombuffer(r[1], dtype=np.float32) for r in rows])
            index.add_with_ids(vectors, ids)
        self.index, self.stamp = index, stamp
        self.rebuilt += 1
        self.save()

    def _load_persisted(self, stamp: list) -> bool:
        try:
            if json.loads(self.stamp_path.read_text(encoding="utf-8")) != stamp:
                return False
            import faiss

            index = faiss.read_index(str(self.path))
        except (OSError, ValueError, RuntimeError):
            return False
        if index.ntotal != stamp[2] or index.d != self.dim:
            return False
        self.index, self.stamp = index, stamp
        return True

    def save(self) -> None:
        """Persist index then stamp, each atomically (a stale or missing pair only means a rebuild)."""
        import faiss

        if self.index is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        faiss.write_index(self.index, str(temp))
        os.replace(temp, self.path)
        temp_stamp = self.stamp_path.with_name(f".{self.stamp_path.name}.{os.getpid()}.tmp")
        temp_stamp.write_text(json.dumps(self.stamp), encoding="utf-8")
        os.replace(temp_stamp, self.stamp_path)

    def add(self, db: sqlite3.Connection, seq: int, vector: np.ndarray) -> None:
        """Add a vector already committed to the DB (or rebuild when other writers added some meanwhile)."""
        if self.index is None or self.stamp is None:
            self.ensure(db)
            return
        expected = self._db_stamp(db)
        if expected[2] != self.stamp[2] + 1:
            self.ensure(db)
            return
        self.index.add_with_ids(vector.reshape(1, -1).astype(np.float32), np.array([seq], dtype=np.int64))
        self.stamp = expected

    def search(self, db: sqlite3.Connection, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """(seq, cosine similarity) of the k nearest vectors."""
        self.ensure(db)
        if self.index is None or self.index.ntotal == 0:
            return []
        scores, ids = self.index.search(vector.reshape(1, -1).astype(np.float32), min(k, self.index.ntotal))
        return [(int(i), float(s)) for i, s in zip(ids[0], scores[0]) if i >= 0]
