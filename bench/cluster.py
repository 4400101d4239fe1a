"""Throughput of RayPool (one node, two nodes) against the local WorkerPool on the same BlendNet scripts; Ray's per-job cost.

    .venv/bin/python bench/cluster.py [-n 200] [--cpus 2] [--data ../shared/data/blendnet/BlendNetHuman.dev.jsonl]

Every side gets the same CPUs (--cpus workers/actors in all; the two-node cluster splits them over two `ray start`
nodes on this machine), so the ratios measure what Ray costs, not what more machines add. Warm-up (starting the
workers) is not counted. Phases: no render, then 128² workbench renders (sent back to this process as PNG bytes).
Per-job overhead: the same trivial job run one at a time through a one-worker local pool and a one-actor RayPool.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import load_scripts  # noqa: E402  (the same BlendNet sample as the harness bench)

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
TRIVIAL = "import bpy\n"


def timed_batch(pool, scripts: list[Path], options, render_dir: Path | None) -> tuple[float, dict[str, int]]:
    """Seconds for pool.map over the scripts (workers already warm) and the status counts."""
    start = time.perf_counter()
    reports = pool.map(scripts, options, render_dir=render_dir)
    seconds = time.perf_counter() - start
    counts: dict[str, int] = {}
    for r in reports:
        counts[r.status] = counts.get(r.status, 0) + 1
    if render_dir is not None:
        counts["renders"] = sum(1 for r in reports if r.render is not None and Path(r.render.path).is_file())
    return seconds, counts


def trivial_latency(pool, options, n: int = 30) -> float:
    """Median seconds of one trivial job, run one at a time (after 3 unmeasured)."""
    times = []
    for i in range(n + 3):
        start = time.perf_counter()
        pool.run(source=TRIVIAL, options=options)
        if i >= 3:
            times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def driver_cost(render_dir: Path, tmp: Path, n: int = 200) -> float:
    """Seconds this process spends accepting one rendered answer (report validation, PNG checks, the write)."""
    from bpywright.cluster.raypool import accept_answer
    from bpywright.harness.report import RenderInfo, RunReport

    png_path = next(render_dir.glob("*.png"))
    png = png_path.read_bytes()
    from PIL import Image

    width, height = Image.open(png_path).size
    info = RenderInfo(path="/node/render.png", width=width, height=height, engine="BLENDER_WORKBENCH")
    answer = RunReport(status="ok", backend="bpy-module", sandbox="bwrap", render=info).model_dump_json()  # type: ignore[arg-type]
    start = time.perf_counter()
    for i in range(n):
        accept_answer(answer, png, None, tmp / "accept" / f"{i}.png")
    return (time.perf_counter() - start) / n


def measure(make_pool, scripts: list[Path], tmp: Path, label: str) -> dict:
    """Both phases and the trivial-job latency through one kind of pool."""
    from bpywright.harness.options import RunOptions

    plain = RunOptions(render=False, timeout=120)
    render = RunOptions(render=True, resolution=128, timeout=120)
    out: dict = {"label": label}
    with make_pool(None, plain) as pool:
        pool.warm()
        out["norender"] = timed_batch(pool, scripts, plain, None)
        out["render"] = timed_batch(pool, scripts, render, tmp / f"renders-{label.replace(' ', '-')}")
    with make_pool(1, plain) as single:
        single.warm()
        out["trivial"] = trivial_latency(single, plain)
    print(
        f"  {label}: no render {out['norender'][0]:.1f}s {out['norender'][1]}, 128² {out['render'][0]:.1f}s {out['render'][1]}, "
        f"trivial job {out['trivial'] * 1000:.1f} ms",
        flush=True,
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 2, help="workers / actors on every side (default: cores)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bpywright-bench-cluster-") as tmp_name:
        tmp = Path(tmp_name)
        token = tmp / "auth_token"  # this run's own cluster token, in place before Ray is imported (it reads it then)
        token.write_text(secrets.token_hex(32))
        os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(token), RAY_USAGE_STATS_ENABLED="0")
        import ray

        from bpywright.cluster.localcluster import LocalRayCluster
        from bpywright.cluster.raypool import RayPool
        from bpywright.cluster.spec import ClusterSpec
        from bpywright.harness.pool import WorkerPool

        scripts = load_scripts(args.data, args.n, tmp)
        n = len(scripts)
        print(f"{n} BlendNet scripts, {args.cpus} workers/actors on every side; warm-up not counted", flush=True)
        results = [measure(lambda size, o: WorkerPool(size or args.cpus, o), scripts, tmp, "local pool")]
        for label, layout in (("ray 1 node", [args.cpus]), ("ray 2 nodes", [args.cpus - args.cpus // 2, args.cpus // 2])):
            cluster = LocalRayCluster(root=Path(tempfile.mkdtemp(prefix="bpyw-bench-", dir="/tmp")))
            try:
                cluster.start_head(cpus=layout[0])
                for cpus in layout[1:]:
                    cluster.add_node(cpus=cpus)
                spec = ClusterSpec(cluster.address)
                results.append(measure(lambda size, o, spec=spec: RayPool(spec, size, o), scripts, tmp, label))
            finally:
                if ray.is_initialized():
                    ray.shutdown()
                cluster.stop()
        accept = driver_cost(tmp / "renders-ray-2-nodes", tmp)
    base = results[0]
    print(
        f"\n{'pool':<13} {'no render s':>11} {'scripts/s':>9} {'ratio':>6}  {'128² s':>7} {'scripts/s':>9} {'ratio':>6}  {'trivial ms':>10}"
    )
    for r in results:
        nr, rr = r["norender"][0], r["render"][0]
        print(
            f"{r['label']:<13} {nr:11.1f} {n / nr:9.2f} {base['norender'][0] / nr:6.2f}  {rr:7.1f} {n / rr:9.2f} "
            f"{base['render'][0] / rr:6.2f}  {r['trivial'] * 1000:10.1f}"
        )
    for r in results[1:]:
        per_job = (r["norender"][0] - base["norender"][0]) / n * args.cpus * 1000
        per_render = (r["render"][0] - base["render"][0]) / n * args.cpus * 1000
        print(
            f"{r['label']}: Ray's cost per job {(r['trivial'] - base['trivial']) * 1000:+.1f} ms (trivial job, one at a time); "
            f"from the batches {per_job:+.0f} ms/job without render, {per_render:+.0f} ms/job with 128² renders (actor time)"
        )
    print(f"driver: accepting one 128² answer (validate report, check PNG, write it) costs {accept * 1000:.2f} ms")


if __name__ == "__main__":
    main()
