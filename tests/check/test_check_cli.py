"""`bpywright check` on a folder of good and broken scripts: JUnit, JSON summary, artifacts, contact sheet, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from bpywright.check.contact_sheet import sheet_size
from bpywright.harness.report import RunReport

from .conftest import SMALL, junit_cases, sheet_outcomes, write_tree

SCRIPTS = {
    "good_cube.py": """
        import bpy
        bpy.ops.mesh.primitive_cube_add(size=1.5, location=(0, 0, 1))
    """,
    "good_monkey.py": """
        import bpy
        bpy.ops.mesh.primitive_monkey_add()
    """,
    "advisory_only.py": """
        import os

        import bpy

        bpy.ops.mesh.primitive_cone_add()
    """,
    "raises.py": """
        import bpy

        tower = bpy.data.objects["Cube"]
        tower.location.z = 2
        raise ValueError("the tower fell over")
    """,
    "syntax_error.py": """
        import bpy

        def broken(:
            pass
    """,
    "lint_and_runtime.py": """
        import bpy

        mesh = bpy.data.objects["Cube"].data
        mesh.use_auto_smooth = True
    """,
    "slow.py": """
        import time

        import bpy

        while True:
            time.sleep(0.5)
    """,
    # not checked: no bpy import, and a virtual environment / hidden folder
    "notes/helper.py": "print('not a bpy script')\n",
    ".venv/lib/site.py": "import bpy\n",
}


@pytest.fixture(scope="module")
def folder_run(tmp_path_factory):
    """One real run (the console script in a subprocess) over the folder, --fail-on blocking."""
    root = tmp_path_factory.mktemp("check")
    scripts = write_tree(root / "scripts", SCRIPTS)
    argv = [
        sys.executable,
        "-m",
        "bpywright",
        "check",
        str(scripts),
        *SMALL,
        "--timeout",
        "10",
        "--junit",
        str(root / "out.xml"),
        "--json",
        str(root / "summary.json"),
        "--artifacts",
        str(root / "artifacts"),
    ]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=900, cwd=root)
    return root, proc


@pytest.mark.blender
def test_exit_code_is_one_under_fail_on_blocking(folder_run) -> None:
    _, proc = folder_run
    assert proc.returncode == 1, proc.stderr
    assert "4 passed, 3 failed, 1 errors" not in proc.stdout  # 3 pass: the advisory-only script passes under blocking
    assert "3 passed, 3 failed, 1 errors" in proc.stdout, proc.stdout


@pytest.mark.blender
def test_junit_counts_and_names(folder_run) -> None:
    root, _ = folder_run
    suites = ET.parse(root / "out.xml").getroot()
    assert (suites.get("tests"), suites.get("failures"), suites.get("errors"), suites.get("skipped")) == ("7", "3", "1", "0")
    cases = junit_cases(root / "out.xml")
    assert len(cases) == 7
    label = next(iter(suites)).get("name")
    assert label.startswith("blender-4.5.")
    assert all(c.get("classname") == label and c.get("name").endswith(f"[{label}]") for c in cases.values())
    assert not any("helper.py" in name or "site.py" in name for name in cases)


@pytest.mark.blender
def test_junit_failure_messages_carry_exception_and_line(folder_run) -> None:
    root, _ = folder_run
    cases = {Path(name.split(" ")[0]).name: case for name, case in junit_cases(root / "out.xml").items()}
    failure = cases["raises.py"].find("failure")
    assert failure is not None and failure.get("type") == "ValueError"
    assert failure.get("message") == "ValueError: the tower fell over (line 5)"
    assert cases["raises.py"].get("line") == "5"
    assert 'raise ValueError("the tower fell over")' in cases["raises.py"].find("system-out").text

    syntax = cases["syntax_error.py"].find("failure")
    assert syntax is not None and syntax.get("type") == "SyntaxError" and cases["syntax_error.py"].get("line") == "3"

    lint_fail = cases["lint_and_runtime.py"].find("failure")
    assert lint_fail.get("type") == "AttributeError" and "use_auto_smooth" in lint_fail.get("message")
    assert "blocking lint line 4" in lint_fail.text  # the lint finding is among the reasons

    error = cases["slow.py"].find("error")
    assert error is not None and cases["slow.py"].find("failure") is None
    assert "10" in error.get("message")

    for name in ("good_cube.py", "good_monkey.py", "advisory_only.py"):
        assert cases[name].find("failure") is None and cases[name].find("error") is None
    props = {p.get("name"): p.get("value") for p in cases["advisory_only.py"].iter("property")}
    assert props["lint_advisory"] == "1" and "`os` imported but unused" in props["advisory_1"]


@pytest.mark.blender
def test_json_summary(folder_run) -> None:
    root, _ = folder_run
    summary = json.loads((root / "summary.json").read_text())
    assert summary["schema_version"] == 1 and summary["exit_code"] == 1 and summary["fail_on"] == "blocking"
    assert summary["lint_stubs"] == "4.5"
    assert summary["counts"]["total"] == 7
    assert {k: summary["counts"][k] for k in ("passed", "failed", "error", "xfail", "xpass")} == {
        "passed": 3,
        "failed": 3,
        "error": 1,
        "xfail": 0,
        "xpass": 0,
    }
    by_name = {c["script"].removeprefix("scripts/"): c for c in summary["cases"]}
    assert all(c["script"].startswith("scripts/") for c in summary["cases"])  # relative to the working directory
    assert set(by_name) == {name for name in SCRIPTS if "/" not in name}
    assert by_name["raises.py"]["line"] == 5 and by_name["raises.py"]["status"] == "error"
    assert by_name["slow.py"]["status"] == "timeout" and by_name["slow.py"]["outcome"] == "error"
    lint_case = by_name["lint_and_runtime.py"]
    assert lint_case["lint_applies"] and any(f["severity"] == "blocking" and f["line"] == 4 for f in lint_case["lint"])
    assert by_name["advisory_only.py"]["outcome"] == "passed" and by_name["advisory_only.py"]["advisory"]
    assert json.loads((root / "artifacts" / "summary.json").read_text()) == summary


@pytest.mark.blender
def test_artifacts_reports_renders_and_contact_sheet(folder_run) -> None:
    root, _ = folder_run
    summary = json.loads((root / "summary.json").read_text())
    label = summary["targets"][0]["label"]
    for case in summary["cases"]:
        report = RunReport.model_validate_json(Path(case["report"]).read_text())
        assert Path(case["report"]) == root / "artifacts" / label / case["script"].replace(".py", ".json")
        assert report.status == case["status"]
        assert report.lint is not None  # the lint travels with the report
        if case["outcome"] == "passed":
            with Image.open(case["render"]) as image:
                assert image.size == (64, 64)
        else:
            assert case["render"] is None
    sheet = root / "artifacts" / "contact-sheet.png"
    assert summary["contact_sheet"] == str(sheet)
    with Image.open(sheet) as image:
        assert image.size == sheet_size(7)
    # cells in script order, each marked with its outcome's colour
    assert sheet_outcomes(sheet, 7) == ["passed", "passed", "passed", "failed", "failed", "error", "failed"]


@pytest.mark.blender
def test_fail_on_never_exits_zero_but_reports_the_failure(check, tmp_path: Path) -> None:
    folder = write_tree(tmp_path / "s", {"raises.py": SCRIPTS["raises.py"], "good.py": SCRIPTS["good_cube.py"]})
    no_baseline = tmp_path / "no-baseline-yet"
    run = check(
        str(folder), *SMALL, "--no-lint", "--fail-on", "never", "--junit", str(tmp_path / "out.xml"), "--baseline", str(no_baseline)
    )
    assert run.rc == 0
    assert run.summary["counts"]["failed"] == 1 and run.summary["exit_code"] == 0
    # a baseline folder that does not exist yet (a first CI run) is noted, not an error
    assert "does not exist yet" in run.err and run.summary["counts"]["baseline_missing"] == 1
    assert ET.parse(tmp_path / "out.xml").getroot().get("failures") == "1"
    assert run.summary["lint_stubs"] is None and run.case("raises.py")["lint"] == []
