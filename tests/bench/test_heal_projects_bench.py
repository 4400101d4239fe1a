"""The real-project heal bench writes each pinned project from the cache (sha256 checked) with its entries where the
manifest puts them, and every corpus manifest names entries that are among its files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bench.corpus import cache_path
from bench.heal_projects import materialise

CORPORA = Path(__file__).resolve().parents[2] / "bench" / "corpora"


def _manifest(cache: Path, files: dict[str, bytes]) -> dict:
    scripts = []
    for path, data in files.items():
        entry = {"repo": "someone/maze-scripts", "commit": "0" * 40, "path": path, "sha256": hashlib.sha256(data).hexdigest()}
        cache_path(cache, entry).parent.mkdir(parents=True, exist_ok=True)
        cache_path(cache, entry).write_bytes(data)
        scripts.append(entry)
    project = {"repo": "someone/maze-scripts", "commit": "0" * 40, "root": "", "entries": ["old/maze.py", "new/maze.py"]}
    return {"projects": [project], "scripts": scripts}


def test_a_project_is_written_from_the_cache_with_entries_in_their_folders(tmp_path: Path) -> None:
    files = {"old/maze.py": b"import bpy\n", "new/maze.py": b"import bpy\nimport utils\n", "new/utils.py": b"X = 1\n"}
    manifest = _manifest(tmp_path / "cache", files)
    [(root, entries, label)] = materialise(manifest, tmp_path / "cache", tmp_path / "out")
    assert entries == ["old/maze.py", "new/maze.py"] and label == "maze-scripts@0000000"
    assert {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.py")} == files


def test_a_changed_cache_file_stops_the_bench(tmp_path: Path) -> None:
    manifest = _manifest(tmp_path / "cache", {"maze.py": b"import bpy\n"})
    cache_path(tmp_path / "cache", manifest["scripts"][0]).write_bytes(b"import os\n")
    with pytest.raises(SystemExit, match="changed in the cache"):
        materialise(manifest, tmp_path / "cache", tmp_path / "out")


@pytest.mark.parametrize("name", ["heal_projects.json", "heal_generators.json", "heal_holdout.json"])
def test_every_entry_of_a_corpus_is_one_of_its_pinned_files(name: str) -> None:
    manifest = json.loads((CORPORA / name).read_text(encoding="utf-8"))
    for project in manifest["projects"]:
        pinned = {s["path"] for s in manifest["scripts"] if (s["repo"], s["commit"]) == (project["repo"], project["commit"])}
        prefix = f"{project['root']}/" if project["root"] else ""
        assert {prefix + e for e in project["entries"]} <= pinned, project["repo"]
        assert len(project["commit"]) == 40 and project["about"]
