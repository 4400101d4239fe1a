"""`bpywright heal` (rules/command.py): exit codes, --json, -o and --write."""

from __future__ import annotations

import json
from pathlib import Path

from bpywright.cli import main

HEALABLE = "import bpy\nob = bpy.data.objects['Cube']\nob.select = True\nbpy.context.scene.update()\n"
BROKEN = "import bpy\nprint(1 / 0)\n"


def test_heal_prints_rounds_and_writes_output(tmp_path: Path, capsys) -> None:
    script = tmp_path / "old.py"
    script.write_text(HEALABLE)
    out = tmp_path / "new.py"
    assert main(["heal", str(script), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "round 1: object-select" in printed and "+ob.select_set(True)" in printed and "healed: the script passes" in printed
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
    assert "not healed: no rule matches this failure" in capsys.readouterr().out
    assert script.read_text() == BROKEN


def test_passing_script_needs_no_heal(tmp_path: Path, capsys) -> None:
    script = tmp_path / "fine.py"
    script.write_text("import bpy\nprint(len(bpy.data.objects))\n")
    assert main(["heal", str(script)]) == 0
    assert "nothing to heal" in capsys.readouterr().out
