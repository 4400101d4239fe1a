"""One target version through the commands: run, heal and check use that version's runtime, stubs and rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpywright.cli import main

pytestmark = [pytest.mark.blender, pytest.mark.runtimes]

FAST_SOLVER = """\
import bpy
bpy.ops.mesh.primitive_cube_add()
cut = bpy.context.object.modifiers.new("Cut", "BOOLEAN")
cut.solver = 'FAST'
"""


def test_run_and_heal_on_the_5_2_runtime(runtime, tmp_path: Path, capsys) -> None:
    runtime("5.2")
    script = tmp_path / "solver.py"
    script.write_text(FAST_SOLVER)
    report = tmp_path / "report.json"
    assert main(["run", str(script), "--blender-version", "5.2", "--no-render", "--report", str(report)]) == 1
    data = json.loads(report.read_text())
    assert data["blender_version"].startswith("5.2") and "FAST" in data["exception"]["message"]
    assert main(["run", str(script), "--blender-version", "4.5", "--no-render", "--report", str(report)]) == 0
    healed = tmp_path / "healed.py"
    assert main(["heal", str(script), "--blender-version", "5.2", "-o", str(healed)]) == 0
    assert "cut.solver = 'FLOAT'" in healed.read_text()
    assert main(["heal", str(healed), "--target", "4.5", "-o", str(tmp_path / "back.py")]) == 0  # and back, with the old spelling
    assert "cut.solver = 'FAST'" in (tmp_path / "back.py").read_text()
    capsys.readouterr()


def test_check_matrix_gates_each_version_with_its_own_stubs(runtime, tmp_path: Path, capsys) -> None:
    runtime("5.2")
    (tmp_path / "solver.py").write_text(FAST_SOLVER)
    summary = tmp_path / "summary.json"
    code = main(
        [
            "check",
            str(tmp_path / "solver.py"),
            "--blender-version",
            "4.5",
            "--blender-version",
            "5.2",
            "--no-config",
            "--artifacts",
            str(tmp_path / "out"),
            "--json",
            str(summary),
            "-j",
            "1",
        ]
    )
    assert code == 1
    data = json.loads(summary.read_text())
    cases = {c["blender_version"][:3]: c for c in data["cases"]}
    assert cases["4.5"]["outcome"] == "passed" and cases["5.2"]["outcome"] == "failed"
    assert cases["5.2"]["lint_applies"] and any(f["code"] == "boolean-solver-float" for f in cases["5.2"]["lint"])
    assert not any(f["code"] == "boolean-solver-float" for f in cases["4.5"]["lint"])
    assert data["lint_stubs"] == "4.5, 5.2"
    capsys.readouterr()
