"""Visual regression: compare renders with a baseline's by perceptual hash; write new baselines.

A baseline folder has the artifacts layout (`<target label>/<script>.png`), so the artifacts folder of
an earlier run works as a baseline as it is; `--update-baseline` copies the renders there and writes
baseline.json (hashes, script digests, versions).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from pathlib import Path

from pydantic import BaseModel

from .models import BlenderTarget, CaseResult, VisualCheck

MANIFEST = "baseline.json"
DEFAULT_THRESHOLD = 10  # of 64 bits; re-renders of the same scene differ by 0-2, a moved or swapped object by 10+


class BaselineEntry(BaseModel):
    """One baseline render."""

    script: str
    target: str
    blender_version: str | None
    png: str
    phash: str
    dhash: str
    script_sha256: str


class BaselineManifest(BaseModel):
    """What a baseline folder holds."""

    schema_version: int = 1
    updated_at: str
    entries: list[BaselineEntry]


def render_name(rel: str) -> str:
    """`sub/scene.py` → `sub/scene.png`."""
    return str(Path(rel).with_suffix(".png").as_posix())


def hashes(png: Path) -> tuple[str, str]:
    """(phash, dhash) of a PNG as hex strings."""
    import imagehash
    from PIL import Image

    with Image.open(png) as image:
        rgb = image.convert("RGB")
        return str(imagehash.phash(rgb)), str(imagehash.dhash(rgb))


def distance(a: str, b: str) -> int:
    """Hamming distance of two hex hashes."""
    import imagehash

    return imagehash.hex_to_hash(a) - imagehash.hex_to_hash(b)


def find_baseline(baseline_dir: Path, target: BlenderTarget, rel: str) -> Path | None:
    """The baseline PNG of a script for this Blender: same label, else the same major.minor version."""
    exact = baseline_dir / target.label / render_name(rel)
    if exact.is_file():
        return exact
    for other in sorted(baseline_dir.glob(f"blender-{target.major_minor}.*")):
        if (other / render_name(rel)).is_file():
            return other / render_name(rel)
    return None


def compare_to_baseline(render: Path | None, baseline_dir: Path, target: BlenderTarget, rel: str, threshold: int) -> VisualCheck | None:
    """The visual check of one case; None when the run made no render (it failed: nothing to compare)."""
    if render is None or not render.is_file():
        return None
    base = find_baseline(baseline_dir, target, rel)
    if base is None:
        note = f"no baseline render {target.label}/{render_name(rel)} in {baseline_dir} (write one with --update-baseline)"
        return VisualCheck(threshold=threshold, note=note)
    (p_new, d_new), (p_old, d_old) = hashes(render), hashes(base)
    p_dist, d_dist = distance(p_new, p_old), distance(d_new, d_old)
    changed = max(p_dist, d_dist) > threshold
    verdict = "beyond" if changed else "within"
    note = f"phash distance {p_dist}, dhash distance {d_dist} ({verdict} threshold {threshold}) vs {base}"
    return VisualCheck(baseline=str(base), phash_distance=p_dist, dhash_distance=d_dist, threshold=threshold, changed=changed, note=note)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def update_baseline(baseline_dir: Path, cases: list[CaseResult], scripts: dict[str, Path]) -> int:
    """Copy each case's render into the baseline and rewrite its manifest; returns how many were written.

    Cases without a render (failed runs) keep their old baseline.
    """
    manifest_path = baseline_dir / MANIFEST
    entries: dict[tuple[str, str], BaselineEntry] = {}
    if manifest_path.is_file():
        try:
            old = BaselineManifest.model_validate_json(manifest_path.read_text(encoding="utf-8"))
            entries = {(e.target, e.script): e for e in old.entries}
        except ValueError:
            entries = {}  # unreadable manifest: rebuilt from this run
    written = 0
    for case in cases:
        if case.render is None or not Path(case.render).is_file():
            continue
        png = render_name(case.script)
        dest = baseline_dir / case.target / png
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(case.render, dest)
        phash, dhash = hashes(dest)
        entries[(case.target, case.script)] = BaselineEntry(
            script=case.script,
            target=case.target,
            blender_version=case.blender_version,
            png=f"{case.target}/{png}",
            phash=phash,
            dhash=dhash,
            script_sha256=_sha256(scripts[case.script]),
        )
        written += 1
    manifest = BaselineManifest(
        updated_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), entries=sorted(entries.values(), key=lambda e: (e.target, e.script))
    )
    baseline_dir.mkdir(parents=True, exist_ok=True)
    manifest_path.write_text(json.dumps(manifest.model_dump(), indent=2) + "\n", encoding="utf-8")
    return written
