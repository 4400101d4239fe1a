"""Patched bpy stubs for static checks: fake-bpy-module's stubs with the overlays of typings/overlays/ merged in."""

from __future__ import annotations

import fcntl
import hashlib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import bpywright

from .overlay import OverlayError, merge_overlays

Progress = Callable[[str], None]
MANIFEST = "manifest.json"
# The fake-bpy-module release other versions' stubs are fetched at (4.5 is pinned in constraints.txt; latest floats).
STUBS_RELEASE = "20260730"


class StubsError(RuntimeError):
    """Building or finding the patched stubs failed; the message says how to fix it."""


# Defects repeated in too many places to overlay, fixed by regex over the built files: (why, glob, pattern, replacement).
REWRITES: tuple[tuple[str, str, re.Pattern[str], str], ...] = (
    (
        "macro operators take sub-operator settings as dicts (TRANSFORM_OT_translate={'value': ...})",
        "bpy/ops/*/__init__.pyi",
        re.compile(r"^(\s+[A-Z][A-Z0-9_]*_OT_\w+: )[^=\n]+?( = None,?)$", re.M),
        r"\1dict[str, typing.Any] | None\2",
    ),
    (
        "a node's inputs and outputs are never None (the per-node socket tables are typed Optional)",
        "bpy/types/__init__.pyi",
        re.compile(r"^(    (?:inputs|outputs): _\w+_Node(?:In|Out)puts) \| None$", re.M),
        r"\1",
    ),
)


@dataclass(frozen=True)
class StubSource:
    """Where the pristine stubs of one fake-bpy-module distribution come from."""

    distribution: str
    version: str
    digest: str
    installed: Path | None = None  # site-packages dir holding the *-stubs dirs
    wheel: Path | None = None


def typings_root() -> Path:
    """The typings dir (overlays/ and build/): $BPYWRIGHT_TYPINGS, else the repository's typings/."""
    env = os.environ.get("BPYWRIGHT_TYPINGS")
    return Path(env) if env else Path(bpywright.__file__).resolve().parent.parent / "typings"


def typings_dir(version: str = "4.5", *, out_root: Path | None = None) -> Path:
    """The built stubs dir for a version (usable as pyright stubPath / mypy mypy_path)."""
    path = (out_root or typings_root() / "build") / version
    if not (path / MANIFEST).is_file():
        raise StubsError(f"no built stubs for Blender {version} at {path}: run `bpywright typings build --blender-version {version}`")
    return path


def _sha256(*chunks: bytes) -> str:
    """Hex digest of the chunks in order."""
    return hashlib.sha256(b"".join(chunks)).hexdigest()


def fetch_stubs(version: str, cache: Path, progress: Progress) -> StubSource:
    """The installed fake-bpy-module-<version> when there is one, else its wheel downloaded into cache."""
    name = f"fake-bpy-module-{version}"  # "latest" -> fake-bpy-module-latest
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        dist = None
    if dist is not None:
        record = dist.read_text("RECORD") or dist.version
        return StubSource(name, dist.version, _sha256(record.encode()), installed=Path(str(dist.locate_file(""))))
    pattern = f"{name.replace('-', '_').replace('.', '_')}-*.whl"
    wheels = sorted(cache.glob(pattern))
    if not wheels:
        spec = name if version == "latest" else f"{name}=={STUBS_RELEASE}"
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", spec, "-d", str(cache)]
        progress(f"downloading {name} into {cache}")
        cache.mkdir(parents=True, exist_ok=True)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wheels = sorted(cache.glob(pattern))
        if proc.returncode != 0 or not wheels:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no wheel"]
            raise StubsError(f"could not fetch {name} ({tail[0]}): run `{' '.join(cmd)}` or `pip install {name}`")
    wheel = wheels[-1]
    return StubSource(name, wheel.name.split("-")[1], _sha256(wheel.read_bytes()), wheel=wheel)


def copy_stubs(source: StubSource, dest: Path) -> None:
    """Copy the *-stubs packages into dest as plain packages (bpy-stubs -> bpy), the layout stubPath and MYPYPATH read."""
    if source.installed is not None:
        dist = importlib.metadata.distribution(source.distribution)
        tops = {Path(str(f)).parts[0] for f in dist.files or () if Path(str(f)).parts[0].endswith("-stubs")}
        for top in sorted(tops):
            shutil.copytree(source.installed / top, dest / top.removesuffix("-stubs"), ignore=shutil.ignore_patterns("__pycache__"))
        return
    assert source.wheel is not None
    with zipfile.ZipFile(source.wheel) as wheel:
        for member in wheel.infolist():
            top, _, rest = member.filename.partition("/")
            if top.endswith("-stubs") and rest and not member.is_dir():
                target = dest / top.removesuffix("-stubs") / rest
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(wheel.read(member))


def overlay_files(version: str, root: Path | None = None) -> list[Path]:
    """Overlay files for a version: overlays/common/ first, then overlays/<version>/, each sorted."""
    base = (root or typings_root()) / "overlays"
    return [p for d in ("common", version) for p in sorted((base / d).rglob("*.pyi"))]


def overlay_target(overlay: Path) -> Path:
    """Stub path an overlay patches: common/bpy-stubs/types/__init__.generated.pyi -> bpy/types/__init__.pyi."""
    parts = overlay.parts[len(overlay.parts) - overlay.parts[::-1].index("overlays") + 1 :]
    name = parts[-1].split(".")[0] + ".pyi"
    return Path(parts[0].removesuffix("-stubs"), *parts[1:-1], name)


def apply_overlays(dest: Path, overlays: list[Path]) -> None:
    """Merge the overlays into the stub files they mirror under dest, one pass per stub file."""
    by_target: dict[Path, dict[str, str]] = {}
    for overlay in overlays:
        by_target.setdefault(dest / overlay_target(overlay), {})[str(overlay)] = overlay.read_text(encoding="utf-8")
    for target, texts in by_target.items():
        if not target.is_file():
            raise StubsError(f"overlays {', '.join(texts)} patch {target.relative_to(dest)}, which the stubs lack: fix or delete them")
        try:
            merged = merge_overlays(target.read_text(encoding="utf-8"), texts)
        except OverlayError as exc:
            raise StubsError(f"{exc} (overlays under {typings_root() / 'overlays'})") from exc
        except SyntaxError as exc:
            raise StubsError(f"an overlay of {target.relative_to(dest)} does not parse ({exc.msg}, line {exc.lineno}): fix it") from exc
        target.write_text(merged, encoding="utf-8")


def apply_rewrites(dest: Path) -> None:
    """Apply the REWRITES to the built files."""
    for _why, files, pattern, replacement in REWRITES:
        for path in dest.glob(files):
            source = path.read_text(encoding="utf-8")
            if (fixed := pattern.sub(replacement, source)) != source:
                path.write_text(fixed, encoding="utf-8")


def write_checker_configs(dest: Path) -> None:
    """pyrightconfig.json and mypy.ini next to the stubs, for linting scripts against them."""
    pyright = {"stubPath": ".", "pythonVersion": "3.11", "typeCheckingMode": "basic", "reportMissingModuleSource": False}
    (dest / "pyrightconfig.json").write_text(json.dumps(pyright, indent=2) + "\n", encoding="utf-8")
    packages = ",".join(sorted(f"{p.name}.*" for p in dest.iterdir() if p.is_dir()))
    # Scripts reuse variables for other types (for face in bm.faces: ... for face in mesh.polygons: ...) and never
    # annotate (edges = []), which working code does not need.
    mypy = (
        "[mypy]\nmypy_path = $MYPY_CONFIG_FILE_DIR\npython_version = 3.11\nallow_redefinition = True\n"
        f"disable_error_code = var-annotated\n\n[mypy-{packages}]\nignore_errors = True\n"
    )
    (dest / "mypy.ini").write_text(mypy, encoding="utf-8")


def build_manifest(version: str, source: StubSource, overlays: list[Path]) -> dict[str, str]:
    """What a build depends on: the stubs' digest, the overlays' digest and this module's code."""
    root = typings_root() / "overlays"
    digest = _sha256(*(f"{p.relative_to(root)}\0".encode() + p.read_bytes() for p in overlays))
    code, dist = _sha256(Path(__file__).read_bytes()), f"{source.distribution}=={source.version}"
    return {"version": version, "distribution": dist, "stubs": source.digest, "overlays": digest, "code": code}


def read_manifest(path: Path) -> dict[str, str] | None:
    """The manifest of a built dir, or None when absent or unreadable."""
    try:
        return json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def swap_into_place(tmp: Path, target: Path) -> None:
    """Replace target by the finished tmp tree with renames, so a killed build never leaves half a tree."""
    old = target.with_name(f".{target.name}.old-{os.getpid()}")
    if target.exists():
        target.rename(old)
    tmp.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def build_typings(version: str = "4.5", *, out_root: Path | None = None, force: bool = False, progress: Progress | None = None) -> Path:
    """Materialise fake-bpy-module-<version>'s stubs with the overlays into <out_root>/<version>/; a no-op when up to date."""
    say = progress or (lambda _msg: None)
    out_root = out_root or typings_root() / "build"
    target, started = out_root / version, time.perf_counter()
    source = fetch_stubs(version, out_root / ".cache", say)
    overlays = overlay_files(version)
    manifest = build_manifest(version, source, overlays)
    out_root.mkdir(parents=True, exist_ok=True)
    with open(out_root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a concurrent build waits, then finds the tree up to date
        if not force and read_manifest(target) == manifest:
            say(f"{target} is up to date ({manifest['distribution']}, {len(overlays)} overlays)")
            return target
        for stale in out_root.glob(f".{version}-*"):  # left by a killed build
            shutil.rmtree(stale, ignore_errors=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=out_root))
        try:
            say(f"copying {manifest['distribution']} stubs")
            copy_stubs(source, tmp)
            say(f"applying {len(overlays)} overlays and {len(REWRITES)} rewrites")
            apply_overlays(tmp, overlays)
            apply_rewrites(tmp)
            write_checker_configs(tmp)
            (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
            swap_into_place(tmp, target)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    say(f"built {target} in {time.perf_counter() - started:.1f}s")
    return target
