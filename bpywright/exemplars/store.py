"""ExemplarStore: validated scripts in SQLite (WAL) with content-addressed renders, hashes and CLIP vectors."""

from __future__ import annotations

import builtins
import hashlib
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, get_args

from pydantic import BaseModel

from ..harness.report import RunReport
from ..sqlite_setup import set_up
from . import features, ranking
from .clip import ClipSlot
from .files import ContentFiles
from .models import Exemplar, ExemplarHit, Source, exemplar_id, verified_by
from .query import Filters, fts_query, where_clause
from .schema import SELECT_COLUMNS, exemplar_of, migrate

if TYPE_CHECKING:
    import numpy as np

    from ..config import Settings
    from .clip import ClipEncoder
    from .vectors import ClipIndex

__all__ = ["AddResult", "ExemplarStore", "Filters", "Page", "StoreStatus"]


class Page(BaseModel):
    """One page of exemplars (one per near-duplicate group), newest first."""

    items: list[Exemplar]
    total: int
    offset: int
    limit: int


class AddResult(BaseModel):
    """What add() did: created a new exemplar, or found the script already stored / a near-duplicate group."""

    exemplar: Exemplar
    created: bool
    duplicate_of: str | None = None


class StoreStatus(BaseModel):
    """Size of the store and whether CLIP is on (and why not, or which model)."""

    count: int
    groups: int
    clip_enabled: bool
    clip_reason: str
    db_path: str


class ExemplarStore:
    """The exemplar store; every method is thread-safe (one connection behind a lock; WAL for other processes)."""

    def __init__(self, db_path: Path, files_dir: Path, *, clip: ClipEncoder | ClipSlot | None = None) -> None:
        self.db_path = Path(db_path)
        self.files = ContentFiles(files_dir)
        self.files.remove_orphans()  # a killed import leaves only temp files: they go at the next start
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.db_path, isolation_level=None, check_same_thread=False, timeout=30)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.execute("PRAGMA busy_timeout = 30000")
        set_up(self._db, self._set_up)  # one opener at a time: two that set up a fresh database deadlock
        self.clip = clip if isinstance(clip, ClipSlot) else ClipSlot(encoder=clip)
        self._index: ClipIndex | None = None
        self._dirty_index = False

    def _set_up(self) -> None:
        """WAL mode for other processes, and the schema's migrations."""
        self._db.execute("PRAGMA journal_mode = WAL")
        migrate(self._db)

    @classmethod
    def open(cls, settings: Settings, *, clip: bool = True) -> ExemplarStore:
        """The store under settings.artifacts; CLIP is loaded on first use, and only when weights are configured."""
        return cls(settings.exemplar_db, settings.exemplar_files, clip=ClipSlot.from_settings(settings, enabled=clip))

    def __enter__(self) -> ExemplarStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Persist the CLIP index when it changed and close the database."""
        with self._lock:
            if self._index is not None and self._dirty_index:
                self._index.save()
                self._dirty_index = False
            self._db.close()

    # --- CLIP -------------------------------------------------------------------------------------

    def _clip_index(self) -> ClipIndex | None:
        """The FAISS index of the loaded encoder, in step with the DB (call with the lock held, after clip.get())."""
        encoder = self.clip.loaded
        if encoder is None:
            return None
        if self._index is None:
            from .vectors import ClipIndex

            self._index = ClipIndex(self.db_path.with_name(self.db_path.stem + ".clip.faiss"), encoder.key, encoder.dim)
        self._index.ensure(self._db)
        return self._index

    def _clip_key(self) -> str:
        return self.clip.loaded.key if self.clip.loaded is not None else ""

    # --- writing ----------------------------------------------------------------------------------

    def add(
        self,
        *,
        script: str,
        prompt: str,
        report: RunReport,
        render: Path | None,
        source: str,
        blender_version: str,
        symbols: list[str] | None = None,
    ) -> AddResult:
        """Store a validated script with its render; a no-op for a script already stored for that version."""
        if source not in get_args(Source):
            raise ValueError(f"source must be one of {', '.join(get_args(Source))}, not {source!r}")
        sha = hashlib.sha256(script.encode("utf-8")).hexdigest()
        eid = exemplar_id(sha, blender_version)
        existing = self.get(eid)
        if existing is not None:
            return AddResult(exemplar=existing, created=False, duplicate_of=eid)
        if symbols is None:
            from .api_names import api_names

            symbols = api_names(script)
        render_rel = thumb_rel = None
        hashes: dict[str, str] = {}
        vector = None
        if render is not None and Path(render).is_file():
            render_rel = self.files.put(Path(render).read_bytes(), ".png")  # files first, then the DB row
            thumb_rel = self.files.put(features.thumbnail_bytes(Path(render)), ".webp")
            hashes = features.perceptual_hashes(Path(render))
            encoder = self.clip.get()
            vector = encoder.encode_image(Path(render)) if encoder is not None else None
            report = report.model_copy(deep=True)
            if report.render is not None:
                report.render.path = render_rel
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")  # one writer at a time across processes: re-check inside
            try:  # the files exist already: a row never points at a missing file, even if this process is killed here
                row = self._db.execute("SELECT seq FROM exemplars WHERE id = ?", (eid,)).fetchone()
                if row is not None:
                    self._db.execute("ROLLBACK")
                    return AddResult(exemplar=self._get_locked(eid), created=False, duplicate_of=eid)
                group = ranking.near_duplicate_group(self._db, hashes)
                seq = self._insert(
                    eid, prompt, script, sha, blender_version, report, render_rel, thumb_rel, hashes, source, group or eid, symbols, vector
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            if vector is not None and self._index is not None:
                self._index.add(self._db, seq, vector)
                self._dirty_index = True
            return AddResult(exemplar=self._get_locked(eid), created=True, duplicate_of=group)

    def _insert(
        self,
        eid: str,
        prompt: str,
        script: str,
        sha: str,
        version: str,
        report: RunReport,
        render_rel: str | None,
        thumb_rel: str | None,
        hashes: dict[str, str],
        source: str,
        group: str,
        symbols: list[str],
        vector: np.ndarray | None,
    ) -> int:
        cursor = self._db.execute(
            """INSERT INTO exemplars (id, prompt, script, script_sha256, blender_version, status, report, render_path, thumbnail_path,
               phash, dhash, colour, source, group_id, created_at, trusted, verified_by)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                eid,
                prompt,
                script,
                sha,
                version,
                report.status,
                report.model_dump_json(),
                render_rel,
                thumb_rel,
                hashes.get("phash"),
                hashes.get("dhash"),
                hashes.get("colour"),
                source,
                group,
                datetime.now(UTC).isoformat(),
                int(source != "user"),
                verified_by(source, source != "user"),
            ),
        )
        seq = int(cursor.lastrowid or 0)
        self._db.executemany("INSERT OR IGNORE INTO exemplar_symbols (exemplar_id, symbol) VALUES (?, ?)", [(eid, s) for s in symbols])
        self._db.execute(
            "INSERT INTO exemplar_text (rowid, prompt, symbols, script) VALUES (?, ?, ?, ?)", (seq, prompt, " ".join(symbols), script)
        )
        if vector is not None and self.clip.loaded is not None:
            self._db.execute(
                "INSERT INTO clip_vectors (seq, model, vector) VALUES (?, ?, ?)",
                (seq, self.clip.loaded.key, vector.astype("float32").tobytes()),
            )
        return seq

    # --- reading ----------------------------------------------------------------------------------

    def _select(self, where: str, params: dict, tail: str = "") -> list[Exemplar]:
        sql = f"SELECT {SELECT_COLUMNS} FROM exemplars e WHERE {where} {tail}"
        return [exemplar_of(r) for r in self._db.execute(sql, {"clip_key": self._clip_key(), **params})]

    def _get_locked(self, exemplar_id: str) -> Exemplar | None:
        found = self._select("e.id = :id", {"id": exemplar_id})
        return found[0] if found else None

    def get(self, exemplar_id: str) -> Exemplar | None:
        """One exemplar by id."""
        with self._lock:
            return self._get_locked(exemplar_id)

    def members(self, exemplar_id: str) -> list[Exemplar]:
        """Every exemplar of this one's near-duplicate group (itself included), oldest first."""
        with self._lock:
            return self._select("e.group_id = (SELECT group_id FROM exemplars WHERE id = :id)", {"id": exemplar_id}, "ORDER BY e.seq")

    def list(self, *, filters: Filters | None = None, offset: int = 0, limit: int = 50) -> Page:
        """A page of exemplars matching the filters, one per near-duplicate group (its first match), newest first."""
        where, params = where_clause(filters)
        offset, limit = max(0, offset), max(0, limit)
        with self._lock:
            total = self._db.execute(f"SELECT COUNT(DISTINCT e.group_id) FROM exemplars e WHERE {where}", params).fetchone()[0]
            firsts = f"e.seq IN (SELECT MIN(e.seq) FROM exemplars e WHERE {where} GROUP BY e.group_id)"
            items = self._select(firsts, {**params, "limit": limit, "offset": offset}, "ORDER BY e.seq DESC LIMIT :limit OFFSET :offset")
        return Page(items=items, total=total, offset=offset, limit=limit)

    def search(self, text: str, *, filters: Filters | None = None, k: int = 20) -> builtins.list[ExemplarHit]:
        """BM25 over prompt, symbols and script, fused (reciprocal rank) with CLIP text→image when CLIP is on."""
        where, params = where_clause(filters)
        query = fts_query(text)
        encoder = self.clip.get() if text.strip() else None
        text_vector = encoder.encode_text(text) if encoder is not None else None
        rankings: dict[str, list[int]] = {}
        with self._lock:
            if query:
                sql = f"""SELECT e.seq FROM exemplar_text JOIN exemplars e ON e.seq = exemplar_text.rowid
                          WHERE exemplar_text MATCH :query AND {where} ORDER BY bm25(exemplar_text, 4.0, 2.0, 1.0) LIMIT :n"""
                rankings["text"] = [r[0] for r in self._db.execute(sql, {**params, "query": query, "n": k * 5})]
            index = self._clip_index() if text_vector is not None else None
            if index is not None and text_vector is not None:
                near = [seq for seq, _ in index.search(self._db, text_vector, k * 5)]
                passing = ranking.allowed(self._db, near, where, params)
                rankings["clip"] = [seq for seq in near if seq in passing]
            return ranking.hits(self._db, self._clip_key(), ranking.fuse(rankings), k)

    def similar(self, exemplar_id: str, *, k: int = 8) -> builtins.list[ExemplarHit]:
        """More like this: CLIP image neighbours when CLIP is on, else perceptual-hash distance (its own group left out)."""
        self.clip.get()
        with self._lock:
            row = self._db.execute("SELECT seq, group_id, phash, dhash FROM exemplars WHERE id = ?", (exemplar_id,)).fetchone()
            if row is None:
                return []
            index = self._clip_index()
            blob = None
            if index is not None:
                blob = self._db.execute("SELECT vector FROM clip_vectors WHERE seq = ? AND model = ?", (row["seq"], index.key)).fetchone()
            if index is not None and blob is not None:
                import numpy as np

                near = index.search(self._db, np.frombuffer(blob[0], dtype=np.float32), k * 4 + 8)
                scored = {seq: (score, "clip") for seq, score in near if seq != row["seq"]}
            else:
                scored = ranking.hash_scores(self._db, row["seq"], row["phash"], row["dhash"])
            return ranking.hits(self._db, self._clip_key(), scored, k, exclude_group=row["group_id"])

    def nearest(self, prompt: str, version: str, k: int = 3) -> builtins.list[Exemplar]:
        """The verified, trusted exemplars of one Blender version that best match a prompt (few-shot, offline mode)."""
        filters = Filters(status="ok", blender_version=version, trusted=True)
        return [hit.exemplar for hit in self.search(prompt, filters=filters, k=k)]

    def set_trusted(self, exemplar_id: str, trusted: bool = True) -> bool:
        """Let an operator mark an exemplar as one generation may learn from (or not); False when there is no such id.
        Trusting is a person's verification, a machine-accepted answer's included; revoking takes it back."""
        with self._lock:
            row = self._db.execute("SELECT source FROM exemplars WHERE id = ?", (exemplar_id,)).fetchone()
            if row is None:
                return False
            by = "person" if trusted else verified_by(row["source"], False)
            self._db.execute("UPDATE exemplars SET trusted = ?, verified_by = ? WHERE id = ?", (int(trusted), by, exemplar_id))
            return True

    def file(self, relpath: str) -> Path:
        """The absolute path of a stored render/thumbnail; ValueError for anything outside the files directory."""
        return self.files.resolve(relpath)

    def status(self, *, load_clip: bool = True) -> StoreStatus:
        """Counts, CLIP on/off and why, and the database path; load_clip=False never waits for CLIP to load."""
        encoder = self.clip.get() if load_clip else self.clip.loaded
        with self._lock:
            count, groups = self._db.execute("SELECT COUNT(*), COUNT(DISTINCT group_id) FROM exemplars").fetchone()
        return StoreStatus(
            count=count, groups=groups, clip_enabled=encoder is not None, clip_reason=self.clip.reason, db_path=str(self.db_path)
        )

    def export(self, out: TextIO) -> int:
        """Write every exemplar (group members included) as JSON lines, oldest first; return how many."""
        with self._lock:
            exemplars = self._select("1", {}, "ORDER BY e.seq")
        for exemplar in exemplars:
            out.write(exemplar.model_dump_json() + "\n")
        return len(exemplars)

    def backfill_clip(self, progress: Callable[[int], None] | None = None) -> int:
        """Compute CLIP vectors for stored renders that lack one for the current model; return how many."""
        encoder = self.clip.get()
        if encoder is None:
            return 0
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, render_path FROM exemplars e WHERE render_path IS NOT NULL AND NOT EXISTS "
                "(SELECT 1 FROM clip_vectors v WHERE v.seq = e.seq AND v.model = ?)",
                (encoder.key,),
            ).fetchall()
        done = 0
        for seq, relpath in rows:
            path = self.files.resolve(relpath)
            if path.is_file():
                vector = encoder.encode_image(path)
                with self._lock:
                    self._db.execute(
                        "INSERT OR IGNORE INTO clip_vectors (seq, model, vector) VALUES (?, ?, ?)", (seq, encoder.key, vector.tobytes())
                    )
                done += 1
                if progress is not None:
                    progress(done)
        with self._lock:
            self._dirty_index = self._clip_index() is not None
        return done
