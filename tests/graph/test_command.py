"""`bpywright generate` end to end in a subprocess: FAKE LLM on loopback, its own warm pool, live progress on stderr."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bpywright.cli import main
from bpywright.graph.fake_llm import FakeLLM, critic_json

from .samples import PROMPT, THREE_CUBES, fenced


def test_generate_command_writes_the_outputs_and_exits_0_when_accepted(tmp_path: Path, fake: FakeLLM) -> None:
    fake.script("generate", fenced(THREE_CUBES)).script("critic", critic_json(0.9, "three red cubes in a row"))
    env = {
        **os.environ,
        "BPYWRIGHT_ARTIFACTS": str(tmp_path / "artifacts"),
        "BPYWRIGHT_LLM_BASE_URL": fake.base_url,
        "BPYWRIGHT_LLM_MODEL": "fake-coder",
        "BPYWRIGHT_WORKERS": "1",
    }
    out = tmp_path / "out"
    argv = [
        sys.executable,
        "-m",
        "bpywright",
        "generate",
        PROMPT,
        "-o",
        str(out / "cubes.py"),
        "--render",
        str(out / "cubes.png"),
        "--report",
        str(out / "cubes.json"),
        "--resolution",
        "64",
        "--json",
    ]
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, proc.stderr[-2000:]
    result = json.loads(proc.stdout)
    assert result["outcome"] == "accepted" and result["script"] == THREE_CUBES
    assert (out / "cubes.py").read_text() == THREE_CUBES and (out / "cubes.png").read_bytes()[:4] == b"\x89PNG"
    assert json.loads((out / "cubes.json").read_text())["status"] == "ok"
    progress = proc.stderr.splitlines()
    assert progress[0] == f"thread {result['thread_id']}"
    assert progress[1] == "model: fake-coder"
    events = [line.split()[2] for line in progress[2:] if line.startswith("[")]
    assert events == ["retrieve", "generate", "lint", "run", "critic", "accept", "done"]
    assert Path(result["script_path"]).parent == tmp_path / "artifacts" / "runs" / result["thread_id"]


@pytest.fixture
def keep_sigpipe() -> Iterator[None]:
    """main() sets SIGPIPE to the default (die) for `| head`; restore Python's (ignore) so later loopback tests survive a closed socket."""
    previous = signal.getsignal(signal.SIGPIPE)
    yield
    signal.signal(signal.SIGPIPE, previous)


def test_generate_command_usage_errors_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], keep_sigpipe: None
) -> None:
    monkeypatch.setenv("BPYWRIGHT_ARTIFACTS", str(tmp_path))
    monkeypatch.delenv("BPYWRIGHT_LLM_BASE_URL", raising=False)
    assert main(["generate"]) == 2
    assert "--resume THREAD_ID" in capsys.readouterr().err
    assert main(["generate", "--resume", "no-such-run"]) == 2
    err = capsys.readouterr().err
    assert "no run with thread id no-such-run" in err and "local model" not in err  # refused before a model starts
    assert main(["generate", "a cube", "--n", "0"]) == 2


def test_generate_resume_takes_the_version_of_the_checkpoint(
    tmp_path: Path,
    settings,
    interrupted_run,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    keep_sigpipe: None,
) -> None:
    interrupted_run(settings, "t-42", version="4.2")
    monkeypatch.setenv("BPYWRIGHT_ARTIFACTS", str(settings.artifacts))  # no runtimes here: only the bundled 4.5
    monkeypatch.setenv("BPYWRIGHT_BLENDER_VERSION", "4.5")
    monkeypatch.delenv("BPYWRIGHT_LLM_BASE_URL", raising=False)
    assert main(["generate", "--resume", "t-42", "--blender-version", "4.5"]) == 2
    err = capsys.readouterr().err
    assert "error: run t-42 targets Blender 4.2 (its checkpoint), not 4.5" in err and "Resume it without --blender-version" in err
    assert "local model" not in err  # refused before anything started
    # without the flag the checkpoint's 4.2 is the target (not BPYWRIGHT_BLENDER_VERSION's 4.5): its runtime is asked for
    assert main(["generate", "--resume", "t-42"]) == 2
    err = capsys.readouterr().err
    assert "resuming on Blender 4.2 (the run's target)" in err and "Blender 4.2 is not installed" in err
    assert "bpywright blender add 4.2" in err
    assert main(["generate", "--resume", "t-42", "--blender-version", "4.2.23"]) == 2  # the same version, spelt fully: no conflict
    assert "Blender 4.2 is not installed" in capsys.readouterr().err
