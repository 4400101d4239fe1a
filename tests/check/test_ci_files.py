"""The users' CI pieces: the composite action's shell steps run for real, the workflow, pre-commit hooks, Dockerfile."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bpywright.cli import build_parser

from .conftest import write_tree

REPO = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((REPO / "ci" / "action.yml").read_text())
EXPRESSION = re.compile(r"\$\{\{\s*(.+?)\s*\}\}")


def _step(name: str) -> dict:
    return next(s for s in ACTION["runs"]["steps"] if s.get("name", "").startswith(name) or s.get("id") == name)


def _evaluate(expr: str, inputs: dict[str, str], temp: Path) -> str:
    """The few GitHub expressions the action's run steps use: inputs.X, runner.temp, `inputs.X == 'v' && 'a' || 'b'`."""
    if m := re.fullmatch(r"inputs\.([\w-]+) == '(\w*)' && '(\w*)' \|\| '(\w*)'", expr):
        return m[3] if inputs[m[1]] == m[2] else m[4]
    if m := re.fullmatch(r"inputs\.([\w-]+)", expr):
        return inputs[m[1]]
    assert expr == "runner.temp", f"unexpected expression in a run step: {expr}"
    return str(temp)


def _run_step(name: str, inputs: dict[str, str], tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    step = _step(name)
    assert step["shell"] == "bash"
    script = EXPRESSION.sub(lambda m: _evaluate(m[1], inputs, tmp_path), step["run"])
    step_env = {k: EXPRESSION.sub(lambda m: _evaluate(m[1], inputs, tmp_path), str(v)) for k, v in step.get("env", {}).items()}
    path = f"{Path(sys.executable).parent}:{os.environ['PATH']}"
    return subprocess.run(
        ["bash", "-e", "-c", script],
        env=os.environ | {"PATH": path} | env | step_env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.blender
def test_action_check_step_builds_a_working_command_line(tmp_path: Path) -> None:
    write_tree(
        tmp_path / "scenes",
        {"ok.py": "import bpy\nbpy.ops.mesh.primitive_cube_add()\n", "bad.py": "import bpy\n\nbpy.data.objects['Nope']\n"},
    )
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    inputs |= {"paths": "scenes/ok.py\nscenes/bad.py", "lint": "false", "resolution": "48", "args": "--jobs 1", "timeout": "30"}
    outputs, summary = tmp_path / "github_output", tmp_path / "step_summary"
    env = {"GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary)}
    proc = _run_step("check", inputs, tmp_path, env)
    assert proc.returncode == 0, proc.stderr  # the step records the exit code; a later step fails the job
    assert outputs.read_text().split() == ["exit-code=1", "outputs-safe=true"]
    junit = tmp_path / inputs["junit"]
    assert junit.is_file() and 'tests="2"' in junit.read_text() and 'failures="1"' in junit.read_text()
    assert (tmp_path / inputs["artifacts"] / "contact-sheet.png").is_file()

    proc = _run_step("Job summary", inputs, tmp_path, env)
    assert proc.returncode == 0, proc.stderr
    table = summary.read_text()
    assert "1 passed, 1 failed, 0 errors" in table and "| `scenes/bad.py` |" in table and "KeyError" in table


def test_action_uploads_the_artifacts_and_fails_the_job_on_the_exit_code() -> None:
    assert ACTION["runs"]["using"] == "composite"
    upload = next(s for s in ACTION["runs"]["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["if"] == "always() && steps.check.outputs.outputs-safe == 'true'"
    assert "${{ inputs.artifacts }}" in upload["with"]["path"] and "${{ inputs.junit }}" in upload["with"]["path"]
    fail = _step("Fail when")
    assert fail["if"] == "steps.check.outputs.exit-code != '0'"
    install = _step("Install bpywright")["run"]
    assert "make -C" in install and "venv typings" in install  # the project's own setup targets
    makefile = (REPO / "Makefile").read_text()
    assert re.search(r"^venv:", makefile, re.M) and re.search(r"^typings:", makefile, re.M)


def test_example_workflow_uses_the_action_with_known_inputs() -> None:
    workflow = yaml.safe_load((REPO / "ci" / "example-workflow.yml").read_text())
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    ours = next(s for s in steps if s.get("uses", "").split("@")[0].endswith("/bpywright/ci"))
    assert set(ours["with"]) <= set(ACTION["inputs"])


def test_pre_commit_hooks_run_bpywright_lint_on_python_files(tmp_path: Path) -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hooks and all(h["types"] == ["python"] for h in hooks)
    script = write_tree(tmp_path, {"scene.py": "import bpy\n\nbpy.ops.mesh.primitive_cube_add()\n"}) / "scene.py"
    for hook in hooks:
        argv = shlex.split(hook["entry"])
        assert argv[:2] == ["bpywright", "lint"]
        build_parser().parse_args([*argv[1:], str(script)])  # pre-commit appends the changed files
    # what the hook runs, on a clean script and a broken one
    bpywright = str(Path(sys.executable).parent / "bpywright")
    ok = subprocess.run([bpywright, "lint", "--tools", "ruff", str(script)], capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stdout
    broken = write_tree(tmp_path, {"broken.py": "import bpy\ndef f(:\n"}) / "broken.py"
    assert subprocess.run([bpywright, "lint", "--tools", "ruff", str(broken)], capture_output=True, timeout=300).returncode == 1


@pytest.mark.model  # `make -n` still runs a recipe line that calls $(MAKE): the llama.cpp self-test, where setup is stale
def test_dockerfile_steps_are_make_setup() -> None:
    text = (REPO / "Dockerfile").read_text()
    lines = re.sub(r"\\\n\s*", " ", text).splitlines()
    for line in (ln for ln in lines if ln.startswith("COPY ")):
        for source in line.split()[1:-1]:
            assert (REPO / source).exists(), f"Dockerfile copies a missing path: {source}"
    make_calls = [m.strip() for ln in lines if ln.startswith("RUN ") for m in re.findall(r"(?:^RUN |&& )make ([^&;]+)", ln)]
    assert make_calls == ["setup PYTHON=python3.11 SYSTEM_PACKAGES=bubblewrap:bwrap"]
    makefile = (REPO / "Makefile").read_text()
    assert "bubblewrap:bwrap" in re.search(r"^SYSTEM_PACKAGES :?= (.*)$", makefile, re.M)[1]
    dry = subprocess.run(["make", "-n", "-C", str(REPO), *make_calls[0].split()], capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    # every bpywright command the image runs at build time or by default parses
    calls = [c for ln in lines if ln.startswith("RUN ") for c in re.findall(r"bpywright ((?:lint|ingest)[^&;]*)", ln)]
    assert len(calls) == 2
    for call in calls:
        build_parser().parse_args(shlex.split(call.replace("; fi", "")))
    cmd = re.search(r"^CMD (.*)$", text, re.M)[1]
    args = build_parser().parse_args(yaml.safe_load(cmd))
    assert (args.command, args.host) == ("serve", "0.0.0.0")
    assert re.search(r'^ENTRYPOINT \["bpywright"\]', text, re.M)


def test_a_committed_artifacts_link_fails_the_check_and_is_never_uploaded(tmp_path: Path) -> None:
    write_tree(tmp_path / "scenes", {"bad.py": "import bpy\nraise RuntimeError('broken')\n"})
    (tmp_path / "pyproject.toml").write_text('[tool.bpywright]\nexpected-failures = ["bad.py"]\n')
    secrets = tmp_path.parent / f"{tmp_path.name}-secrets"
    secrets.mkdir()
    (secrets / "id_rsa").write_text("not for the artifact")
    (tmp_path / "bpywright-check").symlink_to(secrets)  # the pull request committed the default output folder as a link
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()} | {"paths": "scenes"}
    assert inputs["allow-expected-failures"] == "false" and "--allow-expected-failures" in _step("check")["run"]
    outputs = tmp_path / "github_output"
    proc = _run_step("check", inputs, tmp_path, {"GITHUB_OUTPUT": str(outputs)})
    assert proc.returncode == 0, proc.stderr
    assert outputs.read_text().split() == ["exit-code=2", "outputs-safe=false"]
    assert "passes through the symbolic link" in proc.stderr and sorted(p.name for p in secrets.iterdir()) == ["id_rsa"]
    assert "outputs-safe == 'true'" in _step("Job summary")["if"]
