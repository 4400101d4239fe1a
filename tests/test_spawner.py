"""Children that die with bpywright: started under setpriv --pdeathsig where it is installed, else by a preexec hook."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bpywright import spawner
from bpywright.harness.sandbox import pid_alive

OWNER = """
import subprocess, threading, time
from bpywright.spawner import dying_with_parent, on_spawner_thread
argv, preexec = dying_with_parent(["sleep", "600"])
# started from a short-lived thread, as a request's thread would: the child must outlive it and die with the process
out = []
t = threading.Thread(target=lambda: out.append(on_spawner_thread(lambda: subprocess.Popen(argv, preexec_fn=preexec))))
t.start(); t.join()
print(out[0].pid, preexec is None, flush=True)
time.sleep(600)
"""


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for whoever adopted it to reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return pid_alive(pid) and stat[stat.rfind(")") + 2] != "Z"


def test_without_setpriv_the_child_gets_the_preexec_hook(monkeypatch) -> None:
    monkeypatch.setattr(spawner.shutil, "which", lambda _name: None)
    assert spawner.dying_with_parent(["dmypy", "daemon"]) == (["dmypy", "daemon"], spawner.die_with_parent)


@pytest.mark.skipif(shutil.which("setpriv") is None, reason="util-linux's setpriv is not installed here")
def test_a_child_started_under_setpriv_runs_no_hook_and_dies_with_its_owner() -> None:
    argv, preexec = spawner.dying_with_parent(["dmypy", "daemon"])
    assert preexec is None and argv[-3:] == ["--", "dmypy", "daemon"] and "--pdeathsig" in argv
    owner = subprocess.Popen(
        [sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[1], env={**os.environ}
    )
    try:
        assert owner.stdout is not None
        child, no_hook = owner.stdout.readline().split()
        assert no_hook == "True"
        time.sleep(0.5)
        assert _running(int(child))  # alive after the thread that started it ended
        owner.send_signal(signal.SIGKILL)
        owner.wait(timeout=30)
        deadline = time.monotonic() + 30
        while _running(int(child)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(int(child)), "the child outlived its killed owner"
    finally:
        owner.kill()
