"""search and api-check read the index of the version they are given (--blender-version), and say how to build a missing one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpywright.cli import main
from bpywright.config import Settings
from bpywright.ingest.index import build_index
from bpywright.ingest.symbols import Symbol, write_symbols

pytestmark = pytest.mark.blender

COMMON = {
    "bpy.types.Context": ("struct", "Current windowmanager and data context", None),
    "bpy.types.Context.scene": ("property", "Active scene", "pointer to Scene"),
    "bpy.types.Scene": ("struct", "Scene data-block, consisting in objects and defining time and render related settings", None),
    "bpy.ops.mesh.primitive_cube_add": ("operator", "Construct a cube mesh", None),
}
ONLY = {
    "4.2": {"bpy.types.Scene.node_tree": ("property", "Compositing node tree", "pointer to NodeTree")},
    "5.0": {"bpy.types.Scene.compositing_node_group": ("property", "Compositor node group of the scene", "pointer to NodeTree")},
}
SCRIPT = "import bpy\n\ntree = bpy.context.scene.node_tree\ngroup = bpy.context.scene.compositing_node_group\n"


@pytest.fixture
def artifacts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """BM25 indexes of two versions that differ in the compositor's scene property, where the CLI's settings find them."""
    root = tmp_path / "artifacts"
    for version, only in ONLY.items():
        folder = root / "index" / version
        folder.mkdir(parents=True)
        symbols = [
            Symbol(name=name, kind=kind, description=text, blender_version=version, type=type_)
            for name, (kind, text, type_) in (COMMON | only).items()
        ]
        write_symbols(symbols, folder / "symbols.jsonl")
        build_index(folder, settings=Settings(embedder="none"))
    monkeypatch.setenv("BPYWRIGHT_ARTIFACTS", str(root))
    monkeypatch.setenv("BPYWRIGHT_EMBEDDER", "none")
    return root


def test_api_check_uses_the_named_version(artifacts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "compositor.py"
    script.write_text(SCRIPT)
    found = {}
    for version in ONLY:
        assert main(["api-check", str(script), "--blender-version", version, "--json"]) == 1
        found[version] = [(d["line"], d["message"]) for d in json.loads(capsys.readouterr().out)["diagnostics"]]
    assert found["4.2"] == [
        (4, '"compositing_node_group" is not in Blender 4.2 (bpy.context.scene.compositing_node_group); it exists in Blender 5.0')
    ]
    assert found["5.0"] == [(3, '"node_tree" is not in Blender 5.0 (bpy.context.scene.node_tree); it exists in Blender 4.2')]


def test_search_uses_the_named_version(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = {}
    for version in ONLY:
        assert main(["search", "compositor node", "--blender-version", version, "--json", "-k", "2"]) == 0
        names[version] = [h["symbol"]["name"] for h in json.loads(capsys.readouterr().out)]
    assert names["4.2"][0] == "bpy.types.Scene.node_tree" and "bpy.types.Scene.compositing_node_group" not in names["4.2"]
    assert names["5.0"][0] == "bpy.types.Scene.compositing_node_group" and "bpy.types.Scene.node_tree" not in names["5.0"]


def test_a_version_without_an_index_names_the_command_that_builds_it(
    artifacts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "compositor.py"
    script.write_text(SCRIPT)
    for argv in (["search", "cube"], ["api-check", str(script)]):
        assert main([*argv, "--blender-version", "5.2"]) == 1
        err = capsys.readouterr().err
        assert f"no symbol index for Blender 5.2 in {artifacts / 'index' / '5.2'}" in err
        assert "run `bpywright ingest --blender-version 5.2`" in err and "`bpywright blender add 5.2`" in err
