"""The runtime registry: Blender runtimes by version under <data dir>/runtimes/<version>/ (runtime.json, and a venv for wheels)."""

from __future__ import annotations

import builtins
import fcntl
import importlib.metadata
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from ..starts import record
from ..versions import VersionError, major_minor, version_tuple
from .models import Runtime
from .pythons import WHEEL_PYTHON, find_pythons, pythons_for

Progress = Callable[[str], None]
RECORD = "runtime.json"
PIP_TIMEOUT = 3600


class RuntimeMissing(LookupError):
    """A version with no usable runtime; the message names the command that installs it."""


class RuntimeInstallError(RuntimeError):
    """Installing a runtime failed; the message says why and what to try."""


def install_hint(version: str) -> str:
    """The command that installs a version's runtime."""
    return f"`bpywright blender add {version}` (the bpy wheel in its own venv) or `bpywright blender add /path/to/blender`"


def bundled_runtime() -> Runtime | None:
    """The bpy wheel in this interpreter (pinned in the project's venv), or None when bpy is not installed here."""
    try:
        full = importlib.metadata.version("bpy")
    except importlib.metadata.PackageNotFoundError:
        return None
    return Runtime(version=major_minor(full), blender_version=full, kind="bundled", python=Path(sys.executable))


def probe_python(python: Path, timeout: float = 300) -> str:
    """'5.2.3 LTS': what `import bpy` reports in that interpreter (raises RuntimeInstallError when it cannot)."""
    code = "import bpy, sys; sys.stdout.write(bpy.app.version_string)"
    record("blender", str(python))
    try:
        proc = subprocess.run([str(python), "-I", "-c", code], capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RuntimeInstallError(f"cannot start {python}: {exc}") from exc
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise RuntimeInstallError(f"{python} cannot import bpy: {tail[0]}")
    return proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else "unknown"


class RuntimeRegistry:
    """Blender runtimes by MAJOR.MINOR: the bundled wheel plus what `bpywright blender add` recorded under root."""

    def __init__(self, root: Path):
        self.root = Path(root)

    @classmethod
    def for_settings(cls, settings) -> RuntimeRegistry:
        """The registry under the settings' data dir."""
        return cls(settings.artifacts / "runtimes")

    def _dir(self, version: str) -> Path:
        return self.root / major_minor(version)

    def _read(self, folder: Path) -> Runtime | None:
        try:
            return Runtime.model_validate_json((folder / RECORD).read_text(encoding="utf-8"))
        except (OSError, ValidationError, ValueError):
            return None

    def stored(self) -> dict[str, Runtime | str]:
        """Recorded runtimes by version; a folder whose record is unreadable maps to the reason."""
        out: dict[str, Runtime | str] = {}
        if not self.root.is_dir():
            return out
        for folder in sorted(self.root.iterdir()):
            try:
                version = major_minor(folder.name)
            except VersionError:
                continue
            if not folder.is_dir() or folder.name != version:
                continue
            runtime = self._read(folder)
            if runtime is not None and runtime.version == version:
                out[version] = runtime
            elif (folder / RECORD).exists():
                out[version] = f"unreadable record {folder / RECORD}"
        return out

    def list(self) -> list[Runtime | tuple[str, str]]:
        """Every runtime (the bundled one first, then by version); broken records as (version, reason)."""
        items: dict[str, Runtime | str] = {}
        bundled = bundled_runtime()
        if bundled is not None:
            items[bundled.version] = bundled
        for version, runtime in self.stored().items():
            items.setdefault(version, runtime)
        ordered = sorted(items.items(), key=lambda kv: version_tuple(kv[0]))
        return [r if isinstance(r, Runtime) else (v, r) for v, r in ordered]

    def installed(self) -> builtins.list[Runtime]:  # `list` here is the method above
        """The runtimes that can start now (their interpreter or binary exists)."""
        return [r for r in self.list() if isinstance(r, Runtime) and not r.missing()]

    def get(self, version: str) -> Runtime:
        """The runtime of a version; RuntimeMissing (with the install command) when there is none or it is broken."""
        key = major_minor(version)
        bundled = bundled_runtime()
        if bundled is not None and bundled.version == key:
            return bundled
        found = self.stored().get(key)
        if found is None:
            installed = ", ".join(r.version for r in self.installed()) or "none"
            raise RuntimeMissing(f"Blender {key} is not installed (installed: {installed}); install it with {install_hint(key)}")
        if isinstance(found, str) or found.missing():
            why = found if isinstance(found, str) else found.missing()
            raise RuntimeMissing(f"the Blender {key} runtime is broken ({why}); reinstall it with `bpywright blender add {key} --force`")
        return found

    @contextmanager
    def _locked(self):
        self.root.mkdir(parents=True, exist_ok=True)
        with open(self.root / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # two `blender add` at once: the second waits, then finds it installed
            yield

    def _write(self, runtime: Runtime) -> Runtime:
        folder = self._dir(runtime.version)
        folder.mkdir(parents=True, exist_ok=True)
        stamped = runtime.model_copy(update={"added_at": datetime.now(UTC).isoformat(timespec="seconds")})
        tmp = folder / f".{RECORD}.tmp"
        tmp.write_text(stamped.model_dump_json(indent=2) + "\n", encoding="utf-8")
        tmp.replace(folder / RECORD)
        return stamped

    def add_executable(self, blender: Path, *, force: bool = False) -> Runtime:
        """Register a Blender binary under the version it reports."""
        from ..harness.backend import Backend, BackendError

        path = Path(blender).expanduser()
        if not path.is_file():
            raise RuntimeInstallError(f"Blender executable not found: {path} (give the path to a `blender` binary)")
        try:
            reported = Backend.resolve(path).version()
        except BackendError as exc:
            raise RuntimeInstallError(str(exc)) from exc
        runtime = Runtime(version=major_minor(reported), blender_version=reported, kind="executable", blender=path.resolve())
        with self._locked():
            self._refuse_clash(runtime.version, force)
            return self._write(runtime)

    def _refuse_clash(self, version: str, force: bool) -> None:
        bundled = bundled_runtime()
        if bundled is not None and bundled.version == version:
            raise RuntimeInstallError(f"Blender {version} is the bundled bpy wheel ({bundled.python}); it needs no runtime")
        current = self.stored().get(version)
        if isinstance(current, Runtime) and not current.missing() and not force:
            raise RuntimeInstallError(
                f"Blender {version} is already registered ({current.describe().split(None, 1)[1]}); "
                f"`bpywright blender add {version} --force` replaces it"
            )
        if current is not None:
            self._remove_files(version)

    def add_wheel(self, version: str, *, python: Path | None = None, force: bool = False, progress: Progress | None = None) -> Runtime:
        """Install bpy==version.* into <root>/<version>/venv with a CPython the wheel accepts, probe it, record it."""
        say = progress or (lambda _m: None)
        key = major_minor(version)
        with self._locked():
            self._refuse_clash(key, force)
            folder = self._dir(key)
            tries = [("given", python)] if python is not None else pythons_for(key, find_pythons())
            if not tries:
                wanted = WHEEL_PYTHON.get(key, "3.x")
                raise RuntimeInstallError(
                    f"the bpy {key} wheel needs CPython {wanted}, and none was found (pyenv, python{wanted} on PATH): "
                    f"install it (`pyenv install {wanted}`) and retry, pass `--python /path/to/python{wanted}`, "
                    f"or register a Blender executable: `bpywright blender add /path/to/blender`"
                )
            errors = []
            for minor, interpreter in tries:
                try:
                    venv = self._install(folder, key, Path(interpreter), say)
                except RuntimeInstallError as exc:
                    errors.append(f"Python {minor}: {exc}")
                    continue
                say(f"probing {venv}")
                reported = probe_python(venv)
                if major_minor(reported) != key:
                    raise RuntimeInstallError(f"{venv} reports Blender {reported}, not {key}")
                return self._write(Runtime(version=key, blender_version=reported, kind="wheel", python=venv, root=folder.resolve()))
            raise RuntimeInstallError("; ".join(errors))

    def _install(self, folder: Path, version: str, interpreter: Path, say: Progress) -> Path:
        """A fresh venv with bpy==version.* swapped into folder/venv (a failed install leaves nothing behind)."""
        venv = folder / "venv"
        existing = venv / "bin" / "python"
        if existing.is_file():  # a venv left by an earlier install (or `make setup`) is reused when it already works
            try:
                if major_minor(probe_python(existing)) == version:
                    say(f"reusing {venv}")
                    return existing.absolute()
            except (RuntimeInstallError, VersionError):
                pass
        if venv.exists():
            shutil.rmtree(venv)
        folder.mkdir(parents=True, exist_ok=True)
        ok = False
        try:  # built in place: a venv's scripts name its own path, so it cannot be built elsewhere and moved
            say(f"creating a venv with {interpreter} in {venv}")
            self._check(subprocess.run([str(interpreter), "-m", "venv", str(venv)], capture_output=True, text=True), "venv creation")
            say(f"installing bpy=={version}.* (a few hundred MB, minutes)")
            pip = [str(existing), "-m", "pip", "install", "--disable-pip-version-check", "-q", f"bpy=={version}.*"]
            try:
                self._check(subprocess.run(pip, capture_output=True, text=True, timeout=PIP_TIMEOUT), "pip install")
            except subprocess.TimeoutExpired as exc:
                raise RuntimeInstallError(f"pip install took over {PIP_TIMEOUT} s") from exc
            ok = True
        finally:
            if not ok:  # a failed install leaves nothing behind
                shutil.rmtree(venv, ignore_errors=True)
        return existing.absolute()

    @staticmethod
    def _check(proc: subprocess.CompletedProcess, step: str) -> None:
        if proc.returncode != 0:
            lines = [ln for ln in (proc.stderr or proc.stdout).strip().splitlines() if not ln.startswith("WARNING: Location")]
            raise RuntimeInstallError(f"{step} failed: {(lines[-1:] or ['no output'])[0]}")

    def _remove_files(self, version: str) -> None:
        folder = self._dir(version)
        if folder.is_dir():
            shutil.rmtree(folder)

    def remove(self, version: str) -> Runtime | str:
        """Forget a version (and delete its venv); returns what was removed."""
        key = major_minor(version)
        bundled = bundled_runtime()
        if bundled is not None and bundled.version == key:
            raise RuntimeInstallError(f"Blender {key} is the bundled bpy wheel of this venv; it cannot be removed")
        with self._locked():
            current = self.stored().get(key)
            if current is None and not self._dir(key).exists():
                raise RuntimeMissing(f"no Blender {key} runtime is registered (`bpywright blender list`)")
            self._remove_files(key)
        return current if current is not None else "files only"


def record_json(runtime: Runtime) -> dict:
    """A runtime as plain JSON (for `--json` outputs)."""
    return json.loads(runtime.model_dump_json()) | {"missing": runtime.missing()}
