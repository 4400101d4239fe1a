"""Sandboxing of Blender processes: bubblewrap when it works, else rlimits + a cleared environment."""

from __future__ import annotations

import functools
import itertools
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

SandboxKind = Literal["bwrap", "rlimits-only"]
_CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
_counter = itertools.count()


@functools.cache
def bwrap_available() -> str | None:
    """Path of a bubblewrap that can actually create namespaces here, or None."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    probe = [exe, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all", "--die-with-parent", "true"]
    try:
        ok = subprocess.run(probe, capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return exe if ok else None


def why_no_bwrap() -> str:
    """One line on why bubblewrap is not used, with the fix."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed: run `apt-get install bubblewrap` (or `make setup` as root)"
    return "bwrap is installed but cannot create namespaces here (user namespaces disabled?)"


def sandbox_kind(use_bwrap: bool) -> SandboxKind:
    """What a run asking for the sandbox (or not) will actually get here."""
    return "bwrap" if use_bwrap and bwrap_available() else "rlimits-only"


def signal_name(returncode: int | None, via_bwrap: bool) -> str | None:
    """Name of the signal that ended a process (bwrap reports a child's signal as 128+N)."""
    if returncode is None:
        return None
    num = -returncode if returncode < 0 else returncode - 128 if via_bwrap and returncode > 128 else 0
    if num <= 0:
        return None
    try:
        return signal.Signals(num).name
    except ValueError:
        return f"SIG{num}"


def clean_env(home: Path) -> dict[str, str]:
    """The only environment a sandboxed script sees: no API keys, no parent secrets."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "TMPDIR": str(home),
        "LANG": "C.UTF-8",
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


@dataclass
class Limits:
    """Resource caps applied to a sandboxed process tree."""

    memory_mb: int = 6144
    max_file_mb: int = 256
    max_processes: int = 512


class PidsCgroup:
    """A pids cgroup capping how many processes/threads a sandbox may create (fork bombs)."""

    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def create(cls, max_pids: int) -> PidsCgroup | None:
        """Create one under the first writable pids hierarchy, or None when there is none."""
        for root in _CGROUP_ROOTS:
            if not (root / "cgroup.procs").exists():
                continue
            if root == Path("/sys/fs/cgroup") and "pids" not in _read(root / "cgroup.controllers"):
                continue
            path = root / f"bpywright-{os.getpid()}-{next(_counter)}"
            try:
                path.mkdir()
                (path / "pids.max").write_text(str(max_pids))
                return cls(path)
            except OSError:
                _rmdir(path)
        return None

    def add_self(self) -> None:
        """Move the calling process into the cgroup (called in the child before exec)."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        """Delete the cgroup once its processes are gone."""
        _rmdir(self.path)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _rmdir(path: Path) -> None:
    try:
        path.rmdir()
    except OSError:
        pass


@dataclass
class SandboxedCommand:
    """A command wrapped for the sandbox, with what Popen needs to start it."""

    argv: list[str]
    env: dict[str, str]
    preexec_fn: Callable[[], None]
    kind: SandboxKind
    cgroup: PidsCgroup | None

    def start(self, *, stdin: int | None, log: IO[bytes], cwd: Path, control_fd: int) -> subprocess.Popen:
        """Start the command in its own session (so its whole group can be killed), output to log."""
        return subprocess.Popen(
            self.argv,
            stdin=stdin,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=self.env,
            cwd=cwd,
            preexec_fn=self.preexec_fn,
            start_new_session=True,
            pass_fds=(control_fd,),
        )

    def cleanup(self) -> None:
        """Release what the sandbox created (call after the process is gone)."""
        if self.cgroup is not None:
            self.cgroup.remove()


def sandbox_command(
    argv: list[str], writable: Path, *, use_bwrap: bool, limits: Limits, readable: tuple[Path, ...] = ()
) -> SandboxedCommand:
    """Wrap argv so it runs with only `writable` writable, no network, its own pids, and capped resources."""
    bwrap = bwrap_available() if use_bwrap else None
    cgroup = PidsCgroup.create(limits.max_processes) if bwrap else None
    if bwrap:
        wrapped = [
            bwrap,
            "--ro-bind", "/", "/",
            "--dev", "/dev",
            "--proc", "/proc",
            "--tmpfs", "/tmp",
            "--tmpfs", "/dev/shm",
            *_rebind_under_tmp(readable),
            "--bind", str(writable), str(writable),
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--chdir", str(writable),
            *argv,
        ]  # fmt: skip
    else:
        wrapped = list(argv)

    # RLIMIT_NPROC counts every process of the user, so it is only a fallback cap, sized above what runs now.
    nproc = None if cgroup is not None or os.geteuid() == 0 else _user_process_count() + limits.max_processes

    def preexec() -> None:
        # Runs in the child between fork and exec: caps first, then join the cgroup.
        mem = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        size = limits.max_file_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if nproc is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        if cgroup is not None:
            cgroup.add_self()

    return SandboxedCommand(wrapped, clean_env(writable), preexec, "bwrap" if bwrap else "rlimits-only", cgroup)


def _rebind_under_tmp(extra: tuple[Path, ...]) -> list[str]:
    """Read-only binds for our own install (and the Blender used) under /tmp, which the sandbox replaces."""
    import bpywright

    needed = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent.parent,
              Path(bpywright.__file__).resolve().parent.parent, *extra}  # fmt: skip
    tmp = Path("/tmp")
    args: list[str] = []
    for path in sorted({p.resolve() for p in needed}):
        if tmp in path.parents:
            args += ["--ro-bind", str(path), str(path)]
    return args


def _user_process_count() -> int:
    uid = os.getuid()
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                count += entry.stat().st_uid == uid
            except OSError:
                pass
    return count


def wait_quietly(proc: subprocess.Popen, seconds: float) -> None:
    """Wait for proc to exit on its own, up to `seconds`."""
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        pass


def kill_tree(proc: subprocess.Popen) -> None:
    """Kill the process group started for proc (started with start_new_session=True)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass
