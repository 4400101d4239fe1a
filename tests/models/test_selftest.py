"""`bpywright model selftest`: the compiled llama.cpp completes on this CPU, and a build that dies is told apart."""

from __future__ import annotations

import dataclasses
import stat
from pathlib import Path

import pytest

from bpywright.cli import main
from bpywright.doctor import check_llama_build
from bpywright.models.selftest import BuildCrashed, SelfTestFailed, selftest

from ..real_llm import model_settings

pytestmark = pytest.mark.blender


def interpreter(tmp_path: Path, body: str) -> str:
    """A stand-in for the venv's python: a shell script that ends as body says (the child's death is real)."""
    path = tmp_path / "python"
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.model
def test_the_real_build_completes_greedily(smollm2) -> None:
    result = selftest(smollm2.model_path)
    assert result.prompt_tokens > 100 and result.tokens >= 1 and result.text.strip() and result.seconds > 0


@pytest.mark.model
def test_the_cli_says_the_build_runs(smollm2, capsys, monkeypatch) -> None:
    monkeypatch.setenv("BPYWRIGHT_ARTIFACTS", str(smollm2.model_path.parent.parent))
    assert main(["model", "selftest", "smollm2-135m"]) == 0
    assert "llama.cpp runs on this CPU: smollm2-135m read" in capsys.readouterr().out


@pytest.mark.model
def test_a_child_killed_by_a_signal_is_a_crashed_build_with_the_fix(smollm2, tmp_path: Path) -> None:
    with pytest.raises(BuildCrashed, match=r"SIGSEGV \(signal 11\).*make llama-portable") as caught:
        selftest(smollm2.model_path, python=interpreter(tmp_path, "echo 'Fatal Python error: Segmentation fault' >&2; kill -SEGV $$"))
    assert "Fatal Python error" in str(caught.value)  # the child's last words come with it


@pytest.mark.model
def test_an_error_that_is_no_crash_is_not_blamed_on_the_build(smollm2, tmp_path: Path) -> None:
    with pytest.raises(SelfTestFailed, match="status 1:\nImportError: no llama_cpp"):
        selftest(smollm2.model_path, python=interpreter(tmp_path, "echo 'ImportError: no llama_cpp' >&2; exit 1"))


def test_a_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SelfTestFailed, match="no model file at .*bpywright model install"):
        selftest(tmp_path / "absent.gguf")


@pytest.mark.model
def test_doctor_runs_it_where_a_local_model_answers_and_not_beside_an_endpoint(smollm2) -> None:
    settings = dataclasses.replace(model_settings(), local_model="smollm2-135m", llm_base_url=None)
    (line,) = check_llama_build(settings)
    assert line.state == "ok" and line.detail.startswith("smollm2-135m wrote") and "-token prompt" in line.detail
    assert check_llama_build(dataclasses.replace(settings, llm_base_url="http://127.0.0.1:9/v1")) == []
    assert check_llama_build(dataclasses.replace(settings, local_model="off")) == []
