"""The sandbox holds against hostile scripts, and the host (and later jobs) survive them."""

from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path

import pytest

from bpywright.harness.launcher import run_script
from bpywright.harness.options import RunOptions

pytestmark = pytest.mark.blender

FAST = RunOptions(render=False, timeout=30)


@pytest.fixture(autouse=True)
def _needs_bwrap(bwrap: str) -> None:
    """Every test here is about the bubblewrap sandbox."""


def test_cannot_write_etc(script) -> None:
    target = f"/etc/bpywright-{uuid.uuid4().hex}"
    report = run_script(script(f"open({target!r}, 'w').write('x')\n"), FAST)
    assert report.sandbox == "bwrap"
    assert report.status == "rejected"
    assert "Read-only file system" in report.exception.message
    assert not os.path.exists(target)


def test_cannot_write_host_home(script) -> None:
    target = Path.home() / f"bpywright-{uuid.uuid4().hex}"
    report = run_script(script(f"open({str(target)!r}, 'w').write('x')\n"), FAST)
    assert report.status == "rejected"
    assert not target.exists()


def test_can_write_its_own_job_dir(script) -> None:
    report = run_script(script("open('scratch.txt', 'w').write('x')\nprint(open('scratch.txt').read())\n"), FAST)
    assert report.status == "ok" and report.stdout.strip() == "x"


def test_environment_secrets_are_invisible(script, monkeypatch) -> None:
    monkeypatch.setenv("BPYWRIGHT_TEST_SECRET", "hunter2-secret")
    report = run_script(script("import os\nprint(sorted(os.environ))\nprint(os.environ.get('BPYWRIGHT_TEST_SECRET'))\n"), FAST)
    assert report.status == "ok"
    assert "hunter2-secret" not in report.stdout
    assert "BPYWRIGHT_TEST_SECRET" not in report.stdout


def test_no_network_even_to_the_host_loopback(script) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    try:
        report = run_script(script(f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=3)\n"), FAST)
        with pytest.raises(TimeoutError):
            listener.accept()  # nothing ever reached the host
    finally:
        listener.close()
    assert report.status in ("rejected", "error")
    assert report.exception.type in ("ConnectionRefusedError", "OSError", "TimeoutError")


def test_memory_bomb_is_refused(script) -> None:
    report = run_script(script("blob = bytearray(64 * 1024 ** 3)\n"), RunOptions(render=False, memory_mb=4096))
    assert report.status == "rejected"
    assert report.exception.type == "MemoryError"


def test_output_flood_is_capped(script) -> None:
    path = script(
        """
        import os
        chunk = b"x" * (1 << 20)
        for _ in range(64):
            os.write(1, chunk)
        """
    )
    report = run_script(path, RunOptions(render=False, max_file_mb=8))
    assert report.status == "rejected"
    assert "File too large" in report.exception.message
    assert len(report.stdout) <= 4000


def test_fork_bomb_is_contained(script, pids_cgroup) -> None:
    path = script(
        """
        import os
        while True:
            os.fork()
        """
    )
    report = run_script(path, RunOptions(render=False, max_processes=96, timeout=30))
    assert report.status in ("rejected", "timeout")
    # the host and the next job are fine
    assert run_script(script("print('still here')\n", "after.py"), FAST).stdout.strip() == "still here"
