"""Through the service: a job that attacks the sandbox's pid 1 is rejected, and the next user's result is its own."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from bpywright.harness.seccomp import _libseccomp

pytestmark = pytest.mark.blender

ATTACK = """
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
if libc.syscall(ctypes.c_long({nr}), ctypes.c_long(16), ctypes.c_long(1), ctypes.c_long(0), ctypes.c_long(0)) < 0:
    err = ctypes.get_errno()
    raise OSError(err, os.strerror(err))
print("attached to pid 1")
"""


def test_a_pid_1_takeover_is_rejected_and_the_next_users_failure_is_reported(client: TestClient) -> None:
    lib = _libseccomp()
    assert lib is not None
    attack = ATTACK.format(nr=lib.seccomp_syscall_resolve_name(b"ptrace"))
    first = client.post("/api/v1/validate", json={"script": attack, "render": False, "lint": False}).json()
    assert first["run"]["status"] == "rejected" and "attached" not in first["run"]["stdout"]
    victim = "print('user b')\nraise ValueError('b fails')\n"
    second = client.post("/api/v1/validate", json={"script": victim, "render": False, "lint": False}).json()
    assert second["ok"] is False and second["run"]["status"] == "error"
    assert second["run"]["exception"]["type"] == "ValueError" and second["run"]["stdout"].strip() == "user b"
