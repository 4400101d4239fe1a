"""Build the Blender extension zip: the files of extension/ with the manifest's version set to bpywright's own."""

from __future__ import annotations

import re
import tomllib
import zipfile
from pathlib import Path

from .. import __version__

SOURCE = Path(__file__).parent / "extension"
MANIFEST = "blender_manifest.toml"
REQUIRED = ("schema_version", "id", "version", "name", "tagline", "maintainer", "type", "blender_version_min", "license")
SHIPPED = (".py", ".toml")
FIXED_TIME = (2024, 1, 1, 0, 0, 0)  # the same sources give the same zip, byte for byte


class ManifestError(ValueError):
    """The extension's manifest is missing a field Blender requires, or holds a value it refuses."""


def manifest_text(version: str = __version__) -> str:
    """The manifest with `version` set (the source keeps a placeholder-free copy that Blender can also load as is)."""
    text = (SOURCE / MANIFEST).read_text(encoding="utf-8")
    text, count = re.subn(r'(?m)^version = "[^"]*"$', f'version = "{version}"', text)
    if count != 1:
        raise ManifestError(f'{MANIFEST} needs exactly one top-level `version = "…"` line, found {count}')
    check_manifest(tomllib.loads(text))
    return text


def check_manifest(manifest: dict) -> None:
    """Refuse a manifest Blender would refuse (the checks its `extension validate` makes that matter here)."""
    missing = [key for key in REQUIRED if key not in manifest]
    if missing:
        raise ManifestError(f"{MANIFEST} lacks {', '.join(missing)}")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", manifest["id"]):
        raise ManifestError(f"id {manifest['id']!r}: lowercase letters, digits and underscores, starting with a letter")
    if len(manifest["tagline"]) > 64 or manifest["tagline"].endswith((".", "!", "?")):
        raise ManifestError("tagline: at most 64 characters, no closing punctuation")
    if manifest["type"] != "add-on" or not all(str(lic).startswith("SPDX:") for lic in manifest["license"]):
        raise ManifestError("type must be 'add-on' and every license an 'SPDX:' identifier")
    for key in ("version", "blender_version_min", "blender_version_max"):
        if key in manifest and not re.fullmatch(r"\d+\.\d+\.\d+", str(manifest[key])):
            raise ManifestError(f"{key} {manifest[key]!r} is not MAJOR.MINOR.PATCH")


def sources() -> list[Path]:
    """The files that go into the zip (Python sources and the manifest; no caches)."""
    return sorted(p for p in SOURCE.iterdir() if p.is_file() and p.suffix in SHIPPED)


def build(out_dir: Path, version: str = __version__) -> Path:
    """Write out_dir/bpywright-VERSION.zip (manifest and __init__.py at the top, as Blender's installer expects)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"bpywright-{version}.zip"
    partial = target.with_suffix(".zip.partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sources():
            data = manifest_text(version).encode("utf-8") if path.name == MANIFEST else path.read_bytes()
            info = zipfile.ZipInfo(path.name, date_time=FIXED_TIME)
            info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            archive.writestr(info, data)
    partial.replace(target)  # never a half-written zip under the final name
    return target
