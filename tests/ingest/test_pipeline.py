"""ingest() end to end: real Blender, the 4.4 inventory, bundled recipes, the real (BM25-only) index builder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpywright.config import Settings
from bpywright.ingest import pipeline
from bpywright.ingest.merge import SymbolTable, attach_examples
from bpywright.ingest.pipeline import IngestError, ingest, install, restore_interrupted
from bpywright.ingest.symbols import read_symbols

INV_44 = Path(__file__).resolve().parents[3] / "shared" / "data" / "objects_inv" / "blender_4.4_objects.inv"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Settings, pipeline.IngestResult]:
    """One ingest of the bpy wheel with the 4.4 inventory, BM25-only so that it takes seconds."""
    if not INV_44.is_file():
        pytest.skip(f"reference data missing: {INV_44}")
    root = tmp_path_factory.mktemp("artifacts")
    settings = Settings(artifacts=root, embedder="none")
    result = ingest(inventory=str(INV_44), out_root=settings.index_dir, settings=settings)
    return settings.index_dir, settings, result


@pytest.mark.blender
def test_ingest_writes_symbols_manifest_and_index(built) -> None:
    root, _, result = built
    assert not result.skipped and result.version == "4.5" and result.directory == root / "4.5"
    assert (result.directory / "symbols.jsonl").is_file() and (result.directory / "search.json").is_file()
    manifest = json.loads((result.directory / "manifest.json").read_text())
    assert manifest["blender_version"].startswith("4.5") and manifest["inventory_version"] == "4.4"
    assert set(manifest["inputs"]) >= {"inventory", "blender", "probe", "recipes", "code"}
    assert result.counts["operator"] > 2000 and result.counts["property"] > 9000 and result.counts["struct"] > 1500
    assert set(result.seconds) == {"inventory", "introspect", "merge", "examples", "write", "index"}
    assert any("describes Blender 4.4, not 4.5" in w for w in result.warnings)
    text = result.summary()
    assert str(result.directory) in text and "operator" in text and "introspect" in text
    assert not list(root.glob(".*"))  # no staging left behind


@pytest.mark.blender
def test_symbols_have_urls_and_recipe_examples(built) -> None:
    _, _, result = built
    symbols = {s.name: s for s in read_symbols(result.directory / "symbols.jsonl")}
    cube = symbols["bpy.ops.mesh.primitive_cube_add"]
    assert cube.uri == "https://docs.blender.org/api/4.4/bpy.ops.mesh.html#bpy.ops.mesh.primitive_cube_add"
    assert cube.sources == ["introspect", "inventory"] and cube.role == "py:function"
    assert cube.examples and all(line.startswith("bpy.ops.mesh.primitive_cube_add(") for line in cube.examples)
    assert symbols["bpy.types.Object.modifiers"].role == "py:data"  # the inventory's role wins
    assert any("modifiers.new(" in line for line in symbols["bpy.types.ObjectModifiers.new"].examples)
    assert symbols["bpy.types.Mesh.from_pydata"].examples
    # introspected names the 4.4 docs lack keep uri None; names only the docs list outside introspected namespaces are kept
    only_here = [s for s in symbols.values() if s.sources == ["introspect"]]
    assert only_here and all(s.uri is None for s in only_here)
    assert symbols["gpu.types.GPUShader"].sources == ["inventory"] and symbols["gpu.types.GPUShader"].kind == "class"
    # a 4.4 inventory cannot add bpy.types/bpy.ops names to a 4.5 index: introspection is complete there
    assert not any(s.sources == ["inventory"] and s.name.startswith(("bpy.types.", "bpy.ops.")) for s in symbols.values())
    assert all(s.blender_version == "4.5" for s in symbols.values())


@pytest.mark.blender
def test_second_run_is_a_no_op_and_force_rebuilds(built) -> None:
    root, settings, first = built
    symbols = first.directory / "symbols.jsonl"
    files = {p: p.stat().st_mtime_ns for p in first.directory.rglob("*") if p.is_file()}
    again = ingest(inventory=str(INV_44), out_root=root, settings=settings)  # bench/noop.py times it against a full build
    assert again.skipped
    assert again.counts == first.counts and again.directory == first.directory
    assert "up to date" in again.summary()
    assert {p: p.stat().st_mtime_ns for p in first.directory.rglob("*") if p.is_file()} == files  # nothing rewritten
    forced = ingest(inventory=str(INV_44), out_root=root, settings=settings, force=True)
    assert not forced.skipped and forced.counts == first.counts
    assert symbols.read_bytes() and (first.directory / "search.json").is_file()


@pytest.mark.blender
def test_a_failed_index_build_leaves_the_previous_index(built, monkeypatch) -> None:
    root, settings, first = built
    symbols = first.directory / "symbols.jsonl"
    before = symbols.read_bytes()

    def broken(*args, **kwargs):
        raise RuntimeError("killed")

    monkeypatch.setattr("bpywright.ingest.index.build_index", broken)
    monkeypatch.setattr(pipeline, "INGEST_FORMAT", pipeline.INGEST_FORMAT + 1)  # inputs changed: a real re-run
    monkeypatch.setattr(pipeline, "attach_examples", lambda table, sources: 0)  # …that writes different symbols
    with pytest.raises(RuntimeError, match="killed"):
        ingest(inventory=str(INV_44), out_root=root, settings=settings)
    assert symbols.read_bytes() == before
    assert (first.directory / "search.json").is_file()
    assert not list(root.glob(".*"))


@pytest.mark.blender
def test_no_inventory_and_a_bad_one(tmp_path: Path) -> None:
    settings = Settings(artifacts=tmp_path, embedder="none")
    bad = tmp_path / "objects.inv"
    bad.write_text("not an inventory\n")
    with pytest.raises(IngestError, match="not a Sphinx objects.inv"):
        ingest(inventory=str(bad), out_root=tmp_path / "index", settings=settings)
    result = ingest(out_root=tmp_path / "index", settings=settings)
    assert result.inventory_version is None and "inventory" not in result.seconds and not result.warnings
    symbols = list(read_symbols(result.directory / "symbols.jsonl"))
    assert all(s.uri is None and s.sources == ["introspect"] for s in symbols)


@pytest.mark.blender
@pytest.mark.runtimes
def test_debian_blender_gets_its_own_version_directory(blender_exe: Path, tmp_path: Path) -> None:
    settings = Settings(artifacts=tmp_path, embedder="none")
    result = ingest(blender=blender_exe, out_root=tmp_path / "index", settings=settings)
    assert result.version.startswith("3.") and result.directory == tmp_path / "index" / result.version
    assert result.counts["operator"] > 1500


def test_install_and_restore_after_a_kill_between_renames(tmp_path: Path) -> None:
    live, staging = tmp_path / "4.5", tmp_path / ".4.5.staging"
    live.mkdir()
    (live / "symbols.jsonl").write_text("old\n")
    staging.mkdir()
    (staging / "symbols.jsonl").write_text("new\n")
    install(staging, live)
    assert (live / "symbols.jsonl").read_text() == "new\n" and not staging.exists()
    live.rename(tmp_path / ".4.5.old")  # killed after moving the live directory aside
    restore_interrupted(tmp_path)
    assert (live / "symbols.jsonl").read_text() == "new\n"


def test_examples_match_operator_calls_and_unambiguous_attributes() -> None:
    table = SymbolTable("4.5")
    table.add_probe(
        {
            "structs": [
                {
                    "id": "Object",
                    "name": "",
                    "description": "",
                    "base": "ID",
                    "functions": [],
                    "members": [],
                    "properties": [
                        {
                            "id": "modifiers",
                            "name": "",
                            "description": "",
                            "type": "COLLECTION",
                            "fixed_type": "Modifier",
                            "srna": "ObjectModifiers",
                        }
                    ],
                },
                {
                    "id": "ObjectModifiers",
                    "name": "",
                    "description": "",
                    "base": None,
                    "properties": [],
                    "members": [],
                    "functions": [{"id": "new", "description": "", "params": []}],
                },
            ],
            "operators": [{"module": "mesh", "id": "primitive_cube_add", "idname": "", "name": "", "description": "", "properties": []}],
        }
    )
    source = 'import bpy\n"""Docstring mentions bpy.ops.mesh.primitive_cube_add( only."""\nbpy.ops.mesh.primitive_cube_add(size=2)\nmod = obj.modifiers.new("S", "SUBSURF")\n'
    assert attach_examples(table, [source]) == 3
    assert table.by_name["bpy.ops.mesh.primitive_cube_add"].examples == ["bpy.ops.mesh.primitive_cube_add(size=2)"]
    assert table.by_name["bpy.types.ObjectModifiers.new"].examples == ['mod = obj.modifiers.new("S", "SUBSURF")']
