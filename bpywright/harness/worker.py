"""One warm, sandboxed Blender zygote: the process lifecycle shared by the pool and one-shot runs."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

from ..starts import record
from .backend import ENTRY, Backend, BackendError
from .channel import ChannelClosed, ControlChannel
from .job import JobOutcome, PreparedRun, ScriptInput, empty_dir, read_tail, usage_bytes
from .options import RunOptions
from .report import ExitInfo, RunReport
from .sandbox import (
    Limits,
    PidsCgroup,
    SandboxedCommand,
    SandboxView,
    kill_tree,
    pid_alive,
    sandbox_command,
    scratch_base,
    signal_name,
    wait_quietly,
)

STARTUP_BUDGET = 120.0  # seconds Blender may take to start before the first job
GRACE = 15.0  # seconds past a job's timeout before the host gives up on the zygote itself
QUOTA_POLL = 0.2  # seconds between disk-quota checks while a job runs
MAX_ENTRIES = 20_000  # files and folders one job may create
SHMEM_SLACK = 16 << 20  # shared memory a wiped worker may hold over what it held when it started


def limits_of(options: RunOptions) -> Limits:
    """The sandbox limits a RunOptions asks for."""
    return Limits(
        memory_mb=options.memory_mb,
        max_file_mb=options.max_file_mb,
        max_processes=options.max_processes,
        tmp_mb=options.tmp_mb,
        disk_mb=options.disk_mb,
    )


class Worker:
    """A Blender zygote in its sandbox; each job runs in a fresh forked child inside the worker's private dir."""

    def __init__(self, backend: Backend, options: RunOptions, root: Path | None, index: int, base: Path | None = None):
        self.backend = backend
        self.options = options
        self.root = root  # the project folder shown read-only, or None for scripts given as text
        self.base = base or scratch_base()
        self.dir = Path(tempfile.mkdtemp(prefix=f"w{os.getpid()}-{index}-", dir=self.base))
        self.log_path = self.dir.with_suffix(".log")
        self.jobs_done = 0
        self.blender_version: str | None = None
        self.proc: subprocess.Popen | None = None
        self.host_dir = self.dir  # the job dir as the host opens it (set at start)
        self._oom_kills = 0
        self._dir_mode = 0o700  # the job dir's own mode, put back after every job (set at start)
        self.unclean = ""  # what a job left that could not be wiped: the worker is stopped, never given another job
        self._shmem_at_start: int | None = None  # RAM-backed memory charged to the fresh worker (memory cgroup)
        self._sandboxed: SandboxedCommand | None = None
        self._channel: ControlChannel | None = None

    @property
    def sandbox(self):
        """The sandbox kind this worker runs under."""
        assert self._sandboxed is not None
        return self._sandboxed.kind

    def view(self) -> SandboxView:
        """What the worker's processes see: the runtime, the entry, the project root (read-only), its own dir."""
        readable = (*self.backend.sandbox_paths, ENTRY.parent, *((self.root,) if self.root else ()))
        # Under a readable root: other jobs' dirs and the data dir (models, exemplar store, tokens) are masked.
        private = (self.base.resolve(), data_dir())
        hidden = tuple(p for p in private if self.root is not None and p.is_relative_to(self.root) and p.is_dir())
        size = self.options.disk_mb * 1024 * 1024 if self.options.sandbox else 0
        return SandboxView(writable=self.dir, readable=readable, hidden=hidden, writable_bytes=size)

    def start(self) -> None:
        """Start the zygote and wait until it has imported bpy and says it is ready."""
        record("blender", str(self.backend.executable))
        read_fd, write_fd = os.pipe()
        self._channel = ControlChannel(read_fd)
        try:
            self._sandboxed = sandbox_command([], self.view(), use_bwrap=self.options.sandbox, limits=limits_of(self.options))
            extra: list[str] = ["--own-pid-namespace"] if self._sandboxed.kind == "bwrap" else []
            extra += ["--warm-render"] if self.options.render and self.options.engine == "workbench" else []
            self._sandboxed.argv += self.backend.command("--serve", "--control-fd", str(write_fd), *extra)
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
            with os.fdopen(os.open(self.log_path, flags, 0o600), "ab") as log:
                self.proc = self._sandboxed.start(stdin=subprocess.PIPE, log=log, cwd=self.dir, control_fd=write_fd)
        finally:
            os.close(write_fd)
            if self._sandboxed is not None:
                self._sandboxed.close_fds()
        try:
            ready = self._channel.receive(time.monotonic() + STARTUP_BUDGET)
        except (TimeoutError, ChannelClosed) as exc:
            self.stop()
            raise BackendError(f"Blender worker did not start: {read_tail(self.log_path, 800).strip()}") from exc
        self.blender_version = ready.get("blender_version")
        self.host_dir = self._private_dir()
        try:
            self._dir_mode = stat.S_IMODE(os.lstat(self.host_dir).st_mode)
        except OSError as exc:
            self.stop()
            raise BackendError(f"Blender worker's job folder is unreachable: {exc}") from exc
        cgroup = self._sandboxed.cgroup if self._sandboxed is not None else None
        self._shmem_at_start = cgroup.shmem_bytes() if cgroup is not None else None

    def _private_dir(self) -> Path:
        """Where the host reaches the job dir: the sandbox's own tmpfs seen through the zygote's /proc root, or self.dir."""
        assert self.proc is not None and self._sandboxed is not None
        if self._sandboxed.kind != "bwrap":
            return self.dir
        children = _children(self.proc.pid)
        if len(children) != 1:
            self.stop()
            raise BackendError(f"Blender worker's sandbox has {len(children)} processes under bwrap, expected its zygote")
        return Path(f"/proc/{children[0]}/root") / self.dir.resolve().relative_to("/")

    @property
    def alive(self) -> bool:
        """True while the zygote runs."""
        return self.proc is not None and self.proc.poll() is None

    def run_script(self, script: ScriptInput, options: RunOptions, render_to: Path | None, outputs_to: Path | None) -> RunReport:
        """Prepare one script in this worker's (emptied) private dir and run it; a rejected one never reaches Blender."""
        self._wipe_or_stop()
        if not self.alive:
            raise BackendError(f"Blender worker could not be made clean for a job: {self.unclean}")
        name = script.as_file.name if script.as_file else "script.py"
        job = PreparedRun.prepare(
            script.text,
            self.dir,
            options,
            name=name,
            origin=script.origin,
            as_file=script.as_file,
            max_bytes=options.max_script_bytes,
            host_dir=self.host_dir if self.host_dir != self.dir else None,
            owner=self._sandboxed.job_owner if self._sandboxed is not None else None,
            inputs=script.inputs,
        )
        if job.rejected:
            return job.rejected_report(self.backend.name, self.sandbox)
        record("blender", str(self.backend.executable))
        report = self.run(job, render_to, outputs_to)
        if report.status != "ok" and (hint := self._closed_root_hint()):
            report.stderr = (report.stderr + "\n" + hint).lstrip("\n")
        return report

    def _closed_root_hint(self) -> str:
        """A note when the project root is closed to other users, so closed to the job too (it runs as uid 65534)."""
        owner = self._sandboxed.job_owner if self._sandboxed is not None else None
        if owner is None or self.root is None:
            return ""
        try:
            mode = self.root.stat().st_mode
        except OSError:
            return ""
        if mode & 0o005 == 0o005:
            return ""
        return (
            f"bpywright: the job runs as uid {owner[0]}, which reads only what any user may, and {self.root} is mode "
            f"{mode & 0o777:o}: `chmod o+rx` it (and o+r its files) for the script to read its project"
        )

    def run(self, job: PreparedRun, render_to: Path | None, outputs_to: Path | None = None) -> RunReport:
        """Run one prepared job; the zygote survives script failures and timeouts, the pool replaces it otherwise."""
        assert self.proc is not None and self.proc.stdin is not None and self._channel is not None
        start = time.perf_counter()
        outcome = self._exchange(job)
        if not self.alive and self.proc.returncode is not None and outcome.exit is None:
            outcome.exit = ExitInfo(returncode=self.proc.returncode, signal=signal_name(self.proc.returncode, self.sandbox == "bwrap"))
        self.jobs_done += 1
        try:
            return job.finish(
                backend=self.backend.name,
                sandbox=self.sandbox,
                wall=time.perf_counter() - start,
                outcome=outcome,
                process_log=read_tail(self.log_path) if outcome.status == "crash" else "",
                render_to=render_to,
                blender_version=self.blender_version,
                outputs_to=outputs_to,
            )
        finally:
            self._wipe_or_stop()

    def _wipe_or_stop(self) -> None:
        """Empty the job dir (modes the job set undone) and check it; a worker with anything of a job left is stopped."""
        left = empty_dir(self.host_dir, self._dir_mode) if self.alive else ""
        if left and not self.unclean:
            self.unclean = left
        held = self._shmem_held()
        if held and not self.unclean:
            self.unclean = held
        if self.unclean:
            self.stop()

    def _shmem_held(self) -> str:
        """Why the wiped worker still holds a job's memory ('' when it does not): shared memory (tmpfs files, SysV or
        POSIX segments) charged to its cgroup over what the fresh worker held, which would count against the next job."""
        cgroup = self._sandboxed.cgroup if self._sandboxed is not None else None
        if cgroup is None or self._shmem_at_start is None or not self.alive:
            return ""
        now = cgroup.shmem_bytes()
        if now is None or now <= self._shmem_at_start + SHMEM_SLACK:
            return ""
        return f"{(now - self._shmem_at_start) >> 20} MB of shared memory stayed charged to the worker after the wipe"

    def _exchange(self, job: PreparedRun) -> JobOutcome:
        """Send the job and wait for the zygote's verdict, enforcing the disk quota meanwhile."""
        assert self.proc is not None and self.proc.stdin is not None and self._channel is not None
        line = (json.dumps(job.payload(self.sandbox)) + "\n").encode()
        quota = job.options.disk_mb * 1024 * 1024
        cgroup = self._sandboxed.cgroup if self._sandboxed is not None else None
        oom_before = cgroup.oom_kills() if cgroup is not None else 0
        try:
            self.proc.stdin.write(line)
            self.proc.stdin.flush()
            self._channel.receive(time.monotonic() + STARTUP_BUDGET)
            deadline = time.monotonic() + job.options.timeout + GRACE
            while True:
                try:
                    done = self._channel.receive(min(deadline, time.monotonic() + QUOTA_POLL))
                    break
                except TimeoutError:
                    if time.monotonic() >= deadline:
                        raise
                over = self._over_quota(quota, job.options.disk_mb)
                if over:
                    self.stop()
                    return JobOutcome("rejected", reason=over)
        except TimeoutError:
            self.stop()
            return JobOutcome("timeout")
        except (ChannelClosed, BrokenPipeError, OSError):
            wait_quietly(self.proc, 10)  # it is exiting: let it, to learn the signal
            self.stop()
            return JobOutcome("crash", reason="the Blender worker died")
        over = self._over_quota(quota, job.options.disk_mb)  # a job faster than the polling is caught here
        if over:
            return JobOutcome("rejected", reason=over)
        if done.get("done") != job.job_id:
            self.stop()
            return JobOutcome("crash", reason="the worker answered out of turn")
        if done.get("unclean"):  # this job's report stands; the worker, with something of it left, takes no other job
            self.unclean = str(done["unclean"])[:300]
        if cgroup is not None and cgroup.oom_kills() > oom_before:
            limit = job.options.memory_mb
            return JobOutcome("rejected", reason=f"memory limit: the job's processes together used over {limit} MB (killed)")
        if done.get("timeout"):
            return JobOutcome("timeout")
        if done.get("error"):
            return JobOutcome("crash", reason=str(done["error"])[:300])
        code = done.get("returncode")
        return JobOutcome("done", ExitInfo(returncode=code, signal=signal_name(code, False)) if isinstance(code, int) else None)

    def _over_quota(self, quota: int, limit_mb: int) -> str:
        """Why the job's files exceed the disk quota, or ''."""
        if self.host_dir != self.dir:  # the job dir is its own tmpfs: the kernel counts (unlinked files too) and caps
            try:
                fs = os.statvfs(self.host_dir)
            except OSError:
                return ""
            if fs.f_files - fs.f_ffree > MAX_ENTRIES:
                return f"disk quota exceeded: the job made over {MAX_ENTRIES} files (its files were deleted)"
            if fs.f_bfree == 0:
                return f"disk quota exceeded: the job filled its {limit_mb} MB (its files were deleted)"
            return ""
        used, entries = usage_bytes(self.dir, MAX_ENTRIES + 1)
        if used <= quota and entries <= MAX_ENTRIES:
            return ""
        what = f"{used // 2**20} MB" if used > quota else f"over {MAX_ENTRIES} files"
        return f"disk quota exceeded: the job wrote {what} (limit {limit_mb} MB; its files were deleted)"

    def stop(self) -> None:
        """End the zygote (EOF first, then kill) and release its sandbox resources."""
        if self.proc is not None:
            if self.proc.poll() is None:
                try:
                    assert self.proc.stdin is not None
                    self.proc.stdin.close()
                    self.proc.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired, AssertionError):
                    pass
            kill_tree(self.proc)
            self.proc.wait()
            if self.proc.stdin is not None:
                try:
                    self.proc.stdin.close()
                except OSError:
                    pass
        if self._channel is not None:
            self._channel.close()
        if self._sandboxed is not None:
            self._sandboxed.cleanup()

    def discard(self) -> None:
        """Stop and delete the worker's files."""
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
        self.log_path.unlink(missing_ok=True)


def _children(pid: int) -> list[str]:
    """Pids of pid's child processes (from /proc/PID/task/PID/children, else by scanning every process's parent)."""
    try:
        return Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        pass
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if stat[stat.rfind(")") + 2 :].split()[1] == str(pid):
                found.append(entry.name)
    return found


def data_dir() -> Path:
    """bpywright's data dir (BPYWRIGHT_ARTIFACTS, else ./artifacts), resolved: never shown to a script."""
    return Path(os.environ.get("BPYWRIGHT_ARTIFACTS") or "artifacts").resolve()


def remove_leftovers(base: Path | None = None) -> int:
    """Delete worker dirs, logs and cgroups left by bpywright processes that were killed; returns how many."""
    base = base or scratch_base()
    removed = PidsCgroup.remove_orphans()
    for path in base.glob("w*-*"):
        owner = path.name[1:].split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and not pid_alive(int(owner)):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
            removed += 1
    return removed
