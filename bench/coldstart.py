"""Cold start: `bpywright search` and generate's retrieve step in fresh processes, ONNX query encoder vs the model.

Every sample is a new Python process, so each pays the imports and the index load a person's command pays. Modes:
  onnx    default settings: the query encoder `bpywright ingest` exported beside the index (onnxruntime + tokenizers),
          the BM25 matrix and the vectors memory-mapped with numpy;
  model   BPYWRIGHT_QUERY_ENCODER=model: the sentence-transformers model (what an index without the export gets);
  before  with --before REF: the package as it was at git revision REF, extracted to a temporary directory and run by
          the same interpreter (e.g. the commit before the cold-start work), for the baseline the issue measured.
The modes take turns (rotating order) so that load on the shared machine falls on all alike; p50 and p90 are printed
with ours-vs-baseline ratios. search = wall time of `python -m bpywright search QUERY`; retrieve = the seconds the
graph's retrieve node reports (index load, symbol search, exemplars) in a fresh process, and that process's wall time.
Rankings: with --rankings, every prompt of the retrieval benchmark's dev set is searched in each mode (bm25, dense,
hybrid, hybrid+usage, the seed tasks taught as in bench/retrieval.py) and the top-10s are compared with the baseline's.
Usage: .venv/bin/python bench/coldstart.py [--runs 7] [--query "bevel modifier"] [--before REF] [--rankings] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
SEED = DATA.with_name("seed_tasks.jsonl")
RETRIEVE_PROMPT = "a low-poly pine tree on a snowy ground"

# Runs inside the measured tree: the retrieve node with the store `bpywright generate` would open; prints its seconds.
RETRIEVE = """
import json, sys
from bpywright.config import Settings
from bpywright.graph.loop.context import RunContext
from bpywright.graph.loop.nodes.retrieve import retrieve_node
from bpywright.graph.loop.state import GenState
settings = Settings.from_env()
store = None
if settings.exemplar_db.is_file():
    from bpywright.exemplars.store import ExemplarStore
    store = ExemplarStore.open(settings)
events = []
update = retrieve_node(GenState(prompt=sys.argv[1], version=sys.argv[2]), RunContext(settings=settings, thread_id="coldstart", store=store, on_event=events.append))
print(json.dumps({"seconds": events[-1].seconds, "symbols": [s.name for s in update["symbols"]]}))
"""

# Runs inside the measured tree: top-10 names per dev prompt and mode, the seed tasks taught as bench/retrieval.py does.
RANKINGS = """
import json, sys
from pathlib import Path
from bpywright.config import Settings
from bpywright.ingest.search import SymbolIndex
index_dir, data, seed, out = map(Path, sys.argv[1:5])
index = SymbolIndex.load(index_dir, settings=Settings.from_env())
rows = [json.loads(line) for line in seed.read_text(encoding="utf-8").splitlines() if line.strip()]
index.add_usage((r["instruction"], r["script"]) for r in rows)
def searcher(mode):  # a tree from before SymbolIndex.search(mode=...) has a method per mode
    if hasattr(index, "search_bm25"):
        return {"bm25": index.search_bm25, "dense": index.search_dense, "hybrid": index.search_hybrid}.get(mode, index.search)
    return lambda query, k: index.search(query, k, mode=mode)
modes = {mode: searcher(mode) for mode in ("bm25", "dense", "hybrid", "hybrid+usage")}
prompts = [json.loads(line)["instruction"] for line in data.read_text(encoding="utf-8").splitlines() if line.strip()]
result = {mode: [[h.symbol.name for h in search(p, 10)] for p in prompts] for mode, search in modes.items()}
out.write_text(json.dumps({"status": index.dense_status, "rankings": result}), encoding="utf-8")
"""


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (the ceil rank: p50 of 5 samples is the 3rd)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def extract(ref: str, into: Path) -> Path:
    """The bpywright package as it was at git revision ref, under into/ (a tree PYTHONPATH can point at)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "bpywright"], capture_output=True, check=True).stdout
    into.mkdir(parents=True, exist_ok=True)
    path = into / "archive.tar"
    path.write_bytes(archive)
    with tarfile.open(path) as tar:
        tar.extractall(into, filter="data")
    return into


def environments(before: Path | None) -> dict[str, dict[str, str]]:
    """Environment per mode; every mode reads the same artifacts (absolute path) from a neutral working directory."""
    base = {**os.environ, "BPYWRIGHT_ARTIFACTS": str(Path(os.environ.get("BPYWRIGHT_ARTIFACTS", ROOT / "artifacts")).resolve())}
    base.pop("BPYWRIGHT_QUERY_ENCODER", None)
    modes = {"onnx": dict(base), "model": {**base, "BPYWRIGHT_QUERY_ENCODER": "model"}}
    if before is not None:
        modes["before"] = {**base, "PYTHONPATH": str(before)}
    return modes


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    """Wall seconds of one fresh process and its stdout; a failing process stops the benchmark with its stderr."""
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(argv[:4])}… exited {done.returncode}:\n{done.stderr[-2000:]}")
    return seconds, done.stdout


def measure(envs: dict[str, dict[str, str]], runs: int, query: str, version: str, cwd: Path) -> dict[str, dict[str, list]]:
    """Per mode: search wall times, retrieve node seconds and wall times, and the answers (to compare)."""
    out: dict[str, dict[str, list]] = {
        m: {"search_s": [], "retrieve_s": [], "retrieve_wall_s": [], "top10": [], "retrieved": []} for m in envs
    }
    out["cli floor"] = {"help_s": []}  # `bpywright --help`: what any command pays before it does anything (the same in every mode)
    names = list(envs)
    for n in range(runs):
        out["cli floor"]["help_s"].append(timed([sys.executable, "-m", "bpywright", "--help"], envs["onnx"], cwd)[0])
        for mode in names[n % len(names) :] + names[: n % len(names)]:
            env = envs[mode]
            seconds, stdout = timed([sys.executable, "-m", "bpywright", "search", query, "--json", "--version", version], env, cwd)
            out[mode]["search_s"].append(seconds)
            out[mode]["top10"].append([hit["symbol"]["name"] for hit in json.loads(stdout)])
            seconds, stdout = timed([sys.executable, "-c", RETRIEVE, RETRIEVE_PROMPT, version], env, cwd)
            answer = json.loads(stdout.strip().splitlines()[-1])
            out[mode]["retrieve_s"].append(answer["seconds"])
            out[mode]["retrieve_wall_s"].append(seconds)
            out[mode]["retrieved"].append(answer["symbols"])
            print(
                f"  run {n + 1}/{runs} {mode:<6} search {out[mode]['search_s'][-1]:.2f} s, retrieve {answer['seconds']:.2f} s",
                file=sys.stderr,
            )
    return out


def overlap(a: list[list[str]], b: list[list[str]]) -> tuple[float, float]:
    """(mean |top10 ∩ top10'| / 10, share of identical ordered lists) over paired rankings."""
    shared = [len(set(x) & set(y)) / max(len(x), len(y), 1) for x, y in zip(a, b)]
    return sum(shared) / max(len(shared), 1), sum(x == y for x, y in zip(a, b)) / max(len(shared), 1)


def rankings(envs: dict[str, dict[str, str]], index: Path, cwd: Path, tmp: Path) -> dict[str, dict]:
    """Top-10 per dev prompt and search mode, per cold-start mode (one process each)."""
    found = {}
    for mode, env in envs.items():
        out = tmp / f"rankings-{mode}.json"
        timed([sys.executable, "-c", RANKINGS, str(index), str(DATA), str(SEED), str(out)], env, cwd)
        found[mode] = json.loads(out.read_text(encoding="utf-8"))
    return found


def main() -> int:
    """Measure each mode in fresh processes, print p50/p90 with ratios against the baseline, optionally compare rankings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh processes per mode and measure (default 7)")
    parser.add_argument("--query", default="bevel modifier")
    parser.add_argument("--version", default="4.5", help="Blender version of the index (default 4.5)")
    parser.add_argument("--before", metavar="REF", help="also measure the package at this git revision (the pre-change baseline)")
    parser.add_argument("--rankings", action="store_true", help="compare top-10s on the retrieval benchmark's dev prompts")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="coldstart-") as scratch:
        tmp = Path(scratch)
        before = extract(args.before, tmp / "before") if args.before else None
        envs = environments(before)
        index = Path(envs["onnx"]["BPYWRIGHT_ARTIFACTS"]) / "index" / args.version
        if not (index / "search.json").is_file():
            print(f"error: no index in {index}: run `bpywright ingest` first", file=sys.stderr)
            return 1
        cwd = tmp / "cwd"
        cwd.mkdir()
        figures = measure(envs, args.runs, args.query, args.version, cwd)
        ranked = rankings(envs, index, cwd, tmp) if args.rankings else {}
    baseline = "before" if args.before else "model"
    print(f"cold start, {args.runs} fresh processes per mode and measure; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    floor = figures.pop("cli floor")["help_s"]
    print(f"CLI floor (`bpywright --help`, any command's start-up): p50 {percentile(floor, 50):.2f} s, p90 {percentile(floor, 90):.2f} s")
    print(f"{'mode':<8}{'search p50':>12}{'p90':>8}{'retrieve p50':>14}{'p90':>8}{'retrieve wall p50':>19}")
    p50 = {}
    for mode, f in figures.items():
        p50[mode] = {key: percentile(f[key], 50) for key in ("search_s", "retrieve_s", "retrieve_wall_s")}
        print(
            f"{mode:<8}{p50[mode]['search_s']:>11.2f}s{percentile(f['search_s'], 90):>7.2f}s{p50[mode]['retrieve_s']:>13.2f}s"
            f"{percentile(f['retrieve_s'], 90):>7.2f}s{p50[mode]['retrieve_wall_s']:>18.2f}s"
        )
    for mode in figures:
        if mode != baseline:
            ratio = {key: p50[baseline][key] / max(p50[mode][key], 1e-9) for key in p50[mode]}
            print(f"{mode} vs {baseline}: " + ", ".join(f"{key[:-2]} ×{value:.1f} faster" for key, value in ratio.items()))
    for mode in figures:
        if mode != baseline:
            mean, same = overlap(figures[mode]["top10"], figures[baseline]["top10"])
            kept, identical = overlap(figures[mode]["retrieved"], figures[baseline]["retrieved"])
            print(
                f"{mode} vs {baseline} answers: search top-10 overlap {mean:.0%} (identical {same:.0%}); retrieve symbols overlap {kept:.0%}"
            )
    comparison: dict[str, dict[str, list[float]]] = {}
    for mode, found in ranked.items():
        if mode == baseline:
            continue
        comparison[mode] = {}
        for search, lists in found["rankings"].items():
            mean, same = overlap(lists, ranked[baseline]["rankings"].get(search, []))
            comparison[mode][search] = [mean, same]
        print(
            f"{mode} vs {baseline} on {len(next(iter(found['rankings'].values())))} dev prompts ({found['status']}): "
            + "; ".join(f"{s} top-10 overlap {m:.1%}, identical {i:.1%}" for s, (m, i) in comparison[mode].items())
        )
    targets = {"search p50 <= 1.5 s": p50["onnx"]["search_s"] <= 1.5, "retrieve p50 <= 2 s": p50["onnx"]["retrieve_s"] <= 2.0}
    print("targets: " + "; ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in targets.items()))
    if args.json:
        record = {
            "samples": figures,
            "p50": p50,
            "cli_floor_s": floor,
            "rankings": comparison,
            "targets": targets,
            "load_average": os.getloadavg()[0],
        }
        args.json.write_text(json.dumps(record, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
