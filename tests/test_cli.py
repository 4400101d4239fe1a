"""The console script: exit codes, summaries, JSON, batch mode, doctor, and lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BPYWRIGHT = [sys.executable, "-m", "bpywright"]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*BPYWRIGHT, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


@pytest.mark.blender
def test_run_ok_exits_zero_and_writes_report_and_render(script, tmp_path: Path) -> None:
    path = script("import bpy\nbpy.ops.mesh.primitive_cone_add()\n")
    proc = cli("run", str(path), "--report", str(tmp_path / "r.json"), "--render", str(tmp_path / "r.png"), "--resolution", "64")
    assert proc.returncode == 0, proc.stderr
    assert "OK" in proc.stdout and "non-blank" in proc.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["status"] == "ok" and report["render"]["path"] == str((tmp_path / "r.png").resolve())


@pytest.mark.blender
def test_run_failure_exits_one_and_shows_the_line(script) -> None:
    proc = cli("run", str(script("import bpy\nbpy.data.objects['Nope']\n")), "--no-render")
    assert proc.returncode == 1
    assert "KeyError: " in proc.stdout and "(line 2)" in proc.stdout
    assert "2 | bpy.data.objects['Nope']" in proc.stdout


@pytest.mark.blender
def test_json_output_is_the_report(script) -> None:
    proc = cli("run", str(script("print('hi')\n")), "--no-render", "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["stdout"] == "hi\n"


def test_usage_errors_exit_two(script, tmp_path: Path) -> None:
    assert cli("run", str(tmp_path / "missing.py")).returncode == 2
    assert cli("run", str(script("print(1)\n")), "--engine", "povray").returncode == 2
    assert cli("run", str(script("print(1)\n")), "--timeout", "-1").returncode == 2
    two = [str(script("print(1)\n", "a.py")), str(script("print(2)\n", "b.py"))]
    assert cli("run", *two, "--report", str(tmp_path / "x.json")).returncode == 2
    assert cli().returncode == 2


@pytest.mark.blender
def test_batch_runs_through_pool(script, tmp_path: Path) -> None:
    good = script("import bpy\nbpy.ops.mesh.primitive_cube_add()\n", "good.py")
    bad = script("raise RuntimeError('nope')\n", "bad.py")
    proc = cli("run", str(good), str(bad), "--out-dir", str(tmp_path / "out"), "--resolution", "32", "-j", "2")
    assert proc.returncode == 1
    assert "1 passed, 1 failed" in proc.stdout
    assert json.loads((tmp_path / "out" / "bad.json").read_text())["exception"]["message"] == "nope"
    assert (tmp_path / "out" / "good.png").is_file() and not (tmp_path / "out" / "bad.png").exists()


@pytest.mark.blender
@pytest.mark.runtimes
@pytest.mark.model
def test_doctor_reports_backend_and_fixes() -> None:
    proc = cli("doctor", "--json")
    checks = {c["name"]: c for c in json.loads(proc.stdout)}
    assert checks["blender (bpy module)"]["state"] == "ok" and "4.5" in checks["blender (bpy module)"]["detail"]
    assert {"sandbox", "stubs", "symbol index", "embedder", "llm endpoint", "clip"} <= set(checks)
    assert checks["embedder"]["state"] == "ok" and "sentence-transformers" in checks["embedder"]["detail"]
    assert all(c["fix"] for c in checks.values() if c["state"] != "ok")
    assert proc.returncode == 0


@pytest.mark.blender
@pytest.mark.runtimes
def test_doctor_flags_an_unreachable_llm(monkeypatch) -> None:
    monkeypatch.setenv("BPYWRIGHT_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    proc = cli("doctor")
    assert proc.returncode == 1
    assert "unreachable" in proc.stdout and "fix:" in proc.stdout


def test_help_does_not_import_heavy_modules() -> None:
    code = (
        "import sys\nfrom bpywright.cli import build_parser\nbuild_parser().format_help()\n"
        "heavy = {'bpy', 'numpy', 'torch', 'PIL', 'faiss', 'open_clip', 'sentence_transformers', 'mcp', 'mcp_types',\n"
        "         'libcst', 'tqdm', 'ray', 'langgraph', 'fastapi', 'http.client'} & set(sys.modules)\n"
        "print(sorted(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "[]"


def test_generate_progress_escapes_what_a_script_or_model_wrote(capsys) -> None:
    """A progress line carries text a script raised or a model wrote: OSC 52 (clipboard), a window title and a screen
    clear reach the terminal escaped, not as control sequences."""
    from bpywright.graph.command import _show
    from bpywright.graph.loop.events import ProgressEvent

    hostile = "ValueError: \x1b]52;c;cm0gLXJmIH4=\x07 \x1b]0;owned\x07 \x1b[2J"
    _show(ProgressEvent(thread_id="t", node="run", attempt=1, status="error", detail=hostile))
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "\\x1b]52;c;cm0gLXJmIH4=\\x07" in err and "ValueError" in err
