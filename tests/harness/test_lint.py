"""Static checks with the real ruff, mypy and pyright against the built stubs, cold and warm."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bpywright.harness.lint import Linter, lint_files, lint_source, render_fix_block
from bpywright.recipes import all_recipes
from bpywright.rules import rule_pack

pytestmark = pytest.mark.blender

BROKEN = textwrap.dedent(
    """
    import bpy
    import os

    obj = bpy.data.objects["Cube"]
    obj.locaton = (1.0, 2.0, 3.0)
    bpy.ops.mesh.primitive_cube_add(radius=2.0)
    bpy.context.scene.render.engine = "BLENDER_EEVEE"
    mod = obj.modifiers.new("sub", "SUBSURFACE")
    print(undefined_thing)
    mat = bpy.data.materials.new("M")
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes.get("Principled BSDF")
    bsdf.inputs["Subsurface"].default_value = 0.2
    """
).lstrip()
EXPECTED_BLOCKING_LINES = {5, 6, 7, 8, 9, 13}


@pytest.fixture(scope="module")
def broken_report():
    return lint_source(BROKEN, rules=rule_pack("4.5"))  # the drift rules and node-socket check, as callers pass them


def test_blocking_findings_on_the_right_lines(broken_report) -> None:
    assert all(t.status == "ok" for t in broken_report.tools), broken_report.tools
    assert {d.line for d in broken_report.blocking} == EXPECTED_BLOCKING_LINES
    by_line = {d.line: d for d in broken_report.blocking}
    assert "locaton" in by_line[5].message
    assert "radius" in by_line[6].message
    assert "BLENDER_EEVEE" in by_line[7].message
    assert "SUBSURFACE" in by_line[8].message
    assert by_line[9].code in ("F821", "reportUndefinedVariable", "name-defined")
    assert by_line[13].tool == "rules" and by_line[13].fix == 'use "Subsurface Weight"'


def test_unused_import_is_advisory_and_duplicates_merged(broken_report) -> None:
    unused = [d for d in broken_report.diagnostics if d.line == 2]
    assert [d.severity for d in unused] == ["advisory"] and unused[0].tool == "ruff"
    attr = [d for d in broken_report.diagnostics if d.line == 5 and d.severity == "blocking"]
    assert len(attr) == 1 and attr[0].also  # one finding, confirmed by a second tool


def test_syntax_error_is_one_blocking_finding() -> None:
    report = lint_source("import bpy\nx = (1,\n")
    assert [(d.tool, d.severity) for d in report.diagnostics] == [("syntax", "blocking")]


def test_recipes_have_no_blocking_findings() -> None:
    reports = lint_files([r.path for r in all_recipes()], rules=rule_pack("4.5"))
    flagged = {p.name: [(d.line, d.message) for d in r.blocking] for p, r in reports.items() if r.blocking}
    assert not flagged


def test_warm_linter_agrees_with_cold(broken_report) -> None:
    with Linter(rules=rule_pack("4.5")) as linter:
        first = linter.lint(BROKEN)
        second = linter.lint(BROKEN.replace("locaton", "location"))
    key = lambda r: sorted((d.line, d.severity) for d in r.diagnostics)  # noqa: E731
    assert key(first) == key(broken_report)
    assert 5 not in {d.line for d in second.blocking}


def test_fix_block_shows_context() -> None:
    report = lint_source("import bpy\n\nbpy.data.objects['Cube'].locaton = (0, 0, 0)\n", tools=("pyright",))
    block = render_fix_block("import bpy\n\nbpy.data.objects['Cube'].locaton = (0, 0, 0)\n", report)
    assert ">    3 | bpy.data.objects['Cube'].locaton = (0, 0, 0)" in block
    assert "line 3:" in block


def test_cli_lint_exit_codes_and_json(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(BROKEN)
    good = all_recipes()[0].path
    run = lambda *a: subprocess.run([sys.executable, "-m", "bpywright", "lint", *a], capture_output=True, text=True, timeout=300)  # noqa: E731
    proc = run(str(bad), "--json", "--tools", "ruff,pyright")
    assert proc.returncode == 1
    data = json.loads(proc.stdout)
    assert {d["line"] for d in data["diagnostics"] if d["severity"] == "blocking"} >= {5, 6, 9, 13}
    assert run(str(good), "--tools", "ruff").returncode == 0
    assert run(str(good), "--tools", "flake8").returncode == 2


def test_pool_and_run_attach_the_lint_report(pool, warm_linter, tmp_path: Path) -> None:
    # the caller's linter (the session's, built for the target version)
    report = pool.run(source="import bpy\nbpy.data.objects['Cube'].locaton = (0, 0, 0)\n", linter=warm_linter)
    assert report.status == "error" and report.exception.line == 2
    assert report.lint is not None and [d.line for d in report.lint.blocking] == [2]
    script = tmp_path / "s.py"
    script.write_text("import bpy\nimport math\nbpy.ops.mesh.primitive_cube_add()\n")
    proc = subprocess.run(
        [sys.executable, "-m", "bpywright", "run", str(script), "--lint", "--no-render", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    data = json.loads(proc.stdout)
    assert proc.returncode == 0 and data["status"] == "ok"
    assert [d["code"] for d in data["lint"]["diagnostics"]] == ["F401"]


def test_a_mypy_daemon_that_does_not_answer_fails_its_check_not_the_caller(monkeypatch) -> None:
    import bpywright.harness.lint as lint_module

    with Linter(tools=("ruff", "mypy")) as linter:
        monkeypatch.setattr(lint_module, "TIMEOUT", 0.001)  # a starved machine: dmypy cannot answer in time
        report = linter.lint(BROKEN)
        mypy = next(s for s in report.tools if s.tool == "mypy")
        assert mypy.status == "failed" and re.search(r"did not (start|answer a check) within", mypy.detail or "")
        assert {s.tool for s in report.tools} == {"ruff", "mypy"}  # every check still reports a status (ruff timed out too)
        monkeypatch.setattr(lint_module, "TIMEOUT", 300)
        again = linter.lint(BROKEN)  # a fresh daemon answers the next check
        assert next(s for s in again.tools if s.tool == "mypy").status == "ok"
        assert any(d.tool == "mypy" for d in again.diagnostics)


def test_a_hung_mypy_daemon_is_killed_and_replaced_and_the_check_still_answers(monkeypatch) -> None:
    """A daemon that stops answering (here: frozen with SIGSTOP) is taken for hung after HANG_S, killed, and a fresh one
    answers the same check: one hang costs a request HANG_S, not its whole budget and a failed lint."""
    import signal

    import bpywright.harness.lint as lint_module

    with Linter(tools=("mypy",)) as linter:
        assert next(s for s in linter.lint(BROKEN).tools if s.tool == "mypy").status == "ok"
        hung = linter._daemon
        assert hung is not None
        os.kill(hung.pid, signal.SIGSTOP)
        monkeypatch.setattr(lint_module, "HANG_S", 3)
        report = linter.lint(BROKEN)
        mypy = next(s for s in report.tools if s.tool == "mypy")
        assert mypy.status == "ok", mypy.detail
        assert any(d.tool == "mypy" for d in report.diagnostics)
        assert hung.poll() is not None  # the frozen daemon was killed, not left behind
        assert linter._daemon is not None and linter._daemon.pid != hung.pid


def test_a_dmypy_daemon_that_idled_out_is_restarted_and_none_outlives_its_idle_time(monkeypatch) -> None:
    """An owner killed without close() must not leave its daemon running forever: it exits after DMYPY_IDLE_S idle."""
    import time

    from bpywright.harness import lint as lint_module

    monkeypatch.setattr(lint_module, "DMYPY_IDLE_S", 3)
    with Linter(tools=("mypy",)) as linter:
        first = linter.lint("import bpy\nx: int = 'a'\n")
        assert [t.status for t in first.tools] == ["ok"] and any(d.tool == "mypy" for d in first.diagnostics)
        pid = json.loads(linter._status.read_text())["pid"]  # watched from outside: asking the daemon would reset its idle clock
        deadline = time.monotonic() + 60
        while Path(f"/proc/{pid}").exists() and " Z " not in Path(f"/proc/{pid}/stat").read_text() and time.monotonic() < deadline:
            time.sleep(1)  # the daemon shuts itself down after 3 s idle
        stat = Path(f"/proc/{pid}/stat").read_text() if Path(f"/proc/{pid}").exists() else ""
        assert not stat or stat[stat.rfind(")") + 2] == "Z"  # gone, or a zombie its owner reaps (it is our child now)
        again = linter.lint("import bpy\ny: str = 1\n")
        assert [t.status for t in again.tools] == ["ok"] and any(d.tool == "mypy" for d in again.diagnostics)
