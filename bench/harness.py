"""Throughput of the warm pool vs a fresh Blender process per script (what other tools do), no render.

    .venv/bin/python bench/harness.py [-n 60] [--workers 2] [--data ../shared/data/blendnet/BlendNetHuman.dev.jsonl]

Both sides run the same scripts with the same parallelism; the naive side is `python script.py`
with the bpy module (the `blender -b --python script.py` of the wheel) without sandbox or report,
so the comparison flatters the baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"


def load_scripts(data: Path, n: int, into: Path) -> list[Path]:
    """The first n scripts of the BlendNet file, written to `into`."""
    paths = []
    with data.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i >= n:
                break
            path = into / f"blendnet_{i:04d}.py"
            path.write_text(json.loads(line)["script"], encoding="utf-8")
            paths.append(path)
    return paths


def naive(scripts: list[Path], workers: int) -> tuple[float, int]:
    """A fresh interpreter + bpy import per script; returns (seconds, how many exited 0)."""

    def one(path: Path) -> bool:
        proc = subprocess.run([sys.executable, "-I", str(path)], capture_output=True, timeout=300, cwd=path.parent)
        return proc.returncode == 0

    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as ex:
        ok = sum(ex.map(one, scripts))
    return time.perf_counter() - start, ok


def pooled(scripts: list[Path], workers: int) -> tuple[float, int, float]:
    """The warm pool (sandboxed, full reports); returns (seconds, ok count, warm-up seconds)."""
    options = RunOptions(render=False, timeout=120)
    with WorkerPool(workers, options) as pool:
        t = time.perf_counter()
        pool.warm()
        warmup = time.perf_counter() - t
        start = time.perf_counter()
        reports = pool.map(scripts, options)
        seconds = time.perf_counter() - start
    return seconds, sum(r.ok for r in reports), warmup


def per_job_overhead(n: int = 30) -> tuple[float, float]:
    """Median ms of a trivial job (add a cube) on one warm worker, and of a fresh `python -I` that imports bpy and does it."""
    import statistics

    options = RunOptions(render=False, timeout=60)
    with WorkerPool(1, options) as pool:
        pool.warm()
        pool.run(source="import bpy\n")
        times = []
        for _ in range(n):
            t = time.perf_counter()
            pool.run(source="import bpy\nbpy.ops.mesh.primitive_cube_add()\n")
            times.append(time.perf_counter() - t)
    fresh = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-c", "import bpy\nbpy.ops.mesh.primitive_cube_add()"], capture_output=True, timeout=300)
        fresh.append(time.perf_counter() - t)
    return statistics.median(times) * 1000, statistics.median(fresh) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=60)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bpywright-bench-") as tmp:
        scripts = load_scripts(args.data, args.n, Path(tmp))
        n = len(scripts)
        naive_s, naive_ok = naive(scripts, args.workers)
        pool_s, pool_ok, warmup = pooled(scripts, args.workers)
    print(f"{n} BlendNet scripts, {args.workers} parallel, no render")
    print(f"naive (fresh process per script): {naive_s:7.2f}s  {n / naive_s:7.2f} scripts/s  ({naive_ok} exited 0)")
    print(
        f"warm pool (sandboxed, reports):   {pool_s:7.2f}s  {n / pool_s:7.2f} scripts/s  ({pool_ok} ok; warm-up {warmup:.2f}s not counted)"
    )
    print(f"pool incl. warm-up:               {pool_s + warmup:7.2f}s  {n / (pool_s + warmup):7.2f} scripts/s")
    print(f"ratio pool/naive: {naive_s / pool_s:.1f}x (incl. warm-up {naive_s / (pool_s + warmup):.1f}x)")
    job_ms, fresh_ms = per_job_overhead()
    print(
        f"per-job overhead, trivial script: warm pool (fork per job, sandboxed, report) {job_ms:.1f} ms; "
        f"fresh process {fresh_ms:.1f} ms; ratio {fresh_ms / job_ms:.1f}x"
    )


if __name__ == "__main__":
    main()
