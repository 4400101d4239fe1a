"""Time to a faithful script on this CPU, two code versions side by side: each version's own `bpywright generate`, as a
user runs it, on the fidelity benchmark's sample (BlendNet dev, seed 26), prompts interleaved, in one run.

    .venv/bin/python bench/cpu_time.py --versions BASE,HEAD [--n 8] [--seed 26] [--out bench/results/cpu_time/NAME]
                                       [--report-only]

Each version is checked out in a git worktree (under --work) and run with this venv (PYTHONPATH = the worktree, so its
own package is imported), its own artifacts folder (the models, runtimes and symbol index of this checkout's artifacts
linked, an exemplar store seeded by that version as `make run` seeds it) and the stubs this checkout built. No endpoint
is configured, so each request serves the local model as a fresh `make run` does, with the version's own server
options: the wall time is what a user waits for, the model's start included. Every request of a prompt is sent with the
fidelity benchmark's seed for the prompt's loop row (BPYWRIGHT_LLM_SAMPLING="seed=N"), for both versions; the prompt
order alternates which version goes first.

Each answer is measured like bench/fidelity.py's rows (F-score against the reference, faithful when it beats both
floors; a copy of what the prompt showed, or a script that did not run, is a failure). Results: --out/ID.VERSION.py|png|json
(the script, its render, the run: seconds, exit code, the CLI's JSON), and --out/cpu_time.md, the table: median seconds
per version, the ratio, faithful rate, F per prompt. Timings are wall clock: say how quiet the machine was (the load
average before and after each request is recorded).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import DATA, MeasureCache, faithful, floor, geometry, load_rows, measure_cache  # noqa: E402
from generation import copy_of, row_seed  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.fidelity.compare import compare  # noqa: E402

FLOORS = ROOT / "bench" / "results" / "fidelity" / "floors.json"
LINKED = ("models", "runtimes", "index")


def resolve(version: str) -> str:
    return subprocess.run(["git", "rev-parse", "--short", version], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def checkout(version: str, work: Path, artifacts: Path) -> tuple[Path, Path]:
    """(the version's worktree, its artifacts folder), made once: stubs and artifacts linked, the store seeded."""
    tree, store = work / version, work / f"{version}-artifacts"
    if not tree.is_dir():
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), version], cwd=ROOT, check=True, capture_output=True)
    built = tree / "typings" / "build"
    if not built.exists():
        built.symlink_to(ROOT / "typings" / "build")
    store.mkdir(parents=True, exist_ok=True)
    for name in LINKED:
        if not (store / name).exists():
            (store / name).symlink_to(artifacts / name)
    if not (store / "exemplars").is_dir():
        subprocess.run([sys.executable, "-m", "bpywright", "exemplars", "seed"], cwd=tree, env=env_for(tree, store, None), check=True)
    return tree, store


def env_for(tree: Path, store: Path, seed: int | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BPYWRIGHT_")}
    env |= {"PYTHONPATH": str(tree), "BPYWRIGHT_ARTIFACTS": str(store)}
    if seed is not None:
        env["BPYWRIGHT_LLM_SAMPLING"] = f"seed={seed}"
    return env


def generate(version: str, tree: Path, store: Path, item: dict[str, Any], out: Path, timeout: float) -> dict[str, Any]:
    """One `bpywright generate` of the item's prompt by the version: its row (seconds, exit code, the result)."""
    stem = f"{out.resolve()}/{item['id']}.{version}"  # absolute: the command runs in the version's worktree
    path, script = Path(f"{stem}.json"), Path(f"{stem}.py")
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    for old in (script, Path(f"{stem}.png")):
        old.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "bpywright", "generate", item["instruction"], "-o", f"{stem}.py", "--render", f"{stem}.png", "--json"]
    load_before = os.getloadavg()
    start = time.perf_counter()
    try:
        done = subprocess.run(
            cmd, cwd=tree, env=env_for(tree, store, row_seed(item["id"], "loop")), capture_output=True, text=True, timeout=timeout
        )
        code, stdout, stderr = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as exc:
        code, stdout, stderr = None, str(exc.stdout or ""), str(exc.stderr or "")
    seconds = time.perf_counter() - start
    try:
        result = json.loads(stdout)
    except json.JSONDecodeError:
        result = None
    row = {
        "id": item["id"],
        "name": item["name"],
        "version": version,
        "seconds": round(seconds, 1),
        "exit_code": code,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "script": script.read_text(encoding="utf-8") if script.is_file() else None,
        "result": result,
        "stderr_tail": stderr[-2000:],
    }
    path.write_text(json.dumps(row, indent=1), encoding="utf-8")
    return row


def judge(row: dict[str, Any], entry: dict[str, Any], reference: str, cache: MeasureCache) -> dict[str, Any]:
    """The row measured against its reference: ran, copy_of, F-score, faithful."""
    script = row["script"]
    measured = cache.get(f"{row['id']}.{row['version']}.measure", script) if script else None
    ran = bool(measured and measured["ok"])
    copied = copy_of({"script": script, "shown": []}) if ran else None
    fid = None
    if ran and copied is None:
        answer = geometry(measured or {})
        ref = geometry(cache.get(f"references/{row['id']}", reference))
        assert ref is not None
        fid = compare(answer, ref)
    return {
        "ran": ran,
        "copy_of": copied,
        "fscore": round(fid.fscore, 3) if fid and fid.measured else 0.0,
        "faithful": bool(fid and faithful(fid, entry)),
        "floor": round(floor(entry), 3),
    }


def table(versions: list[str], items: list[dict[str, Any]], rows: dict[str, dict[str, dict[str, Any]]]) -> str:
    def med(v: str) -> float:
        return statistics.median(rows[v][i["id"]]["seconds"] for i in items)

    first, last = versions[0], versions[-1]
    lines = [
        f"# Time to a faithful script: {' vs '.join(versions)}",
        "",
        "Each version's own `bpywright generate PROMPT` (the local model it serves, its loop defaults), the fidelity sample's "
        "prompts interleaved, one run. Faithful: F-score beats both floors of the prompt; copies and failures are not.",
        "",
        "| version | median seconds | faithful | median F | ran (not copies) |",
        "|---|---|---|---|---|",
    ]
    for v in versions:
        judged = [rows[v][i["id"]] for i in items]
        lines.append(
            f"| {v} | {med(v):.0f} | {sum(r['faithful'] for r in judged)} of {len(judged)} | "
            f"{statistics.median(r['fscore'] for r in judged):.3f} | {sum(r['ran'] and not r['copy_of'] for r in judged)} |"
        )
    lines += ["", f"Median time ratio {last} / {first}: **{med(last) / med(first):.2f}×**", ""]
    lines += ["| prompt | floor F | " + " | ".join(f"{v} s | {v} F | {v} faithful" for v in versions) + " | load before |"]
    lines += ["|---|---|" + "---|---|---|" * len(versions) + "---|"]
    for i in items:
        cells = []
        for v in versions:
            r = rows[v][i["id"]]
            note = "" if r["ran"] else " (failed)" if not r["copy_of"] else " (copy)"
            cells += [f"{r['seconds']:.0f}", f"{r['fscore']:.3f}{note}", "yes" if r["faithful"] else "no"]
        loads = " / ".join(f"{rows[v][i['id']]['load_before'][0]:.1f}" for v in versions)
        lines.append(f"| {i['name']} (`{i['id'][:8]}`) | {rows[first][i['id']]['floor']:.3f} | " + " | ".join(cells) + f" | {loads} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--versions", required=True, help="two or more git revisions, the baseline first (e.g. v0.2.0,HEAD)")
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--floors", type=Path, default=FLOORS, help="bench/fidelity.py's floors.json: the sample, in order")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "cpu_time" / "latest")
    parser.add_argument("--work", type=Path, default=Path("/tmp/bpywright-cpu-time"), help="worktrees and artifacts")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds a request may take before it counts as failed")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args()

    versions = [resolve(v.strip()) for v in args.versions.split(",") if v.strip()]
    entries = {e["id"]: e for e in json.loads(args.floors.read_text(encoding="utf-8"))}
    by_id = {r["id"]: r for r in load_rows(args.data)}
    items = [by_id[i] for i in list(entries)[: args.n]]
    args.out.mkdir(parents=True, exist_ok=True)
    artifacts = Settings.from_env().artifacts.resolve()
    trees = {} if args.report_only else {v: checkout(v, args.work, artifacts) for v in versions}
    rows: dict[str, dict[str, dict[str, Any]]] = {v: {} for v in versions}
    for k, item in enumerate(items):
        for v in versions if k % 2 == 0 else list(reversed(versions)):
            if args.report_only:
                rows[v][item["id"]] = json.loads((args.out / f"{item['id']}.{v}.json").read_text(encoding="utf-8"))
                continue
            row = generate(v, *trees[v], item, args.out, args.timeout)
            rows[v][item["id"]] = row
            print(f"[{k + 1}/{len(items)}] {v} {item['name']}: {row['seconds']} s, exit {row['exit_code']}", flush=True)
    cache = measure_cache(args.out / "measured", Settings.from_env())
    try:
        for v in versions:
            for item in items:
                rows[v][item["id"]] |= judge(rows[v][item["id"]], entries[item["id"]], item["script"], cache)
    finally:
        cache.close()
    text = table(versions, items, rows)
    (args.out / "cpu_time.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
