"""Throughput of RayPool (one node, two nodes) against the local WorkerPool on the same BlendNet scripts; Ray's per-job cost.

    .venv/bin/python bench/cluster.py [-n 200] [--cpus 2] [--data ../shared/data/blendnet/BlendNetHuman.dev.jsonl]
        [--state artifacts/bench/cluster.json] [--resume] [--phase-timeout 2400]
    .venv/bin/python bench/cluster.py --table          # print the figures kept in --state

Every side gets the same CPUs (--cpus workers/actors in all; the two-node cluster splits them over two `ray start`
nodes on this machine), so the ratios measure what Ray costs, not what more machines add. Warm-up (starting the
workers) is not counted. Phases: no render, then 128² workbench renders (sent back to this process as PNG bytes),
then the trivial job. Per-job overhead: the same trivial job run one at a time through a one-worker local pool and a
one-actor RayPool, and the batches' difference spread over the workers.

Robustness: each pool is measured in a child process (its own Ray driver) under a deadline; every finished phase is
written to --state at once, and --resume skips the phases already there (same -n, --cpus, data). The Ray processes
this bench starts live in their own temp dir and ports and are killed when a side ends, on a timeout, on SIGTERM/SIGINT,
and — if this process itself was killed — at the start of the next run. The machine's load average is sampled during
every phase and kept with its figure (the bench shares the machine with whatever else runs). Beside wall time each
phase keeps the seconds spent inside the workers (RunReport timings: the same work on every side), so the slot time a
job spends outside Blender — dispatch, transfer, accepting the answer — is measured per job whatever the load; the
driver's CPU per job; for Ray, the CPU of the driver and every process of the cluster; the mean PNG size; and the
cost of ExemplarStore.add per rendered script (what an `exemplars import` adds per job).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import load_scripts  # noqa: E402  (the same BlendNet sample as the harness bench)

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
DEFAULT_STATE = ROOT / "artifacts" / "bench" / "cluster.json"
TRIVIAL = "import bpy\n"
SIDES = ("local pool", "ray 1 node", "ray 2 nodes")
PHASES = ("norender", "render", "trivial")


# ---- state: figures kept between runs ------------------------------------------------------------------------------


def load_state(path: Path, key: dict) -> dict:
    """The kept state when it was measured with the same key (n, cpus, data); else a fresh one."""
    try:
        state = json.loads(path.read_text())
    except (OSError, ValueError):
        return {"key": key, "results": {}}
    if state.get("key") != key:
        return {"key": key, "results": {}, "live_cluster": state.get("live_cluster")}
    state.setdefault("results", {})
    return state


def save_state(path: Path, state: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=2))
    tmp.replace(path)


class LoadSampler:
    """The 1-minute load average every few seconds while a phase runs (mean and max)."""

    def __init__(self, every: float = 5.0):
        self.samples: list[float] = [os.getloadavg()[0]]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, args=(every,), daemon=True)

    def _loop(self, every: float) -> None:
        while not self._stop.wait(every):
            self.samples.append(os.getloadavg()[0])

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.samples.append(os.getloadavg()[0])

    def summary(self) -> dict:
        return {"load_mean": round(sum(self.samples) / len(self.samples), 2), "load_max": round(max(self.samples), 2)}


# ---- the child: one side, phase by phase --------------------------------------------------------------------------


def cpu_seconds(marker: str | None) -> float:
    """CPU seconds used so far by this process, the processes whose command line holds `marker` (the Ray cluster's
    temp dir) and all their descendants — live ones, and the exited ones their parents reaped (cutime/cstime)."""
    from bpywright.cluster.localcluster import _processes, _with_descendants

    table = _processes()
    roots = {os.getpid()} | ({pid for pid, (_, cmd) in table.items() if marker in cmd} if marker else set())
    ticks = 0
    for pid in _with_descendants(roots, table):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        ticks += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def timed_batch(pool, scripts: list[Path], options, render_dir: Path | None, marker: str | None = None) -> dict:
    """Seconds for pool.map over the scripts (workers already warm), the status counts, the CPU seconds the side used
    (this driver, its workers or the whole Ray cluster: load-independent) and the load meanwhile."""
    done = [0]

    def progress(_script, _report) -> None:
        done[0] += 1
        if done[0] % 50 == 0:
            print(f"    {done[0]}/{len(scripts)}", flush=True)

    with LoadSampler() as load:
        cpu, driver = cpu_seconds(marker), time.process_time()
        start = time.perf_counter()
        reports = pool.map(scripts, options, render_dir=render_dir, on_done=progress)
        seconds = time.perf_counter() - start
        cpu, driver = cpu_seconds(marker) - cpu, time.process_time() - driver
    counts: dict[str, int] = {}
    for r in reports:
        counts[r.status] = counts.get(r.status, 0) + 1
    if render_dir is not None:
        counts["renders"] = sum(1 for r in reports if r.render is not None and Path(r.render.path).is_file())
    longest = max((r.timings.total for r in reports), default=0.0)
    worker = sum(r.timings.total for r in reports)  # seconds inside the workers (reset, script, render, IPC): the same on every side
    out = {"seconds": seconds, "counts": counts, "cpu_s": cpu, "driver_cpu_s": driver, "worker_s": worker, "longest_job_s": longest}
    out |= load.summary()
    if render_dir is not None:
        sizes = [Path(r.render.path).stat().st_size for r in reports if r.render is not None and Path(r.render.path).is_file()]
        out["png_bytes_mean"] = sum(sizes) / max(1, len(sizes))
        out["store_add_ms"] = store_cost(scripts, reports)
    return out


def store_cost(scripts: list[Path], reports, k: int = 40) -> dict:
    """Wall and CPU ms of ExemplarStore.add (features, thumbnail, SQLite row) for up to k rendered ok reports."""
    import dataclasses

    from bpywright.config import Settings
    from bpywright.exemplars.store import ExemplarStore

    done = [(s, r) for s, r in zip(scripts, reports) if r.ok and r.render is not None and Path(r.render.path).is_file()][:k]
    if not done:
        return {}
    with tempfile.TemporaryDirectory(prefix="bpywright-bench-store-") as root:
        settings = dataclasses.replace(Settings(), artifacts=Path(root))
        with ExemplarStore.open(settings, clip=False) as store:
            wall, cpu = time.perf_counter(), time.process_time()
            for script, report in done:
                source = script.read_text()
                store.add(
                    script=source,
                    prompt=script.stem,
                    report=report,
                    render=Path(report.render.path),
                    source="imported",
                    blender_version="4.5",
                )
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"wall": wall / len(done) * 1000, "cpu": cpu / len(done) * 1000, "n": len(done)}


def trivial_latency(pool, options, n: int = 30) -> dict:
    """Median seconds of one trivial job, run one at a time (after 3 unmeasured)."""
    times = []
    with LoadSampler() as load:
        for i in range(n + 3):
            start = time.perf_counter()
            pool.run(source=TRIVIAL, options=options)
            if i >= 3:
                times.append(time.perf_counter() - start)
    return {"seconds": sorted(times)[len(times) // 2], **load.summary()}


def driver_cost(render_dir: Path, tmp: Path, n: int = 200) -> tuple[float, float]:
    """(wall, CPU) seconds this process spends accepting one rendered answer (report validation, PNG checks, the write)."""
    from PIL import Image

    from bpywright.cluster.raypool import accept_answer
    from bpywright.harness.report import RenderInfo, RunReport

    png_path = next(render_dir.glob("*.png"))
    png = png_path.read_bytes()
    width, height = Image.open(png_path).size
    info = RenderInfo(path="/node/render.png", width=width, height=height, engine="BLENDER_WORKBENCH")
    answer = RunReport(status="ok", backend="bpy-module", sandbox="bwrap", render=info).model_dump_json()  # type: ignore[arg-type]
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(n):
        accept_answer(answer, png, None, tmp / "accept" / f"{i}.png")
    return (time.perf_counter() - start) / n, (time.process_time() - cpu) / n


def child(args: argparse.Namespace) -> None:
    """Measure the phases of one side that --state lacks, saving each as it finishes."""
    from bpywright.harness.options import RunOptions

    key = {"n": args.n, "cpus": args.cpus, "data": str(args.data)}
    label = args.child
    if label == "local pool":
        from bpywright.harness.pool import WorkerPool

        def make_pool(size, options):
            return WorkerPool(size or args.cpus, options)
    else:
        from bpywright.cluster.raypool import RayPool
        from bpywright.cluster.spec import ClusterSpec

        spec = ClusterSpec(args.address)

        def make_pool(size, options):
            return RayPool(spec, size, options)

    def record(phase: str, value) -> None:
        state = load_state(args.state, key)  # the parent may have written since (live_cluster)
        state["results"].setdefault(label, {})[phase] = value
        save_state(args.state, state)

    todo = [p for p in PHASES if p not in load_state(args.state, key)["results"].get(label, {})]
    plain = RunOptions(render=False, timeout=120)
    render = RunOptions(render=True, resolution=128, timeout=120)
    with tempfile.TemporaryDirectory(prefix="bpywright-bench-cluster-") as tmp_name:
        tmp = Path(tmp_name)
        scripts = load_scripts(args.data, args.n, tmp)
        if "norender" in todo or "render" in todo:
            with make_pool(None, plain) as pool:
                pool.warm()
                if "norender" in todo:
                    print(f"  {label}: no render, {len(scripts)} scripts", flush=True)
                    record("norender", timed_batch(pool, scripts, plain, None, args.ray_root))
                if "render" in todo:
                    print(f"  {label}: 128² renders, {len(scripts)} scripts", flush=True)
                    result = timed_batch(pool, scripts, render, tmp / "renders", args.ray_root)
                    if label != "local pool":
                        wall, cpu = driver_cost(tmp / "renders", tmp)
                        result["accept_ms"], result["accept_cpu_ms"] = wall * 1000, cpu * 1000
                    record("render", result)
        if "trivial" in todo:
            with make_pool(1, plain) as single:
                single.warm()
                record("trivial", trivial_latency(single, plain))


# ---- the parent: clusters, children, deadlines, teardown ------------------------------------------------------------


def stop_leftovers(state: dict) -> None:
    """Kill the Ray processes of a cluster an earlier (killed) run of this bench left behind."""
    from bpywright.cluster.localcluster import LocalRayCluster

    live = state.get("live_cluster")
    if live:
        print(f"stopping the Ray cluster a killed run left in {live['root']}", flush=True)
        LocalRayCluster(root=Path(live["root"]), gcs_port=live["gcs_port"], client_port=live["client_port"]).stop()


def run_side(args: argparse.Namespace, label: str, state: dict) -> bool:
    """Start the side's cluster (Ray sides), run the child under a deadline, tear everything down; True when it finished."""
    from bpywright.cluster.localcluster import LocalRayCluster, kill_tree

    missing = [p for p in PHASES if p not in state["results"].get(label, {})]
    if not missing:
        print(f"  {label}: kept from an earlier run", flush=True)
        return True
    deadline = 300 + args.phase_timeout * sum(p != "trivial" for p in missing) + (600 if "trivial" in missing else 0)
    cluster = None
    proc = None
    try:
        command = [sys.executable, __file__, "--child", label, "-n", str(args.n), "--cpus", str(args.cpus)]
        command += ["--data", str(args.data), "--state", str(args.state)]
        if label != "local pool":
            cluster = LocalRayCluster(root=Path(tempfile.mkdtemp(prefix="bpyw-bench-", dir="/tmp")))
            state["live_cluster"] = {"root": str(cluster.root), "gcs_port": cluster.gcs_port, "client_port": cluster.client_port}
            save_state(args.state, state)
            layout = [args.cpus] if label == "ray 1 node" else [args.cpus - args.cpus // 2, args.cpus // 2]
            cluster.start_head(cpus=layout[0])
            for cpus in layout[1:]:
                cluster.add_node(cpus=cpus)
            command += ["--address", cluster.address, "--ray-root", str(cluster.root)]
        proc = subprocess.Popen(command, start_new_session=True)
        try:
            rc = proc.wait(timeout=deadline)
        except subprocess.TimeoutExpired:
            print(f"  {label}: no result within {deadline}s; what finished is kept (run again with --resume)", flush=True)
            return False
        if rc != 0:
            print(f"  {label}: the child exited {rc}; what finished is kept (run again with --resume)", flush=True)
        return rc == 0
    finally:
        if proc is not None and proc.poll() is None:
            kill_tree({proc.pid})
            proc.wait()
        if cluster is not None:
            cluster.stop()
        fresh = load_state(args.state, state["key"])  # the child's figures, without the cluster that is gone now
        fresh.pop("live_cluster", None)
        save_state(args.state, fresh)
        state.clear()
        state.update(fresh)


def _raise_exit(signum, _frame) -> None:
    raise SystemExit(128 + signum)


def table(state: dict) -> None:
    """The figures kept in the state: throughput, ratios against the local pool, Ray's cost per job."""
    n, cpus = state["key"]["n"], state["key"]["cpus"]
    results = state["results"]
    base = results.get("local pool", {})
    print(f"\n{n} BlendNet scripts, {cpus} workers/actors on every side; warm-up not counted; load = 1-min load average (mean/max)")
    print(
        f"{'pool':<12} {'no render s':>11} {'scripts/s':>9} {'ratio':>6} {'load':>9}  {'128² s':>7} {'scripts/s':>9} {'ratio':>6} {'load':>9}  {'trivial ms':>10}"
    )

    def cells(side: dict, phase: str) -> str:
        got = side.get(phase)
        if not got:
            return f"{'—':>11} {'':>9} {'':>6} {'':>9}" if phase == "norender" else f"{'—':>7} {'':>9} {'':>6} {'':>9}"
        s = got["seconds"]
        ratio = f"{base[phase]['seconds'] / s:6.2f}" if phase in base else f"{'—':>6}"
        load = f"{got['load_mean']:.1f}/{got['load_max']:.1f}"
        width = 11 if phase == "norender" else 7
        return f"{s:{width}.1f} {n / s:9.2f} {ratio} {load:>9}"

    for label in SIDES:
        side = results.get(label, {})
        trivial = f"{side['trivial']['seconds'] * 1000:10.1f}" if "trivial" in side else f"{'—':>10}"
        print(f"{label:<12} {cells(side, 'norender')}  {cells(side, 'render')}  {trivial}")
    for label in SIDES[1:]:
        side = results.get(label, {})
        parts = []
        if "trivial" in side and "trivial" in base:
            parts.append(f"{(side['trivial']['seconds'] - base['trivial']['seconds']) * 1000:+.1f} ms (trivial job, one at a time)")
        for phase, words in (("norender", "without render"), ("render", "with 128² renders")):
            if phase in side and phase in base:
                per_job = (side[phase]["seconds"] - base[phase]["seconds"]) / n * cpus * 1000
                parts.append(f"{per_job:+.0f} ms/job {words} (actor time, from the batches)")
                if "worker_s" in side[phase] and "worker_s" in base[phase]:
                    outside = [(r[phase]["seconds"] * cpus - r[phase]["worker_s"]) / n * 1000 for r in (side, base)]
                    parts.append(f"{outside[0] - outside[1]:+.0f} ms/job {words} outside the worker (slot time not spent in Blender)")
        if parts:
            print(f"{label}: Ray's cost per job " + "; ".join(parts))
        if "render" in side and "accept_ms" in side["render"]:
            print(f"{label}: driver accepting one 128² answer (validate report, check PNG, write it): {side['render']['accept_ms']:.2f} ms")
    for label in SIDES:
        for phase in ("norender", "render"):
            got = results.get(label, {}).get(phase, {})
            if got.get("counts"):
                extra = ""
                if "worker_s" in got:
                    extra += f", in the worker {got['worker_s'] / n * 1000:.0f} ms/script, longest job {got['longest_job_s']:.0f} s"
                    extra += f", driver {got['driver_cpu_s'] / n * 1000:.1f} CPU-ms/script"
                    if label != "local pool":  # the local workers' CPU is not visible from here (their sessions are their own)
                        extra += f", driver + Ray cluster {got['cpu_s'] / n * 1000:.0f} CPU-ms/script"
                if got.get("png_bytes_mean"):
                    extra += f", PNG {got['png_bytes_mean'] / 1024:.1f} KiB"
                if got.get("store_add_ms"):
                    add = got["store_add_ms"]
                    extra += f", store add {add['wall']:.1f} ms ({add['cpu']:.1f} CPU-ms)"
                if "accept_cpu_ms" in got:
                    extra += f", accept {got['accept_cpu_ms']:.2f} CPU-ms"
                print(f"  {label} {phase}: {got['counts']}{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--cpus", type=int, default=os.cpu_count() or 2, help="workers / actors on every side (default: cores)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--state", type=Path, default=DEFAULT_STATE, help="where finished phases are kept")
    parser.add_argument("--resume", action="store_true", help="keep the phases --state already has (same -n, --cpus, data)")
    parser.add_argument("--phase-timeout", type=float, default=2400.0, help="seconds one batch phase may take (default 2400)")
    parser.add_argument("--table", action="store_true", help="print the kept figures and exit")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--address", help=argparse.SUPPRESS)
    parser.add_argument("--ray-root", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.state = args.state.resolve()
    args.data = args.data.resolve()
    key = {"n": args.n, "cpus": args.cpus, "data": str(args.data)}
    if args.child:
        child(args)
        return
    state = load_state(args.state, key)
    if args.table:
        table(state)
        return
    signal.signal(signal.SIGTERM, _raise_exit)
    signal.signal(signal.SIGHUP, _raise_exit)
    stop_leftovers(state)
    state.pop("live_cluster", None)
    if not args.resume:
        state["results"] = {}
    save_state(args.state, state)
    with tempfile.TemporaryDirectory(prefix="bpywright-bench-token-") as tmp_name:
        token = Path(tmp_name) / "auth_token"  # this run's own cluster token, inherited by the nodes and the children
        token.write_text(secrets.token_hex(32))
        token.chmod(0o600)
        os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(token), RAY_USAGE_STATS_ENABLED="0")
        print(f"{args.n} BlendNet scripts, {args.cpus} workers/actors on every side; figures kept in {args.state}", flush=True)
        finished = [run_side(args, label, state) for label in SIDES]
    table(state)
    if not all(finished):
        sys.exit(1)


if __name__ == "__main__":
    main()
