"""Measure the near-duplicate threshold: perceptual-hash distances of real renders, same scene vs different scenes.

Renders the bundled recipes and BlendNet scripts (read from ../shared/data/blendnet, never copied) through the
warm pool at 256 px workbench, each also with four tiny changes (a comment, a colour nudge, a 3° turn, a small
move), and prints the distributions of phash, dhash and phash+dhash distances and the threshold they support.

    .venv/bin/python bench/exemplars.py [--blendnet 60] [--jobs 2] [--out artifacts/bench/exemplars]
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

from bpywright.exemplars.features import (
    MIN_CONTENT,
    NEAR_DUPLICATE_COLOUR,
    NEAR_DUPLICATE_DISTANCE,
    ImageHashes,
    colour_distance,
    hash_values,
    perceptual_hashes,
)
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.recipes import all_recipes

BLENDNET = Path(__file__).resolve().parents[2] / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"

TINY_CHANGES = {
    "comment": "\n# a comment: the script differs, the scene does not\n",
    "colour": """
import bpy as _b
for _m in _b.data.materials:
    _m.diffuse_color = tuple(min(1.0, c + 0.04) for c in _m.diffuse_color[:3]) + (_m.diffuse_color[3],)
""",
    "turn": """
import bpy as _b, math as _math
for _o in _b.data.objects:
    if _o.type in {"MESH", "CURVE", "FONT"} and _o.parent is None:
        _o.rotation_euler.z += _math.radians(3)
        break
""",
    "move": """
import bpy as _b
for _o in _b.data.objects:
    if _o.type in {"MESH", "CURVE", "FONT"} and _o.parent is None:
        _o.location.x += 0.02 * max(max(_o.dimensions), 0.1)
        break
""",
}


def scenes(blendnet: int) -> list[tuple[str, str]]:
    """(name, script): every recipe plus the first `blendnet` BlendNet scripts."""
    found = [(f"recipe:{r.name}", r.source) for r in all_recipes()]
    with BLENDNET.open(encoding="utf-8") as lines:
        for n, line in enumerate(itertools.islice(lines, blendnet)):
            found.append((f"blendnet:{n}", json.loads(line)["script"]))
    return found


def distances(a: ImageHashes, b: ImageHashes) -> tuple[int, int, int, float]:
    """(phash, dhash, phash+dhash, foreground colour) distances."""
    p, d = (a.phash ^ b.phash).bit_count(), (a.dhash ^ b.dhash).bit_count()
    return p, d, p + d, colour_distance(a, b)


def full_frame(png: Path) -> ImageHashes:
    """The baseline: phash/dhash of the whole frame, no content crop, no colour."""
    import imagehash
    from PIL import Image

    with Image.open(png) as img:
        rgb = img.convert("RGB")
    return ImageHashes(int(str(imagehash.phash(rgb)), 16), int(str(imagehash.dhash(rgb)), 16), None)


def describe(values: list[int]) -> str:
    """min / percentiles / max of a distance list."""
    if not values:
        return "n=0"
    q = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else [values[0]] * 99
    return (
        f"n={len(values)} min={min(values)} p1={q[0]:.0f} p5={q[4]:.0f} p50={q[49]:.0f} p95={q[94]:.0f} p99={q[98]:.0f} max={max(values)}"
    )


def histogram(values: list[int], top: int = 40, width: int = 4) -> str:
    """A text histogram of the sum distances in buckets of `width` up to `top`."""
    rows = []
    for lo in range(0, top, width):
        count = sum(lo <= v < lo + width for v in values)
        rows.append(f"  {lo:3d}-{lo + width - 1:<3d} {count:5d} {'#' * min(60, count)}")
    rows.append(f"  {top:3d}+    {sum(v >= top for v in values):5d}")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blendnet", type=int, default=60, help="BlendNet scripts to include (default 60)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--resolution", type=int, default=256)
    parser.add_argument("--out", type=Path, default=Path("artifacts/bench/exemplars"))
    parser.add_argument("--reuse", action="store_true", help="hash the renders already in --out instead of rendering again")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = []
    for name, script in scenes(args.blendnet):
        jobs.append((name, "base", script))
        jobs.extend((name, change, script + snippet) for change, snippet in TINY_CHANGES.items())
    paths = []
    for n, (_name, _change, script) in enumerate(jobs):
        path = args.out / f"{n:04d}.py"
        path.write_text(script, encoding="utf-8")
        paths.append(path)
    options = RunOptions(render=True, resolution=args.resolution, timeout=60)
    start = time.perf_counter()
    if args.reuse:
        reports, seconds = None, 0.0
    else:
        with WorkerPool(args.jobs, options) as pool:
            reports = pool.map(paths, options, render_dir=args.out)
        seconds = time.perf_counter() - start
    content: dict[tuple[str, str], ImageHashes] = {}
    whole: dict[tuple[str, str], ImageHashes] = {}
    for n, ((name, change, _), path) in enumerate(zip(jobs, paths)):
        png = path.with_suffix(".png")
        if (reports is None or reports[n].ok) and png.is_file():
            h = hash_values(perceptual_hashes(png))  # type: ignore[arg-type]
            if h is not None and h.colour is not None:  # blank renders (< MIN_CONTENT) are never grouped
                content[(name, change)], whole[(name, change)] = h, full_frame(png)
    if reports is not None:
        print(f"{len(reports)} renders in {seconds:.0f} s ({sum(r.ok for r in reports)} ok) on {args.jobs} workers")
    print(f"{len({n for n, c in content if c == 'base'})} scenes with a base render showing content (>= {MIN_CONTENT:.1%} of pixels)")
    for label, table in (("whole frame (baseline)", whole), ("content crop (used)", content)):
        same, different = pairs(table)
        print(f"\n##### {label}")
        for i, kind in enumerate(("phash", "dhash", "phash+dhash")):
            print(f"== {kind} distance")
            for change, values in same.items():
                print(f"  same scene, {change:<8} {describe([v[i] for v in values])}")
            print(f"  different scenes        {describe([v[i] for v in different])}")
        tiny = [v for values in same.values() for v in values]
        print("phash+dhash, same scene with a tiny change:\n" + histogram([v[2] for v in tiny]))
        print("phash+dhash, different scenes:\n" + histogram([v[2] for v in different]))
        rules = [("hash only", False)] + ([(f"+ colour within {NEAR_DUPLICATE_COLOUR:.2f}", True)] if label.startswith("content") else [])
        print("threshold" + "".join(f" | {name:^34}" for name, _ in rules))
        print("         " + " | tiny changes grouped  different  " * len(rules))
        for t in range(0, 33, 2):
            cells = []
            for _, colour in rules:
                grouped = sum(v[2] <= t and (not colour or v[3] <= NEAR_DUPLICATE_COLOUR) for v in tiny) / max(1, len(tiny))
                false = sum(v[2] <= t and (not colour or v[3] <= NEAR_DUPLICATE_COLOUR) for v in different)
                cells.append(f" | {grouped:6.1%}               {false:4d}/{len(different):<5d}")
            marker = "  <= chosen (features.NEAR_DUPLICATE_DISTANCE)" if t == NEAR_DUPLICATE_DISTANCE and len(rules) > 1 else ""
            print(f"  {t:3d}    " + "".join(cells) + marker)
        bases = {n: h for (n, c), h in table.items() if c == "base"}
        closest = sorted((distances(bases[a], bases[b])[2], a, b) for a, b in itertools.combinations(sorted(bases), 2))[:6]
        print("closest different scenes (sum, a, b): " + "; ".join(f"{d} {a} {b}" for d, a, b in closest))
    return 0


def pairs(table: dict[tuple[str, str], ImageHashes]) -> tuple[dict[str, list], list]:
    """Distances base→variant per tiny change, and base→base for every pair of different scenes."""
    bases = {name: h for (name, change), h in table.items() if change == "base"}
    same = {change: [distances(bases[n], h) for (n, c), h in table.items() if c == change and n in bases] for change in TINY_CHANGES}
    different = [distances(bases[a], bases[b]) for a, b in itertools.combinations(sorted(bases), 2)]
    return same, different


if __name__ == "__main__":
    sys.exit(main())
