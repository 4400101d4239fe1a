"""The exemplar database: migrations as a list of functions (PRAGMA user_version) and row ↔ Exemplar."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from datetime import datetime

from ..harness.report import RunReport
from .models import Exemplar


def _m1_tables(db: sqlite3.Connection) -> None:
    """Exemplars and the bpy symbols each script uses."""
    db.execute("""
        CREATE TABLE exemplars (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            prompt TEXT NOT NULL,
            script TEXT NOT NULL,
            script_sha256 TEXT NOT NULL,
            blender_version TEXT NOT NULL,
            status TEXT NOT NULL,
            report TEXT,
            render_path TEXT,
            thumbnail_path TEXT,
            phash TEXT,
            dhash TEXT,
            colour TEXT,
            source TEXT NOT NULL,
            group_id TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (script_sha256, blender_version)
        )""")
    for column in ("status", "blender_version", "source", "group_id"):
        db.execute(f"CREATE INDEX exemplars_{column} ON exemplars ({column})")
    db.execute("""
        CREATE TABLE exemplar_symbols (
            exemplar_id TEXT NOT NULL REFERENCES exemplars (id) ON DELETE CASCADE,
            symbol TEXT NOT NULL,
            PRIMARY KEY (exemplar_id, symbol)
        )""")
    db.execute("CREATE INDEX exemplar_symbols_symbol ON exemplar_symbols (symbol)")


def _m2_search(db: sqlite3.Connection) -> None:
    """BM25 full-text index (FTS5, rowid = exemplars.seq) filled from existing rows, and CLIP vectors."""
    db.execute("CREATE VIRTUAL TABLE exemplar_text USING fts5 (prompt, symbols, script, tokenize = 'porter unicode61')")
    db.execute("""
        INSERT INTO exemplar_text (rowid, prompt, symbols, script)
        SELECT e.seq, e.prompt, COALESCE((SELECT group_concat(s.symbol, ' ') FROM exemplar_symbols s WHERE s.exemplar_id = e.id), ''), e.script
        FROM exemplars e""")
    db.execute("""
        CREATE TABLE clip_vectors (
            seq INTEGER NOT NULL REFERENCES exemplars (seq) ON DELETE CASCADE,
            model TEXT NOT NULL,
            vector BLOB NOT NULL,
            PRIMARY KEY (seq, model)
        )""")


def _m3_trusted(db: sqlite3.Connection) -> None:
    """Which exemplars may teach generation: everything but user-submitted scripts, until an operator trusts them."""
    db.execute("ALTER TABLE exemplars ADD COLUMN trusted INTEGER NOT NULL DEFAULT 0")
    db.execute("UPDATE exemplars SET trusted = (source != 'user')")


def _m4_verified_by(db: sqlite3.Connection) -> None:
    """Who vouches for an exemplar: a person (recipes, imported pairs, user scripts an operator trusted) or the machine (a
    generated answer the loop accepted), so that a machine's acceptance never outranks a person's."""
    db.execute("ALTER TABLE exemplars ADD COLUMN verified_by TEXT")
    db.execute(f"UPDATE exemplars SET verified_by = {VERIFIED_BY_SQL}")


# verified_by of a new or migrated row, from its source and trust (exemplars.models.verified_by says the same in Python)
VERIFIED_BY_SQL = "CASE WHEN source = 'generated' THEN 'machine' WHEN source != 'user' OR trusted THEN 'person' END"

MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_m1_tables, _m2_search, _m3_trusted, _m4_verified_by]


def migrate(db: sqlite3.Connection, migrations: list[Callable[[sqlite3.Connection], None]] = MIGRATIONS) -> int:
    """Apply the migrations past the database's user_version, each in its own transaction; return the version."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    for number, step in enumerate(migrations[version:], start=version + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] >= number:  # another process migrated meanwhile
                db.execute("ROLLBACK")
                continue
            step(db)
            db.execute(f"PRAGMA user_version = {number}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return db.execute("PRAGMA user_version").fetchone()[0]


# Columns every query selects: the row plus its group size, symbols and whether a vector of `?` (model key) exists.
SELECT_COLUMNS = """e.seq, e.id, e.prompt, e.script, e.script_sha256, e.blender_version, e.status, e.report, e.render_path,
    e.thumbnail_path, e.phash, e.dhash, e.colour, e.source, e.group_id, e.created_at, e.trusted, e.verified_by,
    (SELECT COUNT(*) FROM exemplars g WHERE g.group_id = e.group_id) AS group_size,
    (SELECT group_concat(s.symbol, char(10)) FROM exemplar_symbols s WHERE s.exemplar_id = e.id) AS symbols,
    EXISTS (SELECT 1 FROM clip_vectors v WHERE v.seq = e.seq AND v.model = :clip_key) AS has_clip"""


def exemplar_of(row: sqlite3.Row) -> Exemplar:
    """The Exemplar of a row selected with SELECT_COLUMNS."""
    hashes = {k: row[k] for k in ("phash", "dhash", "colour") if row[k]}
    return Exemplar(
        id=row["id"],
        prompt=row["prompt"],
        script=row["script"],
        script_sha256=row["script_sha256"],
        blender_version=row["blender_version"],
        status=row["status"],
        report=RunReport.model_validate(json.loads(row["report"])) if row["report"] else None,
        render_path=row["render_path"],
        thumbnail_path=row["thumbnail_path"],
        hashes=hashes,
        clip=bool(row["has_clip"]),
        symbols=sorted(row["symbols"].split("\n")) if row["symbols"] else [],
        source=row["source"],
        group_id=row["group_id"] if row["group_size"] > 1 else None,
        group_size=row["group_size"],
        created_at=datetime.fromisoformat(row["created_at"]),
        trusted=bool(row["trusted"]),
        verified_by=row["verified_by"],
    )
