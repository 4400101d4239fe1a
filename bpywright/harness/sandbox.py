"""Sandboxing of Blender processes: bubblewrap with a minimal filesystem view, or (only when asked) rlimits alone."""

from __future__ import annotations

import functools
import itertools
import os
import resource
import shutil
import signal
import stat
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Literal

from ..spawner import on_spawner_thread
from .seccomp import filter_fd
from .userns import SANDBOX_UID, UsernsUnavailable, new_user_namespace

SandboxKind = Literal["bwrap", "rlimits-only"]
_CGROUP_V2 = Path("/sys/fs/cgroup")
_CGROUP_ROOTS = (Path("/sys/fs/cgroup/pids"), _CGROUP_V2)  # v1's pids hierarchy, else the v2 unified one
_CGROUP_V1_MEMORY = Path("/sys/fs/cgroup/memory")
_counter = itertools.count()
# The system's programs and libraries (merged-/usr distributions make the others symlinks into /usr).
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# The few /etc entries the dynamic loader, fonts and time zones need: no passwd, shadow, ssh or keys.
_ETC_ENTRIES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/fonts", "/etc/alternatives")
UNSAFE_HINT = "pass --unsafe-no-sandbox (or BPYWRIGHT_SANDBOX=0) to run untrusted code without it, at your own risk"


class SandboxUnavailable(RuntimeError):
    """The sandbox was asked for and cannot start here; running without it needs explicit consent."""


@functools.cache
def _bwrap_options(bwrap: str) -> frozenset[str]:
    """The options this bubblewrap knows (from its --help), to use the newer ones only where they exist."""
    try:
        text = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(word for word in text.split() if word.startswith("--"))


def _core_args(bwrap: str, userns_fd: int | None = None) -> list[str]:
    """Namespaces, an unprivileged uid without capabilities, and the system's read-only programs and libraries.

    --as-pid-1: the command (the zygote) is the sandbox's init, not bubblewrap's own reaper, which a job
    could ptrace (same uid, dumpable) and turn into a process outliving every job; --disable-userns: no
    nested user namespace (where a job would hold every capability again). With userns_fd (bpywright's own
    namespace, see userns.py) bwrap joins it instead of making one: uid 65534 is then host 65534, and the
    namespace itself forbids nested ones (--disable-userns needs --unshare-user).
    """
    known = _bwrap_options(bwrap)
    if userns_fd is not None:
        namespaces = ["--userns", str(userns_fd), "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
        namespaces += ["--unshare-cgroup-try"]
        extra: tuple[str, ...] = ("--as-pid-1",)
    else:
        namespaces = ["--unshare-all", "--unshare-user"]
        extra = ("--as-pid-1", "--disable-userns")
    args = [
        bwrap,
        *namespaces,
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
        *(option for option in extra if option in known),
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


@functools.cache
def _own_userns(bwrap: str) -> str:
    """'' when jobs get bpywright's own user namespace here (root: uid 65534 is host 65534), else why not."""
    if os.geteuid() != 0:
        return "not root: bwrap maps the sandbox uid to yours, already unprivileged"
    if "--userns" not in _bwrap_options(bwrap):
        return "this bubblewrap has no --userns (0.4 or later has it)"
    try:
        fd = new_user_namespace()
    except UsernsUnavailable as exc:
        return str(exc)
    try:
        proc = subprocess.run(
            [*_core_args(bwrap, fd), "--remount-ro", "/", "sh", "-c", f'test "$(id -u)" = {SANDBOX_UID}'],
            capture_output=True,
            text=True,
            timeout=20,
            pass_fds=(fd,),
            preexec_fn=_drop_groups,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap --userns did not run: {exc}"
    finally:
        os.close(fd)
    return "" if proc.returncode == 0 else f"bwrap --userns failed: {proc.stderr.strip()[-200:]}"


def _drop_groups() -> None:
    """In the child before bwrap: no supplementary groups (root's would otherwise follow the job)."""
    os.setgroups([])


def job_uid_status() -> tuple[bool, str]:
    """For doctor: (safe, what uid a job has on the host and why)."""
    bwrap = bwrap_available()
    if bwrap is None:
        return False, "no sandbox"
    if os.geteuid() != 0:
        return True, f"uid {SANDBOX_UID} in the sandbox is your uid {os.geteuid()} on the host (unprivileged)"
    why = _own_userns(bwrap)
    if not why:
        return True, (
            f"uid {SANDBOX_UID} in the sandbox is host uid {SANDBOX_UID} too (bpywright's own user namespace): "
            "root-only files in view stay unreadable"
        )
    return False, (
        f"FALLBACK: uid {SANDBOX_UID} in the sandbox is host root ({why}): root-only (0600) files in a job's view are readable to it"
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
    # > 0: `writable` is the sandbox's own tmpfs of this many bytes (the host reaches it through /proc/PID/root),
    # so the quota is space used, files unlinked but held open included; 0: the host directory bound in
    writable_bytes: int = 0


class PidsCgroup:
    """The cgroup(s) of one sandbox: a process/thread cap (fork bombs) and, where the memory controller is writable,
    a memory cap over all its processes together (children, forks and tmpfs pages included), not per process.

    cgroup v2: one directory with pids.max and memory.max; v1: one per hierarchy (pids/, memory/).
    """

    PREFIX = "bpywright-"

    def __init__(self, path: Path, memory: Path | None = None):
        self.path = path
        self.memory = memory  # the cgroup that caps memory (the same directory on v2), or None

    @property
    def paths(self) -> list[Path]:
        """Every cgroup directory the sandbox's processes join."""
        return [self.path] + ([self.memory] if self.memory is not None and self.memory != self.path else [])

    @classmethod
    def create(cls, max_pids: int, memory_bytes: int | None = None) -> PidsCgroup | None:
        """Create one under the first writable pids hierarchy (plus a memory cap when asked and possible), or None."""
        name = f"{cls.PREFIX}{os.getpid()}-{next(_counter)}"
        for root in _CGROUP_ROOTS:
            if not (root / "cgroup.procs").exists():
                continue
            v2 = root == _CGROUP_V2
            if v2 and "pids" not in _read(root / "cgroup.controllers"):
                continue
            path = root / name
            try:
                path.mkdir()
                (path / "pids.max").write_text(str(max_pids))
            except OSError:
                _rmdir(path)
                continue
            group = cls(path)
            if memory_bytes is not None:
                group.memory = _memory_cgroup(path if v2 else _CGROUP_V1_MEMORY / name, memory_bytes, v2)
            return group
        return None

    @classmethod
    def remove_orphans(cls) -> int:
        """Remove cgroups left by bpywright processes that died without cleaning up (kill -9); returns how many."""
        removed = 0
        for root in (*_CGROUP_ROOTS, _CGROUP_V1_MEMORY):
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
        """Move the calling process into the cgroup(s) (called in the child before exec)."""
        for path in self.paths:
            (path / "cgroup.procs").write_text(str(os.getpid()))

    def oom_kills(self) -> int:
        """How many processes the memory cap has killed so far (0 without one)."""
        if self.memory is None:
            return 0
        for name in ("memory.events", "memory.oom_control"):  # v2, v1
            for line in _read(self.memory / name).splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill" and value.strip().isdigit():
                    return int(value)
        return 0

    def shmem_bytes(self) -> int | None:
        """RAM-backed files and segments (tmpfs, SysV and POSIX shared memory) charged to the sandbox now, or None."""
        if self.memory is None:
            return None
        for line in _read(self.memory / "memory.stat").splitlines():
            key, _, value = line.partition(" ")
            if key == "shmem" and value.strip().isdigit():
                return int(value)
        return None

    def remove(self) -> None:
        """Delete the cgroup(s) once their processes are gone."""
        for path in self.paths:
            _rmdir(path)


def _memory_cgroup(path: Path, memory_bytes: int, v2: bool) -> Path | None:
    """Cap memory (and swap) in the cgroup at path, creating it on v1; None where that is not writable here."""
    try:
        if v2:
            (path / "memory.max").write_text(str(memory_bytes))
            try:
                (path / "memory.swap.max").write_text("0")
            except OSError:
                pass
            return path
        if not (path.parent / "cgroup.procs").exists():
            return None
        path.mkdir(exist_ok=True)
        (path / "memory.limit_in_bytes").write_text(str(memory_bytes))
        try:
            (path / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
        except OSError:
            pass
        return path
    except OSError:
        if not v2:
            _rmdir(path)
        return None


def limits_status(limits: Limits | None = None) -> str:
    """For doctor: which mechanism enforces each limit here (cgroups where writable, else rlimits)."""
    limits = limits or Limits()
    group = PidsCgroup.create(16, limits.memory_mb * 1024 * 1024)
    if group is not None:
        group.remove()
    pids = f"processes ≤ {limits.max_processes} " + ("(pids cgroup)" if group else "(RLIMIT_NPROC only: no writable pids cgroup)")
    memory = f"memory ≤ {limits.memory_mb} MB " + (
        "for all of a worker's processes together (memory cgroup)"
        if group is not None and group.memory is not None
        else "per process (RLIMIT_AS only: no writable memory cgroup, so N processes may use N times that)"
    )
    disk = f"job dir ≤ {limits.disk_mb} MB (its own tmpfs: space used, open-but-deleted files included)"
    return f"{memory}; {pids}; {disk}; /tmp and /dev/shm ≤ {limits.tmp_mb} MB each; files ≤ {limits.max_file_mb} MB"


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
    inherited_fds: tuple[int, ...] = ()  # fds the command's argv names (seccomp filter, user namespace), closed once started
    job_owner: tuple[int, int] | None = None  # (uid, gid) on the host of the job's processes, where not the host's own

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
                pass_fds=(control_fd, *self.inherited_fds),
            )
        )

    def close_fds(self) -> None:
        """Close the fds handed to bwrap (it has read them, or never will)."""
        for fd in self.inherited_fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self.inherited_fds = ()

    def cleanup(self) -> None:
        """Release what the sandbox created (call after the process is gone)."""
        self.close_fds()
        if self.cgroup is not None:
            self.cgroup.remove()


def sandbox_command(argv: list[str], view: SandboxView, *, use_bwrap: bool, limits: Limits) -> SandboxedCommand:
    """Wrap argv so it sees only `view`, has no network, its own pids, an unprivileged uid and capped resources.

    Without bubblewrap (only when use_bwrap is False: the caller's explicit consent) the rlimits and the
    cleared environment still apply; asking for the sandbox where it cannot start raises SandboxUnavailable.
    As root, the job's uid is unprivileged on the host too (bpywright's own user namespace, see userns.py)
    where that works here; `job_uid_status` says which applies.
    """
    kind = sandbox_kind(use_bwrap)
    bwrap = bwrap_available() if kind == "bwrap" else None
    userns = None
    if bwrap is not None and os.geteuid() == 0 and not _own_userns(bwrap):
        try:
            userns = new_user_namespace()
        except UsernsUnavailable:
            userns = None  # it worked for the probe: a transient failure (fd or process limits) falls back
    cgroup = PidsCgroup.create(limits.max_processes, limits.memory_mb * 1024 * 1024) if bwrap else None
    seccomp = filter_fd() if bwrap else None
    filter_args = ["--seccomp", str(seccomp)] if seccomp is not None else []
    wrapped = [*_view_args(bwrap, view, limits, userns), *filter_args, *argv] if bwrap else list(argv)

    # RLIMIT_NPROC counts every process of the user, so it is only a fallback cap, sized above what runs now;
    # host root is exempt from it, and uid 65534 of our own namespace counts the processes of this sandbox only.
    if cgroup is not None or (os.geteuid() == 0 and userns is None):
        nproc = None
    else:
        nproc = limits.max_processes if userns is not None else _user_process_count() + limits.max_processes

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
        if userns is not None:
            _drop_groups()

    fds = tuple(fd for fd in (seccomp, userns) if fd is not None)
    owner = (SANDBOX_UID, SANDBOX_UID) if userns is not None else None
    return SandboxedCommand(wrapped, clean_env(view.writable), preexec, kind, cgroup, fds, owner)


def _view_args(bwrap: str, view: SandboxView, limits: Limits, userns_fd: int | None = None) -> list[str]:
    """bwrap arguments for the view: system dirs, private size-capped /tmp and /dev/shm, then the binds in order."""
    tmp_bytes = str(limits.tmp_mb * 1024 * 1024)
    args = [*_core_args(bwrap, userns_fd), "--size", tmp_bytes, "--tmpfs", "/tmp", "--size", tmp_bytes, "--tmpfs", "/dev/shm"]
    hidden = [p.resolve() for p in view.hidden]
    readable = sorted({p.resolve() for p in view.readable}, key=lambda p: len(p.parts))
    # A readable path inside a masked dir (a Blender runtime kept under the data dir) is bound again after the mask.
    inside = [p for p in readable if any(p.is_relative_to(h) for h in hidden)]
    for path in (p for p in readable if p not in inside):
        args += ["--ro-bind", str(path), str(path)]
    for path in hidden:
        args += ["--tmpfs", str(path)]
    for path in inside:
        args += ["--ro-bind", str(path), str(path)]
    for path in hidden:  # an empty mask, and read-only: never a folder a job could leave files in for the next
        args += ["--remount-ro", str(path)]
    writable = view.writable.resolve()
    if view.writable_bytes > 0:
        args += ["--size", str(view.writable_bytes), "--tmpfs", str(writable)]
    else:
        args += ["--bind", str(writable), str(writable)]
    # The sandbox's root is bwrap's own tmpfs: read-only once the binds are made, so nothing but /tmp,
    # /dev/shm (size-capped) and the job dir can be written, and nothing written outlives a job there.
    return args + [*_traverse_only(readable, writable), "--remount-ro", "/", "--chdir", str(writable)]


def _traverse_only(readable: list[Path], writable: Path) -> list[str]:
    """--chmod 0111 for the folders bwrap made on its own root to hold the binds (/root above the pyenv
    interpreter, /work above a checkout): a job may pass through them, never list them.

    Only folders of the sandbox's own tmpfs: never one inside a bound host path (a chmod there would change
    the host's folder), a system dir, or the private /tmp and /dev/shm themselves.
    """
    keep = {Path("/"), Path("/tmp"), Path("/dev/shm"), Path("/dev"), Path("/proc")}
    system = [Path(name) for name in _SYSTEM_DIRS]
    folders: set[Path] = set()
    for path in (*readable, writable):
        folders.update(path.parents)
    args: list[str] = []
    for folder in sorted(folders, key=lambda p: len(p.parts)):
        if folder in keep or any(folder.is_relative_to(p) for p in (*readable, *system)):
            continue
        args += ["--chmod", "0111", str(folder)]
    return args


class UnsafeTempDir(SandboxUnavailable):
    """A temp folder bpywright keeps under a known name exists and is not this user's own private folder."""


def private_dir(path: Path) -> Path:
    """path as a folder only this user may enter: made 0700 here, or refused when it exists and is not that.

    A folder under a known name in a shared /tmp can be made first by anyone; one that is a link, is another
    user's, or is open to others (who could plant a link in it for root to follow) is refused, never used.
    """
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:
        raise UnsafeTempDir(f"cannot make bpywright's private folder {path}: {exc.strerror}") from exc
    st = os.lstat(path)
    mode = stat.S_IMODE(st.st_mode)
    if stat.S_ISLNK(st.st_mode):
        problem = "is a symbolic link"
    elif not stat.S_ISDIR(st.st_mode):
        problem = "is not a folder"
    elif st.st_uid != os.geteuid():
        problem = f"belongs to uid {st.st_uid}, not to you (uid {os.geteuid()})"
    elif mode & 0o077:
        problem = f"is mode {mode:o}, open to other users"
    else:
        return path
    raise UnsafeTempDir(
        f"refusing to use {path}: it {problem}; someone may have made it to read or redirect bpywright's files. "
        "Remove it (or set TMPDIR to a folder of your own) and run again"
    )


def scratch_base() -> Path:
    """The host directory, private to this user, under which workers keep their job directories and logs."""
    return private_dir(Path(tempfile.gettempdir()) / f"bpywright-{os.getuid()}")


def user_temp_dir(name: str) -> Path:
    """A private folder for one of bpywright's caches (mypy's, the default renders) in this user's scratch base."""
    return private_dir(scratch_base() / name)


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
