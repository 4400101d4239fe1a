"""The warm linter's helpers (dmypy, pyright's language server) die with bpywright, and its workspace is cleaned after."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from bpywright.harness.lint import WORKSPACE_PREFIX, remove_leftover_workspaces
from bpywright.harness.sandbox import pid_alive

OWNER = """
import time
from bpywright.harness.lint import Linter
linter = Linter(tools=("mypy", "pyright"))
report = linter.lint("x: int = 1\\n")
assert all(s.status == "ok" for s in report.tools), report.tools
print(linter._tmp, linter._daemon.pid, linter._server.proc.pid, flush=True)
time.sleep(600)
"""


def _descendants(pid: int) -> set[int]:
    found, stack = set(), [pid]
    while stack:
        here = stack.pop()
        try:
            kids = Path(f"/proc/{here}/task/{here}/children").read_text().split()
        except OSError:
            continue
        for kid in map(int, kids):
            found.add(kid)
            stack.append(kid)
    return found


def _gone(pids: set[int], seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(pid_alive(p) and "Z" not in _state(p) for p in pids):
            return True
        time.sleep(0.2)
    return False


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat[stat.rfind(")") + 2]
    except OSError:
        return "Z"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_killed_owner_leaves_no_linter_process_and_its_workspace_goes_at_the_next_start(
    sig: signal.Signals, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # its own temporary folder: a Linter another test starts meanwhile sweeps the shared one, and would take the
    # killed owner's workspace before this test looks for it
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert owner.stdout is not None
        line = owner.stdout.readline().split()
        assert len(line) == 3, "the owner did not lint"
        workspace, daemon, server = Path(line[0]), int(line[1]), int(line[2])
        helpers = {daemon, server} | _descendants(daemon) | _descendants(server)
        assert workspace.name.startswith(f"{WORKSPACE_PREFIX}{owner.pid}-") and all(pid_alive(p) for p in (daemon, server))
        owner.send_signal(sig)
        owner.wait(timeout=30)
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
    assert _gone(helpers), [p for p in helpers if pid_alive(p)]
    assert workspace.parent == tmp_path and workspace.is_dir()  # a killed process cleans nothing itself ...
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert remove_leftover_workspaces() >= 1  # ... the next Linter's start does
    assert not workspace.exists()
