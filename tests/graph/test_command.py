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
from bpywright.graph.model.fake_llm import FakeLLM, critic_json

from .samples import PROMPT, THREE_CUBES, fenced

pytestmark = pytest.mark.blender


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


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_generate_leaves_no_process_and_its_dirs_go_at_the_next_start(tmp_path: Path, fake: FakeLLM, sig: int) -> None:
    # A generate stopped mid-run must not leave its dmypy daemon (parent pid 1) or /tmp/bpywright-linter-* behind.
    import tempfile
    import threading

    from bpywright.harness.lint import WORKSPACE_PREFIX, Linter
    from bpywright.harness.sandbox import scratch_base
    from bpywright.harness.worker import remove_leftovers

    from ..harness.test_lint_lifetime import _gone

    at_critic, release = threading.Event(), threading.Event()

    def hold(body: dict) -> str:  # the critic's request: linted and run by now, so every helper is up
        at_critic.set()
        release.wait(120)
        return critic_json(0.9)

    fake.script("generate", fenced(THREE_CUBES)).script("critic", hold)
    env = {
        **os.environ,
        "BPYWRIGHT_ARTIFACTS": str(tmp_path / "artifacts"),
        "BPYWRIGHT_LLM_BASE_URL": fake.base_url,
        "BPYWRIGHT_LLM_MODEL": "fake-coder",
        "BPYWRIGHT_WORKERS": "1",
    }
    argv = [sys.executable, "-m", "bpywright", "generate", PROMPT, "-o", str(tmp_path / "g.py"), "--resolution", "64"]
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert at_critic.wait(300), "generate never asked the critic"
        helpers = _descendants(proc.pid)  # children of every thread (the spawner thread forks the helpers)
        names = {Path(f"/proc/{p}/exe").resolve().name for p in helpers if Path(f"/proc/{p}/exe").exists()}
        assert "bwrap" in names and len(helpers) >= 3, names  # the worker's bwrap and zygote, the linter's helpers
        tmp = Path(tempfile.gettempdir())
        workspaces = list(tmp.glob(f"{WORKSPACE_PREFIX}{proc.pid}-*"))
        worker_dirs = list(scratch_base().glob(f"w{proc.pid}-*"))
        assert workspaces and worker_dirs
        proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        release.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _gone(helpers), [(p, Path(f"/proc/{p}/cmdline").read_bytes()[:120]) for p in helpers if Path(f"/proc/{p}").exists()]
    # The next start (a Linter, a pool) removes what the killed one could not.
    Linter(tools=("ruff",)).close()
    remove_leftovers()
    assert not any(p.exists() for p in workspaces + worker_dirs), [p for p in workspaces + worker_dirs if p.exists()]


def _descendants(pid: int) -> set[int]:
    """Every process below pid, found by parent pid (children of any of its threads, grandchildren too)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rfind(")") + 2 :].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found
