"""`bpywright exemplars …` end to end: seed twice, list/search/show/export, import BlendNet rows, add, kill mid-import."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bpywright.exemplars.store import ExemplarStore
from bpywright.recipes import all_recipes

from .conftest import BLENDNET

pytestmark = pytest.mark.blender  # `bpywright exemplars` in a subprocess validates and renders in Blender

FAST = ["--resolution", "32", "--no-lint", "-j", "1"]


def cli(artifacts: Path, *args: str) -> subprocess.CompletedProcess:
    env = os.environ | {"BPYWRIGHT_ARTIFACTS": str(artifacts)}
    env.pop("BPYWRIGHT_CLIP_WEIGHTS", None)
    env.pop("BPYWRIGHT_CLIP_PRETRAINED", None)
    return subprocess.run([sys.executable, "-m", "bpywright", "exemplars", *args], capture_output=True, text=True, timeout=600, env=env)


def test_seed_twice_then_list_search_show_export(tmp_path: Path) -> None:
    recipes = all_recipes()
    first = cli(tmp_path, "seed", *FAST)
    assert first.returncode == 0, first.stderr
    assert f"{len(recipes)} added" in first.stdout and "0 failed" in first.stdout
    second = cli(tmp_path, "seed", *FAST)
    assert second.returncode == 0 and "0 added" in second.stdout and f"{len(recipes)} already stored" in second.stdout

    listed = json.loads(cli(tmp_path, "list", "--json", "--limit", "100").stdout)
    assert listed["total"] == len({e["group_id"] or e["id"] for e in listed["items"]}) >= len(recipes) - 2
    assert {e["prompt"] for e in listed["items"]} <= {r.prompt for r in recipes} and {e["source"] for e in listed["items"]} == {"recipe"}
    page = json.loads(cli(tmp_path, "list", "--json", "--limit", "2", "--offset", "1").stdout)
    assert [e["id"] for e in page["items"]] == [e["id"] for e in listed["items"][1:3]]

    hits = json.loads(cli(tmp_path, "search", "copper spiral tube", "--json", "-k", "3").stdout)
    assert "copper spiral" in hits[0]["exemplar"]["prompt"] and hits[0]["why"] == "text"
    by_symbol = json.loads(cli(tmp_path, "list", "--json", "--symbol", "bmesh.new").stdout)
    assert by_symbol["total"] >= 1 and all("bmesh.new" in e["symbols"] for e in by_symbol["items"])

    shown = cli(tmp_path, "show", hits[0]["exemplar"]["id"])
    assert shown.returncode == 0 and "copper spiral" in shown.stdout and "render:" in shown.stdout
    assert cli(tmp_path, "show", "0000000000000000").returncode == 1

    out = tmp_path / "export.jsonl"
    assert cli(tmp_path, "export", "-o", str(out)).returncode == 0
    assert len(out.read_text().splitlines()) == len(recipes)


def test_import_blendnet_rows_and_add(tmp_path: Path, script) -> None:
    proc = cli(tmp_path, "import", str(BLENDNET), "--limit", "4", *FAST)
    assert proc.returncode in (0, 1), proc.stderr
    rows = [json.loads(line) for line in BLENDNET.read_text(encoding="utf-8").splitlines()[:4]]
    with ExemplarStore.open(_settings(tmp_path), clip=False) as store:
        stored = store.list(limit=10).items
        count = store.status().count
    failed = int(proc.stdout.split(" failed validation")[0].rsplit(", ", 1)[1])
    assert count + failed == 4 and count >= 1
    assert {e.prompt for e in stored} <= {r["instruction"] for r in rows} and all(e.source == "imported" for e in stored)
    assert (failed > 0) == (proc.returncode == 1) and (failed == 0 or "not stored (" in proc.stderr)

    broken = cli(tmp_path, "add", str(script("import bpy\nbpy.ops.mesh.no_such_operator()\n")), "--prompt", "nothing", *FAST)
    assert broken.returncode == 1 and "not stored (error)" in broken.stderr and "1 failed validation" in broken.stdout
    assert cli(tmp_path, "add", str(tmp_path / "missing.py"), "--prompt", "x").returncode == 2
    assert cli(tmp_path, "import", str(tmp_path / "missing.jsonl")).returncode == 2


def _settings(artifacts: Path):
    import dataclasses

    from bpywright.config import Settings

    return dataclasses.replace(Settings(), artifacts=artifacts)


def test_a_killed_import_leaves_a_consistent_store(tmp_path: Path) -> None:
    env = os.environ | {"BPYWRIGHT_ARTIFACTS": str(tmp_path)}
    argv = [sys.executable, "-m", "bpywright", "exemplars", "import", str(BLENDNET), "--limit", "8", *FAST]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    db_path = tmp_path / "exemplars" / "exemplars.sqlite"
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline and proc.poll() is None:  # kill as soon as the first exemplar is in
            if db_path.exists():
                try:
                    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=1) as db:
                        if db.execute("SELECT COUNT(*) FROM exemplars").fetchone()[0] >= 1:
                            break
                except sqlite3.OperationalError:
                    pass
            time.sleep(0.05)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL  # it was killed mid-import, not finished
    with ExemplarStore.open(_settings(tmp_path), clip=False) as store:
        db = sqlite3.connect(db_path)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        count = db.execute("SELECT COUNT(*) FROM exemplars").fetchone()[0]
        assert db.execute("SELECT COUNT(*) FROM exemplar_text").fetchone()[0] == count >= 1
        for render, thumbnail in db.execute("SELECT render_path, thumbnail_path FROM exemplars"):  # files exist before their row
            assert store.file(render).is_file() and store.file(thumbnail).is_file()
    finished = cli(tmp_path, "import", str(BLENDNET), "--limit", "8", *FAST)  # the rest goes in; nothing twice
    assert f"{count} already stored" in finished.stdout, finished.stdout + finished.stderr
    with ExemplarStore.open(_settings(tmp_path), clip=False) as store:
        ids = [e.id for e in store.list(limit=100).items]
        assert len(ids) == len(set(ids))


def test_jsonl_rows_need_a_prompt_and_a_script(tmp_path: Path) -> None:
    from bpywright.exemplars.command import _read_jsonl

    path = tmp_path / "rows.jsonl"
    rows = [
        {"prompt": "a cube", "script": "import bpy"},
        {"instruction": "a cone", "script": "import bpy\n"},
        {"instruction": "no script"},
        {"prompt": "empty", "script": "  "},
        [1, 2],
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot json\n\n", encoding="utf-8")
    assert _read_jsonl(path, None) == ([("a cube", "import bpy"), ("a cone", "import bpy\n")], 4)
    assert _read_jsonl(path, 1) == ([("a cube", "import bpy")], 0)
    cadbench = BLENDNET.with_name("CADBench.jsonl")  # prompts with criteria but no scripts
    proc = cli(tmp_path, "import", str(cadbench), "--limit", "3")
    assert proc.returncode == 1 and "no rows with a prompt" in proc.stderr


def test_each_bad_row_is_named_with_its_line_and_why(tmp_path: Path) -> None:
    from bpywright.exemplars.command import read_pairs

    path = tmp_path / "rows.jsonl"
    path.write_bytes(
        b'{"prompt": "a cube", "script": "import bpy"}\n'
        b"not json\n"
        b"\n"
        b'{"instruction": "a cone"}\n'
        b'{"script": "import bpy"}\n'
        b"[1, 2]\n"
        b'{"prompt": "caf\xe9", "script": "x"}\n'
        b'{"instruction": "a cone", "script": "import bpy\\n"}\n'
    )
    items, problems = read_pairs(path, None)
    assert items == [("a cube", "import bpy"), ("a cone", "import bpy\n")]
    assert problems == [
        "line 2: not JSON (Expecting value at column 1)",
        "line 4: no script (a non-empty string field script) for 'a cone'",
        "line 5: no prompt (a non-empty string field prompt or instruction)",
        "line 6: a JSON list, not an object with prompt/instruction and script",
        "line 7: not UTF-8 text",
    ]
    proc = cli(tmp_path, "import", str(path), "--limit", "1", *FAST)  # stops at the first good row: nothing skipped yet
    assert "skipped" not in proc.stderr, proc.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"instruction": "a cone"}\n', encoding="utf-8")
    proc = cli(tmp_path, "import", str(bad))
    assert proc.returncode == 1 and "skipped bad.jsonl line 1: no script" in proc.stderr and "no rows with a prompt" in proc.stderr
