"""Migrations: a fresh database gets every step; an existing one at version 1 is upgraded in place."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bpywright.exemplars.schema import MIGRATIONS, migrate
from bpywright.exemplars.store import ExemplarStore, Filters


def tables(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table')")}


def test_fresh_database_gets_every_migration(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "fresh.sqlite", isolation_level=None)
    assert migrate(db) == len(MIGRATIONS) >= 2
    assert {"exemplars", "exemplar_symbols", "exemplar_text", "clip_vectors"} <= tables(db)
    assert migrate(db) == len(MIGRATIONS)  # running again is a no-op
    db.close()


def test_store_uses_wal(tmp_path: Path) -> None:
    with ExemplarStore(tmp_path / "s.sqlite", tmp_path / "files"):
        pass
    db = sqlite3.connect(tmp_path / "s.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_existing_database_is_upgraded_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    assert migrate(db, MIGRATIONS[:1]) == 1
    assert "exemplar_text" not in tables(db)
    db.execute(
        """INSERT INTO exemplars (id, prompt, script, script_sha256, blender_version, status, source, group_id, created_at)
           VALUES ('abc', 'a lonely lighthouse', 'import bpy', 'f00', '4.5', 'ok', 'user', 'abc', '2026-01-01T00:00:00+00:00')"""
    )
    db.execute("INSERT INTO exemplar_symbols VALUES ('abc', 'bpy.ops.mesh.primitive_cylinder_add')")
    db.close()
    with ExemplarStore(path, tmp_path / "files") as store:
        old = store.get("abc")
        assert old is not None and old.prompt == "a lonely lighthouse" and old.symbols == ["bpy.ops.mesh.primitive_cylinder_add"]
        assert [h.exemplar.id for h in store.search("lighthouse")] == ["abc"]  # the FTS index was filled from old rows
        assert store.list(filters=Filters(symbol="primitive_cylinder_add")).total == 1
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_an_older_database_learns_who_vouches_for_each_row(tmp_path: Path) -> None:
    """Rows stored before verified_by existed: generated answers become the machine's, recipes, imported pairs and trusted
    user scripts a person's, untrusted user scripts nobody's."""
    path = tmp_path / "v3.sqlite"
    db = sqlite3.connect(path, isolation_level=None)
    assert migrate(db, MIGRATIONS[:3]) == 3
    for eid, source, trusted in (("g", "generated", 1), ("r", "recipe", 1), ("i", "imported", 1), ("u", "user", 0), ("t", "user", 1)):
        db.execute(
            """INSERT INTO exemplars (id, prompt, script, script_sha256, blender_version, status, source, group_id, created_at,
               trusted) VALUES (?, 'p', 'import bpy', ?, '4.5', 'ok', ?, ?, '2026-01-01T00:00:00+00:00', ?)""",
            (eid, eid, source, eid, trusted),
        )
    db.close()
    with ExemplarStore(path, tmp_path / "files") as store:
        got = {eid: store.get(eid).verified_by for eid in "griut"}  # type: ignore[union-attr]
    assert got == {"g": "machine", "r": "person", "i": "person", "u": None, "t": "person"}
