"""`bpywright heal` (rules/command.py): exit codes, --json, -o and --write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpywright.cli import main

pytestmark = pytest.mark.blender

HEALABLE = "import bpy\nob = bpy.data.objects['Cube']\nob.select = True\nbpy.context.scene.update()\n"
BROKEN = "import bpy\nprint(1 / 0)\n"


def test_heal_prints_rounds_and_writes_output(tmp_path: Path, capsys) -> None:
    script = tmp_path / "old.py"
    script.write_text(HEALABLE)
    out = tmp_path / "new.py"
    assert main(["heal", str(script), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert (
        "round 1" in printed
        and ": object-select (line " in printed
        and "+ob.select_set(True)" in printed
        and "healed: the script passes" in printed
    )
    assert "ob.select_set(True)" in out.read_text() and script.read_text() == HEALABLE


def test_heal_json_and_write_in_place(tmp_path: Path, capsys) -> None:
    script = tmp_path / "old.py"
    script.write_text(HEALABLE)
    assert main(["heal", str(script), "--json", "--write"]) == 0
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["healed"] and outcome["status_before"] == "error" and outcome["rounds"][0]["status"] == "ok"
    assert script.read_text() == outcome["script"] != HEALABLE


def test_unhealable_script_exits_one_and_is_not_rewritten(tmp_path: Path, capsys) -> None:
    script = tmp_path / "bug.py"
    script.write_text(BROKEN)
    assert main(["heal", str(script), "--write"]) == 1
    printed = capsys.readouterr().out
    assert "not healed: no rule matches this failure (stopped: no rule explains this failure at bug.py, line " in printed
    assert script.read_text() == BROKEN


def test_passing_script_needs_no_heal(tmp_path: Path, capsys) -> None:
    script = tmp_path / "fine.py"
    script.write_text("import bpy\nprint(len(bpy.data.objects))\n")
    assert main(["heal", str(script)]) == 0
    assert "nothing to heal" in capsys.readouterr().out


def test_heal_opens_its_pool_through_the_factory_on_the_cluster_asked(tmp_path: Path, monkeypatch, capsys) -> None:
    from bpywright.cluster.spec import ClusterSpec
    from bpywright.harness.report import RunReport

    opened: list[tuple] = []

    class OnePool:  # what open_pool hands back: the heal only runs (lint is the caller's, passed as linter=)
        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def run(self, script=None, options=None, *, source=None, as_file=None, render_to=None, linter=None) -> RunReport:
            # the script runs as itself in a staged copy of its project (the original is never touched while healing)
            assert source is not None and as_file.name == script_path.name and as_file != script_path and linter is None
            assert options.root == as_file.parent
            return RunReport(status="ok", backend="bpy-module", sandbox="rlimits-only", blender_version="4.5.0")  # type: ignore[arg-type]

    def open_pool(options, *, cluster=None, jobs=None, default_jobs=None, at_most=None):
        opened.append((cluster, jobs, at_most, options.render))
        return OnePool()

    monkeypatch.setattr("bpywright.cluster.factory.open_pool", open_pool)
    script_path = tmp_path / "fine.py"
    script_path.write_text("import bpy\n")
    assert main(["heal", str(script_path), "--cluster", "ray://10.0.0.5:10001"]) == 0
    assert opened == [(ClusterSpec("ray://10.0.0.5:10001"), 1, 1, False)]
    assert "nothing to heal" in capsys.readouterr().out


def test_heal_refuses_a_malformed_cluster(tmp_path: Path, capsys) -> None:
    script = tmp_path / "fine.py"
    script.write_text("import bpy\n")
    with pytest.raises(SystemExit) as exited:
        main(["heal", str(script), "--cluster", "http://x/y"])
    assert exited.value.code == 2
    assert "expected auto, ray://HOST:PORT" in capsys.readouterr().err
