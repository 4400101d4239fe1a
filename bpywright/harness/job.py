"""A job: one script run in a worker's private directory, and the host's careful reading of what it left.

Everything in the job directory was written by untrusted code. The host opens only fixed names,
relative to a directory descriptor, without following symlinks, regular files only, size-capped;
it never takes a path from the report; the render is validated as a PNG and copied, never moved.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from .backend import BackendName
from .imagestats import nonblank_fraction
from .options import RunOptions
from .renders import MAX_RENDER_BYTES, RenderRejected, check_png, default_render_path, write_render
from .report import ExceptionInfo, ExitInfo, RunReport, Timings
from .sandbox import SandboxKind

MAX_SCRIPT_BYTES = 1_000_000
TAIL_CHARS = 4000
MAX_REPORT_BYTES = 16 * 1024 * 1024
OUT_DIR = "out"
INPUT_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")  # a file a caller gives a job: a plain name in its out/


class UnsafeFile(Exception):
    """A file the job left is not a regular file we may read (symlink, device, fifo, missing, too big)."""


def read_job_file(dir_fd: int | None, name: str, max_bytes: int, *, tail: bool = False) -> bytes:
    """Read a fixed-name regular file relative to dir_fd (None: name is a path), never following a symlink; the tail when tail=True."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError as exc:
        raise UnsafeFile(f"{name}: {exc.strerror}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(f"{name} is not a regular file")
        if info.st_size > max_bytes and not tail:
            raise UnsafeFile(f"{name} is {info.st_size} bytes (limit {max_bytes})")
        if tail and info.st_size > max_bytes:
            os.lseek(fd, info.st_size - max_bytes, os.SEEK_SET)
        chunks, left = [], max_bytes
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_tail(path: Path, chars: int = TAIL_CHARS) -> str:
    """The last `chars` characters of a host-written text file (e.g. a worker log), or ''."""
    try:
        with path.open("rb") as fh:
            fh.seek(0, 2)
            fh.seek(max(0, fh.tell() - chars * 4))
            return fh.read().decode("utf-8", "replace")[-chars:]
    except OSError:
        return ""


def _safe_name(name: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(name).name).lstrip(".") or "script.py"
    return stem if stem.endswith(".py") else stem + ".py"


def project_root(script: Path) -> Path:
    """A script's project: its git work tree's top, else its folder (what `--root` defaults to)."""
    folder = script.resolve().parent
    try:
        proc = subprocess.run(["git", "-C", str(folder), "rev-parse", "--show-toplevel"], capture_output=True, text=True, timeout=10)
        if proc.returncode == 0 and proc.stdout.strip():
            return Path(proc.stdout.strip()).resolve()
    except (OSError, subprocess.TimeoutExpired):
        pass
    return folder


class RootError(ValueError):
    """A project root that cannot be shown to the script (the whole host, or not holding the script)."""


def check_root(root: Path, script: Path | None) -> Path:
    """The resolved project root, refused when it is '/' or does not contain the script."""
    root = root.resolve()
    if root == Path("/"):
        raise RootError("--root / would show the whole host to the script: name the project's folder")
    if not root.is_dir():
        raise RootError(f"--root {root} is not a directory")
    if script is not None and not script.resolve().is_relative_to(root):
        raise RootError(f"the script {script} is not inside --root {root}")
    return root


@dataclass(frozen=True)
class ScriptInput:
    """A script to run: its text, the path it was read from, the project file it runs as, the project root shown to it."""

    text: str | bytes
    origin: str | None
    as_file: Path | None
    root: Path | None
    inputs: tuple[tuple[str, bytes], ...] = ()  # files placed in its working directory before it runs (name, content)


def _too_broad(root: Path) -> str:
    """Why a folder must not be a script's default root (the whole host, all of /tmp, a home, other jobs), or ''."""
    import tempfile

    from .sandbox import scratch_base

    homes = {Path("/root"), Path("/home"), Path.home().resolve()}
    if root == Path("/"):
        return "it is the whole host"
    if root == Path(tempfile.gettempdir()).resolve():
        return "it is all of the temporary folder (other users' scripts, renders and linter copies)"
    if root in homes or root.parent == Path("/home"):
        return "it is a home folder"
    if scratch_base().resolve().is_relative_to(root):
        return "it holds other jobs' folders"
    return ""


def script_input(script: Path | None, source: str | bytes | None, as_file: Path | None, options: RunOptions) -> ScriptInput:
    """What a run of `script` (a path) or `source` (text; exactly one of them) reads, runs as, and shows of its project."""
    if (script is None) == (source is None):
        raise ValueError("give exactly one of script or source")
    text = script.read_bytes() if script is not None else source
    assert text is not None
    as_file = script if script is not None else as_file
    root = check_root(options.root or project_root(as_file), as_file) if as_file is not None else None
    if root is not None and options.root is None and (why := _too_broad(root)):
        raise RootError(
            f"{as_file} would see {root} as its project, and {why}: move the script into a project folder, "
            "or pass --root with the folder it may read"
        )
    return ScriptInput(text, str(script) if script is not None else None, as_file, root)


@dataclass
class PreparedRun:
    """One script prepared for a run in `job_dir` (a worker's private dir, the only place its Blender may write).

    Layout: a copy of the script and the harness files at the top, the script's working directory (its
    outputs) in `out/`. A script from a project runs as its own path (`__file__`, tracebacks, sys.path[0]),
    its project root shown read-only, so sibling modules and data files are there as under `blender --python`.
    """

    job_id: str
    job_dir: Path
    script_path: Path
    file_path: Path
    origin: str | None
    options: RunOptions
    args: list[str] = field(default_factory=list)
    rejected: str | None = None
    host_dir: Path | None = None  # where the host reaches job_dir (the sandbox's own tmpfs, seen through /proc), if not there

    @property
    def local_dir(self) -> Path:
        """The job dir as the host opens it."""
        return self.host_dir or self.job_dir

    @classmethod
    def prepare(
        cls,
        source: str | bytes,
        job_dir: Path,
        options: RunOptions,
        name: str = "script.py",
        origin: str | None = None,
        as_file: Path | None = None,
        max_bytes: int = MAX_SCRIPT_BYTES,
        host_dir: Path | None = None,
        owner: tuple[int, int] | None = None,
        inputs: tuple[tuple[str, bytes], ...] = (),
    ) -> PreparedRun:
        """Fill the (empty) job dir: out/ and a copy of the script, which runs as `as_file` when given.

        owner: the job's (uid, gid) on the host where it is not ours (root's sandbox runs as 65534): out/ is
        given to it, the script copy is world-readable whatever our umask.
        inputs: files the caller gives the job, written into out/ (its working directory) under plain names.
        """
        job_id = uuid.uuid4().hex[:12]
        local = host_dir or job_dir
        (local / OUT_DIR).mkdir(parents=True, exist_ok=True)
        if owner is not None:
            os.chown(local / OUT_DIR, *owner, follow_symlinks=False)
        raw = source.encode("utf-8") if isinstance(source, str) else source
        rejected = None
        if len(raw) > max_bytes:
            rejected = f"script is {len(raw)} bytes; the limit is {max_bytes}"
        elif b"\x00" in raw:
            rejected = "script contains NUL bytes: not a Python source file"
        for given, data in inputs:
            if not INPUT_NAME.fullmatch(given):
                raise ValueError(f"an input file's name must be a plain file name, not {given!r}")
            fd = os.open(local / OUT_DIR / given, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            if owner is not None:
                os.chown(local / OUT_DIR / given, *owner, follow_symlinks=False)
        script_path = job_dir / _safe_name(name)
        (local / script_path.name).write_bytes(raw)
        os.chmod(local / script_path.name, 0o644)
        file_path = as_file.resolve() if as_file is not None else script_path
        return cls(job_id, job_dir, script_path, file_path, origin, options, list(options.args), rejected, host_dir)

    def payload(self, sandbox: SandboxKind) -> dict:
        """The job description the in-Blender child reads (paths are the host's own choice, never the job's)."""
        opts = self.options
        return {
            "job_id": self.job_id,
            "job_dir": str(self.job_dir),
            "out_dir": str(self.job_dir / OUT_DIR),
            "script_path": str(self.script_path),
            "file_path": str(self.file_path),
            "args": self.args,
            "report_path": str(self.job_dir / "report.json"),
            "render_path": str(self.job_dir / "render.png") if opts.render else None,
            "engine": opts.engine,
            "resolution": opts.resolution,
            "samples": opts.samples,
            "empty_scene": opts.empty_scene,
            "timeout": opts.timeout,
            "sandbox": sandbox,
        }

    def rejected_report(self, backend: BackendName, sandbox: SandboxKind) -> RunReport:
        """The report for a script refused before it ran."""
        exc = ExceptionInfo(type="Rejected", message=self.rejected or "rejected")
        return RunReport(status="rejected", backend=backend, exception=exc, sandbox=sandbox, script_path=self.origin)

    def finish(
        self,
        *,
        backend: BackendName,
        sandbox: SandboxKind,
        wall: float,
        outcome: JobOutcome,
        process_log: str = "",
        render_to: Path | None = None,
        blender_version: str | None = None,
        outputs_to: Path | None = None,
    ) -> RunReport:
        """Turn what the run left in the job dir into the final RunReport; every field the host knows is the host's."""
        try:
            dir_fd = os.open(self.local_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError as exc:  # the sandbox (and its job dir) is gone: a crash, told as such
            dir_fd = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
            if outcome.status == "done":
                outcome = JobOutcome("crash", outcome.exit, f"the job's files are gone ({exc.strerror})")
        try:
            report, why = (None, "") if outcome.status in ("timeout", "crash", "rejected") else self._read_report(dir_fd)
            if report is None:
                report = self._synthesised(dir_fd, backend, sandbox, outcome, process_log, why)
            # The host's own facts replace whatever the job wrote.
            report.backend, report.sandbox, report.exit, report.script_path = backend, sandbox, outcome.exit, self.origin
            report.blender_version = blender_version or report.blender_version
            entry = report.timings
            work = entry.reset + entry.script + entry.render
            report.timings = Timings(startup=max(wall - work, 0.0), reset=entry.reset, script=entry.script, render=entry.render, total=wall)
            self._take_render(dir_fd, report, render_to)
        finally:
            os.close(dir_fd)
        if outputs_to is not None and outcome.status != "rejected":  # over quota: nothing of it is kept
            skipped = copy_outputs(self.local_dir / OUT_DIR, outputs_to, self.options.disk_mb * 1024 * 1024)
            if skipped:
                report.stderr += "\nbpywright: outputs not copied: " + "; ".join(skipped[:10]) + "\n"
        return report

    def _read_report(self, dir_fd: int) -> tuple[RunReport | None, str]:
        try:
            raw = json.loads(read_job_file(dir_fd, "report.json", MAX_REPORT_BYTES))
        except UnsafeFile as exc:
            return None, str(exc)
        except UnicodeDecodeError:
            return None, "report.json is not UTF-8"
        except ValueError:
            return None, "report.json is not JSON"
        except RecursionError:
            return None, "report.json is nested too deeply"
        if not isinstance(raw, dict) or raw.get("job_id") != self.job_id:
            return None, "report.json is not this job's report"
        try:
            return RunReport.model_validate(raw), ""
        except ValidationError as exc:
            return None, f"report.json is malformed ({exc.error_count()} errors)"
        except (RecursionError, ValueError) as exc:
            return None, f"report.json is malformed ({type(exc).__name__})"

    def _take_render(self, dir_fd: int, report: RunReport, render_to: Path | None) -> None:
        """Validate the job's render.png and copy it to render_to; drop the render when it is not a sound PNG."""
        if report.render is None:
            return
        expected = (self.options.resolution, self.options.resolution)
        try:
            data = read_job_file(dir_fd, "render.png", MAX_RENDER_BYTES)
            check_png(data, *expected)
        except (UnsafeFile, RenderRejected) as exc:
            report.render = None
            if report.status == "ok" and self.options.render:
                report.status = "error"
                report.exception = ExceptionInfo(type="RenderMissing", message=f"no valid render: {exc}")
            return
        render_to = write_render(data, render_to or default_render_path(self.job_id))
        report.render.path = str(render_to)
        report.render.width, report.render.height = expected
        report.render.nonblank_fraction = nonblank_fraction(render_to)

    def _synthesised(
        self, dir_fd: int, backend: BackendName, sandbox: SandboxKind, outcome: JobOutcome, process_log: str, why: str
    ) -> RunReport:
        stderr = _tail_text(dir_fd, "stderr.txt")
        if outcome.status == "timeout":
            exc = ExceptionInfo(type="Timeout", message=f"the script did not finish within {self.options.timeout:g}s")
        elif outcome.status == "rejected":
            exc = ExceptionInfo(type="Rejected", message=outcome.reason)
        else:
            sig = outcome.exit.signal if outcome.exit else None
            code = outcome.exit.returncode if outcome.exit else None
            how = outcome.reason or (f"Blender was killed by {sig}" if sig else f"Blender exited with code {code}")
            exc = ExceptionInfo(type="Crash", message=f"{how} before writing a report" + (f" ({why})" if why else ""))
            stderr = (stderr + "\n" + process_log[-TAIL_CHARS:]).strip()[-TAIL_CHARS:]
        status = outcome.status if outcome.status in ("timeout", "rejected") else "crash"
        return RunReport(
            status=status,
            backend=backend,
            exception=exc,
            stdout=_tail_text(dir_fd, "stdout.txt"),
            stderr=stderr,
            sandbox=sandbox,
        )


@dataclass
class JobOutcome:
    """How a job ended, as the host (or the trusted zygote) saw it: never read from the job's files."""

    status: str = "done"  # done | timeout | crash | rejected
    exit: ExitInfo | None = None
    reason: str = ""


def _tail_text(dir_fd: int, name: str) -> str:
    try:
        return read_job_file(dir_fd, name, TAIL_CHARS * 4, tail=True).decode("utf-8", "replace")[-TAIL_CHARS:]
    except UnsafeFile:
        return ""


MAX_OUTPUT_DEPTH = 32  # folders deeper than this in a job's outputs are not copied (reported)


def copy_outputs(src: Path, dest: Path, max_bytes: int) -> list[str]:
    """Copy the regular files and folders the script left in src to dest; returns what was skipped, never raises.

    Both trees are walked by directory descriptor, each folder opened relative to its (already open) parent
    with O_NOFOLLOW: no symlink is followed on either side, a link already in dest included (a repository's
    committed link would otherwise send the job's files wherever it points, as the host user).
    """
    skipped: list[str] = []
    try:
        dest.mkdir(parents=True, exist_ok=True)
        src_fd = os.open(src, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        return [f"{dest}: {exc.strerror}"]
    try:
        dest_fd = os.open(dest, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # the caller's own choice of folder
    except OSError as exc:
        os.close(src_fd)
        return [f"{dest}: {exc.strerror}"]
    budget = [max_bytes]
    try:
        _copy_tree(src_fd, dest_fd, "", 0, budget, skipped)
    finally:
        os.close(src_fd)
        os.close(dest_fd)
    return skipped


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def _copy_tree(src_fd: int, dest_fd: int, rel: str, depth: int, budget: list[int], skipped: list[str]) -> None:
    """Copy one folder's entries (src_fd → dest_fd), recursing into sub-folders up to MAX_OUTPUT_DEPTH."""
    try:
        entries = list(os.scandir(src_fd))
    except OSError as exc:
        skipped.append(f"{rel or '.'}: {exc.strerror}")
        return
    for entry in entries:
        name = entry.name
        shown = _printable(f"{rel}/{name}" if rel else name)[:200]
        try:
            if entry.is_dir(follow_symlinks=False):
                if depth + 1 >= MAX_OUTPUT_DEPTH:
                    skipped.append(f"{shown}: deeper than {MAX_OUTPUT_DEPTH} folders")
                    continue
                try:
                    os.mkdir(name, 0o755, dir_fd=dest_fd)
                except FileExistsError:
                    pass
                child_dest = os.open(name, _DIR_FLAGS, dir_fd=dest_fd)  # ELOOP/ENOTDIR: a link or a file there
                try:
                    child_src = os.open(name, _DIR_FLAGS, dir_fd=src_fd)
                    try:
                        _copy_tree(child_src, child_dest, f"{rel}/{name}" if rel else name, depth + 1, budget, skipped)
                    finally:
                        os.close(child_src)
                finally:
                    os.close(child_dest)
                continue
            data = read_job_file(src_fd, name, max(budget[0], 0))
            budget[0] -= len(data)
            try:
                os.unlink(name, dir_fd=dest_fd)  # a link at the name is removed, never written through
            except FileNotFoundError:
                pass
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=dest_fd)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
        except UnsafeFile as exc:
            skipped.append(_printable(str(exc))[:200])
        except OSError as exc:
            skipped.append(f"{shown}: {exc.strerror or exc}")


def _printable(text: str) -> str:
    """text with control characters escaped (names chosen by the job end up on a terminal)."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def empty_dir(path: Path, mode: int = 0o755) -> str:
    """Delete everything inside path (symlinks as links, never their targets), keeping path itself with `mode` and no
    extended attributes; returns what is left ('' when it is empty, as it must be before another job uses it).

    A folder a job made read-only (0500, 0000) is made writable by its owner first: whatever modes the job set,
    nothing of it stays. The job's processes are gone by then, so no entry changes between its check and removal.
    """
    try:
        if stat.S_IMODE(os.lstat(path).st_mode) != mode:
            os.chmod(path, mode)
        for name in user_xattrs(path):
            os.removexattr(path, name, follow_symlinks=False)
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    try:
        _empty_fd(fd, 0)
        left = os.listdir(fd)
        changed = stat.S_IMODE(os.fstat(fd).st_mode) != mode or bool(user_xattrs(fd))
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    finally:
        os.close(fd)
    if left:
        return f"{len(left)} entries left in the job folder ({', '.join(sorted(left)[:3])})"
    return f"{path} keeps a changed mode or extended attributes" if changed else ""


def user_xattrs(target: Path | int) -> list[str]:
    """The user.* extended attributes of a file or fd: the only ones a job without capabilities can set (security.*
    labels, an SELinux system's, are the kernel's and stay)."""
    names = os.listxattr(target) if isinstance(target, int) else os.listxattr(target, follow_symlinks=False)
    return [name for name in names if name.startswith("user.")]


MAX_WIPE_DEPTH = 200  # deeper folders are left (file descriptors): the folder is then not empty and the worker goes


def _empty_fd(fd: int, depth: int) -> None:
    """Remove everything in the folder open at fd, depth first, through descriptors (no path grows too long)."""
    for name in os.listdir(fd):
        try:
            st_mode = os.lstat(name, dir_fd=fd).st_mode
            if not stat.S_ISDIR(st_mode):
                os.unlink(name, dir_fd=fd)
                continue
            if depth >= MAX_WIPE_DEPTH:
                continue
            if stat.S_IMODE(st_mode) & 0o700 != 0o700:
                os.chmod(name, 0o700, dir_fd=fd)
            sub = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            try:
                _empty_fd(sub, depth + 1)
            finally:
                os.close(sub)
            os.rmdir(name, dir_fd=fd)
        except OSError:
            pass


def usage_bytes(path: Path, max_entries: int = 100_000) -> tuple[int, int]:
    """(bytes, entries) under path without following symlinks; stops counting entries at max_entries."""
    total = entries = 0
    stack = [str(path)]
    while stack and entries < max_entries:
        try:
            with os.scandir(stack.pop()) as it:
                for entry in it:
                    entries += 1
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
                        else:
                            total += entry.stat(follow_symlinks=False).st_blocks * 512
                    except OSError:
                        pass
        except OSError:
            pass
    return total, entries
