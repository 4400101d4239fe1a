"""Sandboxing of Blender processes: bubblewrap with a minimal filesystem view, or (only when asked) rlimits alone."""

from __future__ import annotations

import functools
import itertools
import os
import resource
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Literal

from ..spawner import on_spawner_thread

SandboxKind = Literal["bwrap", "rlimits-only"]
_CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
_counter = itertools.count()
SANDBOX_UID = 65534  # "nobody": the script never runs as uid 0, even inside its namespace
# The system's programs and libraries (merged-/usr distributions make the others symlinks into /usr).
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# The few /etc entries the dynamic loader, fonts and time zones need: no passwd, shadow, ssh or keys.
_ETC_ENTRIES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/fonts", "/etc/alternatives")
UNSAFE_HINT = "pass --unsafe-no-sandbox (or BPYWRIGHT_SANDBOX=0) to run untrusted code without it, at your own risk"


class SandboxUnavailable(RuntimeError):
    """The sandbox was asked for and cannot start here; running without it needs explicit consent."""


def _core_args(bwrap: str) -> list[str]:
    """Namespaces, an unprivileged uid without capabilities, and the system's read-only programs and libraries."""
    args = [
        bwrap,
        "--unshare-all",
        "--unshare-user",
        "--uid",
        str(SANDBOX_UID),
        "--gid",
        str(SANDBOX_UID),
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--new-session",
        "--hostname",
        "sandbox",
    ]
    for name in _SYSTEM_DIRS:
        path = Path(name)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), name]
        elif path.is_dir():
            args += ["--ro-bind", name, name]
    for name in _ETC_ENTRIES:
        args += ["--ro-bind-try", name, name]
    return args + ["--proc", "/proc", "--dev", "/dev"]


@functools.cache
def bwrap_available() -> str | None:
    """Path of a bubblewrap that can create the sandbox we use (user namespace included) here, or None."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    try:
        ok = subprocess.run([*_core_args(exe), "true"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        ok = False
    return exe if ok else None


def why_no_bwrap() -> str:
    """One line on why bubblewrap is not used, with the fix."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed: run `apt-get install bubblewrap` (or `make setup` as root)"
    return (
        "bwrap is installed but cannot create its namespaces here (user namespaces disabled, or a container without "
        "--security-opt seccomp=unconfined --security-opt apparmor=unconfined; see the Dockerfile)"
    )


def sandbox_kind(use_bwrap: bool) -> SandboxKind:
    """What a run asking for the sandbox (or not) gets here; raises SandboxUnavailable when it cannot have it."""
    if not use_bwrap:
        return "rlimits-only"
    if bwrap_available() is None:
        raise SandboxUnavailable(f"the sandbox cannot start: {why_no_bwrap()}; {UNSAFE_HINT}")
    return "bwrap"


def sandbox_status(use_bwrap: bool) -> str:
    """For status pages: 'bwrap', 'rlimits-only (UNSAFE: …)', or 'unavailable: …' (scripts are refused)."""
    if not use_bwrap:
        return "rlimits-only (UNSAFE: sandbox disabled; scripts can read this machine's files)"
    return "bwrap" if bwrap_available() else f"unavailable: {why_no_bwrap()} (scripts are refused)"


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
        "TMPDIR": "/tmp",
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
    tmp_mb: int = 256  # each of the private /tmp and /dev/shm (RAM-backed, so capped separately)
    disk_mb: int = 1024  # everything one job may leave in its output dir


@dataclass(frozen=True)
class SandboxView:
    """What a sandboxed process sees: read-only directories, one writable directory, and hidden ones."""

    writable: Path
    readable: tuple[Path, ...] = ()
    hidden: tuple[Path, ...] = field(default=())  # directories masked by an empty tmpfs (e.g. other jobs under a readable root)


class PidsCgroup:
    """A pids cgroup capping how many processes/threads a sandbox may create (fork bombs)."""

    PREFIX = "bpywright-"

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
            path = root / f"{cls.PREFIX}{os.getpid()}-{next(_counter)}"
            try:
                path.mkdir()
                (path / "pids.max").write_text(str(max_pids))
                return cls(path)
            except OSError:
                _rmdir(path)
        return None

    @classmethod
    def remove_orphans(cls) -> int:
        """Remove cgroups left by bpywright processes that died without cleaning up (kill -9); returns how many."""
        removed = 0
        for root in _CGROUP_ROOTS:
            try:
                entries = list(root.glob(f"{cls.PREFIX}*"))
            except OSError:
                continue
            for path in entries:
                owner = path.name[len(cls.PREFIX) :].split("-", 1)[0]
                if owner.isdigit() and not pid_alive(int(owner)) and not _read(path / "cgroup.procs").strip():
                    removed += _rmdir(path)
        return removed

    def add_self(self) -> None:
        """Move the calling process into the cgroup (called in the child before exec)."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        """Delete the cgroup once its processes are gone."""
        _rmdir(self.path)


def pid_alive(pid: int) -> bool:
    """True when a process with this pid exists on the host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _rmdir(path: Path) -> bool:
    try:
        path.rmdir()
        return True
    except OSError:
        return False


@dataclass
class SandboxedCommand:
    """A command wrapped for the sandbox, with what Popen needs to start it."""

    argv: list[str]
    env: dict[str, str]
    preexec_fn: Callable[[], None]
    kind: SandboxKind
    cgroup: PidsCgroup | None

    def start(self, *, stdin: int | None, log: IO[bytes], cwd: Path, control_fd: int) -> subprocess.Popen:
        """Start the command in its own session (so its whole group can be killed), output to log.

        Forked from the process-lifetime spawner thread: bwrap's --die-with-parent follows the forking *thread*.
        """
        return on_spawner_thread(
            lambda: subprocess.Popen(
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
        )

    def cleanup(self) -> None:
        """Release what the sandbox created (call after the process is gone)."""
        if self.cgroup is not None:
            self.cgroup.remove()


def sandbox_command(argv: list[str], view: SandboxView, *, use_bwrap: bool, limits: Limits) -> SandboxedCommand:
    """Wrap argv so it sees only `view`, has no network, its own pids, an unprivileged uid and capped resources.

    Without bubblewrap (only when use_bwrap is False: the caller's explicit consent) the rlimits and the
    cleared environment still apply; asking for the sandbox where it cannot start raises SandboxUnavailable.
    """
    kind = sandbox_kind(use_bwrap)
    bwrap = bwrap_available() if kind == "bwrap" else None
    cgroup = PidsCgroup.create(limits.max_processes) if bwrap else None
    wrapped = [*_view_args(bwrap, view, limits), *argv] if bwrap else list(argv)

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

    return SandboxedCommand(wrapped, clean_env(view.writable), preexec, kind, cgroup)


def _view_args(bwrap: str, view: SandboxView, limits: Limits) -> list[str]:
    """bwrap arguments for the view: system dirs, private size-capped /tmp and /dev/shm, then the binds in order."""
    tmp_bytes = str(limits.tmp_mb * 1024 * 1024)
    args = [*_core_args(bwrap), "--size", tmp_bytes, "--tmpfs", "/tmp", "--size", tmp_bytes, "--tmpfs", "/dev/shm"]
    for path in sorted({p.resolve() for p in view.readable}, key=lambda p: len(p.parts)):
        args += ["--ro-bind", str(path), str(path)]
    for path in view.hidden:
        args += ["--tmpfs", str(path)]
    writable = str(view.writable.resolve())
    # The sandbox's root is bwrap's own tmpfs: read-only once the binds are made, so nothing but /tmp,
    # /dev/shm (size-capped) and the job dir can be written, and nothing written outlives a job there.
    return args + ["--bind", writable, writable, "--remount-ro", "/", "--chdir", writable]


def scratch_base() -> Path:
    """The host directory under which workers keep their private job directories."""
    base = Path(tempfile.gettempdir()) / f"bpywright-{os.getuid()}"
    base.mkdir(mode=0o700, exist_ok=True)
    return base


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
