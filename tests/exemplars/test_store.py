"""ExemplarStore without Blender: add/get/list, filters, pagination, re-add, search, file paths, export, threads."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path

import pytest

from bpywright.exemplars.store import ExemplarStore, Filters

from .conftest import ok_report

SCRIPTS = {
    "cube": ("a red cube on a plane", "import bpy\nbpy.ops.mesh.primitive_cube_add(size=2)\nbpy.ops.mesh.primitive_plane_add(size=10)\n"),
    "monkey": (
        "Suzanne with a subdivision modifier",
        "import bpy\nbpy.ops.mesh.primitive_monkey_add()\nbpy.context.object.modifiers.new('s', 'SUBSURF')\n",
    ),
    "terrain": (
        "rolling hills from noise",
        "import bmesh\nimport bpy\nfrom mathutils import noise\nbm = bmesh.new()\nprint(noise.random())\n",
    ),
    "torus": ("a golden torus", "import bpy\nbpy.ops.mesh.primitive_torus_add()\n"),
    "broken": ("a cube that fails", "import bpy\nbpy.data.objects['Nope']\n"),
}


def fill(store: ExemplarStore) -> dict[str, str]:
    ids = {}
    for key, (prompt, script) in SCRIPTS.items():
        source = "recipe" if key in {"cube", "monkey"} else "imported"
        version = "4.2" if key == "torus" else "4.5"
        result = store.add(
            script=script,
            prompt=prompt,
            report=ok_report("error" if key == "broken" else "ok"),
            render=None,
            source=source,
            blender_version=version,
        )
        assert result.created and result.duplicate_of is None
        ids[key] = result.exemplar.id
    return ids


def test_add_get_and_symbols(store: ExemplarStore) -> None:
    ids = fill(store)
    monkey = store.get(ids["monkey"])
    assert monkey is not None and monkey.prompt == SCRIPTS["monkey"][0] and monkey.script == SCRIPTS["monkey"][1]
    assert monkey.status == "ok" and monkey.source == "recipe" and monkey.blender_version == "4.5"
    assert "bpy.ops.mesh.primitive_monkey_add" in monkey.symbols and "bpy.context.object.modifiers.new" in monkey.symbols
    assert store.get(ids["terrain"]).symbols == ["bmesh.new", "mathutils.noise.random"]  # type: ignore[union-attr]
    assert store.get("0000000000000000") is None


def test_re_adding_the_same_script_for_the_same_version_is_a_no_op(store: ExemplarStore) -> None:
    prompt, script = SCRIPTS["cube"]
    first = store.add(script=script, prompt=prompt, report=ok_report(), render=None, source="user", blender_version="4.5")
    again = store.add(script=script, prompt="another prompt", report=ok_report(), render=None, source="user", blender_version="4.5")
    assert not again.created and again.duplicate_of == first.exemplar.id and again.exemplar.prompt == prompt
    other_version = store.add(script=script, prompt=prompt, report=ok_report(), render=None, source="user", blender_version="4.2")
    assert other_version.created and other_version.exemplar.id != first.exemplar.id
    assert store.status().count == 2


def test_list_is_newest_first_with_filters_and_pages(store: ExemplarStore) -> None:
    ids = fill(store)
    page = store.list()
    assert page.total == 5 and [e.id for e in page.items] == [ids[k] for k in reversed(SCRIPTS)]
    assert [e.id for e in store.list(offset=1, limit=2).items] == [ids["torus"], ids["terrain"]]
    assert store.list(offset=4, limit=10).items[0].id == ids["cube"] and store.list(offset=5).items == []
    assert {e.id for e in store.list(filters=Filters(status="ok")).items} == {ids[k] for k in ("cube", "monkey", "terrain", "torus")}
    assert [e.id for e in store.list(filters=Filters(blender_version="4.2")).items] == [ids["torus"]]
    assert store.list(filters=Filters(source="recipe", status="ok")).total == 2
    assert store.list(filters=Filters(symbol="bpy.ops.mesh")).total == 3  # a prefix of the names
    assert [e.id for e in store.list(filters=Filters(symbol="primitive_monkey_add")).items] == [ids["monkey"]]  # a last part
    assert store.list(filters=Filters(symbol="primitive%")).total == 0  # LIKE wildcards are literal


def test_search_by_text_and_by_symbol(store: ExemplarStore) -> None:
    ids = fill(store)
    assert store.search("hills")[0].exemplar.id == ids["terrain"]
    assert store.search("Suzanne subdivision")[0].exemplar.id == ids["monkey"]
    assert store.search("primitive_torus_add")[0].exemplar.id == ids["torus"]  # a symbol, found via symbols/script
    assert store.search("bmesh")[0].exemplar.id == ids["terrain"]
    assert all(h.why == "text" and h.score > 0 for h in store.search("cube"))
    assert [h.exemplar.id for h in store.search("cube", filters=Filters(status="ok"))] == [ids["cube"]]
    assert store.search("zebra") == [] and store.search("  ") == []
    assert [e.id for e in store.nearest("a cube", "4.5")] == [ids["cube"]]  # status ok only
    assert store.nearest("torus", "4.5") == [] and store.nearest("torus", "4.2")[0].id == ids["torus"]


def test_file_refuses_paths_outside_the_files_dir(store: ExemplarStore, tmp_path: Path) -> None:
    for bad in ("../db/exemplars.sqlite", "/etc/passwd", "ab/../../x", "..", "", "a\x00b"):
        with pytest.raises(ValueError):
            store.file(bad)
    assert store.file("ab/abcd.png") == (tmp_path / "files" / "ab" / "abcd.png").resolve()


def test_export_writes_every_exemplar_as_json_lines(store: ExemplarStore) -> None:
    ids = fill(store)
    out = io.StringIO()
    assert store.export(out) == 5
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["id"] for r in rows] == list(ids.values()) and rows[0]["schema_version"] == 1


def test_adds_and_reads_from_many_threads(store: ExemplarStore) -> None:
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            script = f"import bpy\nbpy.ops.mesh.primitive_cube_add(size={n + 1})\n"
            store.add(script=script, prompt=f"cube number {n}", report=ok_report(), render=None, source="user", blender_version="4.5")
            store.list(limit=5)
            store.search("cube")
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.list().total == 12 and store.status().count == 12


def test_a_second_store_on_the_same_files_sees_the_rows(store: ExemplarStore) -> None:
    ids = fill(store)
    with ExemplarStore(store.db_path, store.files.root) as other:
        assert other.get(ids["cube"]) is not None and other.list().total == 5


def test_stores_opened_together_on_a_fresh_database_all_open(tmp_path: Path) -> None:
    """Openers that set up a fresh database together deadlock in SQLite ("database is locked" at once): a service's
    threads and a CLI beside it open the store at the same moment, and each must get through."""

    def open_it(root: Path, ready: threading.Barrier, errors: list[str]) -> None:
        try:
            ready.wait()
            with ExemplarStore(root / "exemplars.sqlite", root / "files") as opened:
                opened.list()
        except Exception as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(repr(exc))

    for trial in range(15):  # before the fix, about 1 in 10 fresh databases failed with 4 threads
        ready, errors = threading.Barrier(4), list[str]()
        threads = [threading.Thread(target=open_it, args=(tmp_path / f"t{trial}", ready, errors)) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []


def test_unknown_source_is_refused(store: ExemplarStore) -> None:
    with pytest.raises(ValueError, match="source must be one of"):
        store.add(script="x = 1", prompt="p", report=ok_report(), render=None, source="stolen", blender_version="4.5")


def test_temp_files_of_dead_writers_are_removed_at_open(tmp_path) -> None:
    import os

    from bpywright.exemplars.files import ContentFiles

    files = ContentFiles(tmp_path)
    (tmp_path / "ab").mkdir()
    dead = tmp_path / "ab" / ".abcdef.999999.1234.tmp"
    dead.write_bytes(b"half")
    live = tmp_path / "ab" / f".abcdef.{os.getpid()}.1234.tmp"
    live.write_bytes(b"being written")
    assert files.remove_orphans() == 1
    assert not dead.exists() and live.exists()
