"""Lint accuracy: false positives on scripts that run, recall on planted mistakes that fail, on two corpora.

    .venv/bin/python bench/lint_accuracy.py [--corpus blendnet procedural] [-n N] [--cap 60] [--seed 0]
                                            [--workers 2] [--data PATH] [--cache DIR] [--json out.json]

Corpora: `blendnet` (BlendNet JSONL in the shared data), `procedural` (real-world scripts from public
repositories, bench/corpora/procedural.json, text read from --cache; see bench/corpus.py) and `generators`
(bench/corpora/generators/: procedural generators written for this bench in the style of public ones, Infinigen-like
node-wrangler classes, helpers returning nodes, numpy/scipy, 2D curves, socket identifiers). The BlendNet default
is the whole dev split (975 scripts), the hold-out: seed_tasks.jsonl is the tuning set, nothing is tuned on dev;
`-n 400` measures only its first 400.

1. The scripts run in the warm pool (no render); those that pass are the "correct" corpus.
2. Every blocking diagnostic on a passing script is a false positive.
3. Mutants of the passing scripts (bench/planted.py; at most --cap per category, round-robin over
   its mutators, one per script and mutator) run in the pool; only those that fail are kept, and a
   kept mutant counts as flagged when a blocking diagnostic lands within ±1 line of the planted line.

Baseline, from the same lint run: "before" counts the findings the precision pass (harness/severity.py)
demoted as if they were still blocking, so the ratios show what the demotion bought and cost.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from corpus import BLENDNET, DEFAULT_CACHE, GENERATORS, MANIFESTS, Script, load_blendnet, load_directory, load_manifest  # noqa: E402
from planted import MUTATORS, Mutant, plant  # noqa: E402

from bpywright.harness.diagnostics import Diagnostic, LintReport  # noqa: E402
from bpywright.harness.lint import lint_files  # noqa: E402
from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402
from bpywright.harness.report import RunReport  # noqa: E402
from bpywright.rules import rule_pack  # noqa: E402

DEFAULT_DATA = BLENDNET
DEMOTED = "(advisory: "  # the precision pass's mark on a finding it demoted
TOOLS = ("ruff", "mypy", "pyright")
WINDOW = 1  # a blocking diagnostic within ±WINDOW lines of the planted line flags the mutant


def write_all(sources: Sequence[str], into: Path, names: Sequence[str]) -> list[Path]:
    """Write each source to into/<name>.py."""
    into.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, source in zip(names, sources, strict=True):
        path = into / f"{name}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(path)
    return paths


def run_all(pool: WorkerPool, paths: list[Path], label: str) -> list[RunReport]:
    """Run scripts in the pool with a progress bar; reports in input order."""
    with tqdm(total=len(paths), desc=label, unit="script", leave=False) as bar:
        return pool.map(paths, on_done=lambda _path, _report: bar.update())


def sample_mutants(sources: Sequence[str], cap: int, seed: int) -> list[Mutant]:
    """Up to `cap` mutants per category: one per (script, mutator), drawn round-robin over the category's mutators."""
    rng = random.Random(seed)
    order = list(range(len(sources)))
    rng.shuffle(order)
    found: dict[str, list[Mutant]] = {m.__name__: [] for mutators in MUTATORS.values() for m in mutators}
    # Script-major, so every mutator of a script reuses one parse; a mutator stops once it has `cap`.
    for i in tqdm(order, desc="planting", unit="script", leave=False):
        for mutators in MUTATORS.values():
            for mutator in mutators:
                if len(found[mutator.__name__]) < cap and (mutants := plant(mutator, sources[i])):
                    found[mutator.__name__].append(rng.choice(mutants))
    chosen: list[Mutant] = []
    for mutators in MUTATORS.values():
        rounds = itertools.zip_longest(*(found[m.__name__] for m in mutators))
        chosen += [m for batch in rounds for m in batch if m is not None][:cap]
    return chosen


def near(diag: Diagnostic, line: int) -> bool:
    """True when the diagnostic is within WINDOW lines of `line`."""
    return abs(diag.line - line) <= WINDOW


def demoted(report: LintReport) -> list[Diagnostic]:
    """Findings the precision pass demoted to advisory (blocking before it)."""
    return [d for d in report.diagnostics if d.severity == "advisory" and DEMOTED in d.message]


def false_positives(names: Sequence[str], sources: Sequence[str], reports: Sequence[LintReport]) -> dict:
    """Blocking diagnostics on scripts that run: counts and a (tool, code) breakdown with examples."""
    by_code: dict[str, list[dict]] = defaultdict(list)
    scripts_with = before_scripts = before = 0
    for name, source, report in zip(names, sources, reports, strict=True):
        scripts_with += bool(report.blocking)
        before_scripts += bool(report.blocking or demoted(report))
        before += len(report.blocking) + len(demoted(report))
        lines = source.splitlines()
        for diag in report.blocking:
            code_line = lines[diag.line - 1].strip() if 0 < diag.line <= len(lines) else ""
            by_code[f"{diag.tool}:{diag.code}"].append({"script": name, "line": diag.line, "message": diag.message, "code": code_line})
    breakdown = {key: {"count": len(items), "examples": items[:2]} for key, items in sorted(by_code.items(), key=lambda kv: -len(kv[1]))}
    total = sum(len(items) for items in by_code.values())
    return {
        "scripts": len(reports),
        "scripts_with_fp": scripts_with,
        "blocking_fps": total,
        "by_code": breakdown,
        "before": {"scripts_with_fp": before_scripts, "blocking_fps": before},
    }


def recall(mutants: Sequence[Mutant], runs: Sequence[RunReport], reports: Sequence[LintReport]) -> dict:
    """Flagged share of the confirmed-failing mutants, overall, per category and per mutator, with misses."""
    tally: dict[str, Counter] = defaultdict(Counter)
    by_mutator: dict[str, Counter] = defaultdict(Counter)
    by_tool: Counter = Counter()
    misses: dict[str, list[dict]] = defaultdict(list)
    for mutant, run, report in zip(mutants, runs, reports, strict=True):
        hits = [d for d in report.blocking if near(d, mutant.line)]
        hits_before = hits or [d for d in demoted(report) if near(d, mutant.line)]
        for key in ("all", mutant.category):
            tally[key].update(n=1, flagged=int(bool(hits)), anywhere=int(bool(report.blocking)), before=int(bool(hits_before)))
        by_mutator[mutant.mutator].update(n=1, flagged=int(bool(hits)))
        by_tool.update({tool for d in hits for tool in (d.tool, *d.also)})
        if not hits:
            misses[mutant.category].append(
                {
                    "mutator": mutant.mutator,
                    "description": mutant.description,
                    "line": mutant.line,
                    "code": mutant.source.splitlines()[mutant.line - 1].strip(),
                    "runtime": f"{run.exception.type}: {run.exception.message}" if run.exception else run.status,
                    "blocking_elsewhere": [f"{d.line}: {d.tool}:{d.code}" for d in report.blocking][:3],
                }
            )

    def share(c: Counter) -> dict:
        n = c["n"]
        return {
            "n": n,
            "flagged": c["flagged"],
            "recall": c["flagged"] / n if n else None,
            "anywhere": c["anywhere"] / n if n else None,
            "recall_before": c["before"] / n if n else None,
        }

    return {
        "overall": share(tally["all"]),
        "by_category": {key: share(c) for key, c in tally.items() if key != "all"},
        "by_mutator": {key: {"n": c["n"], "flagged": c["flagged"]} for key, c in by_mutator.items()},
        "by_tool": dict(by_tool),
        "misses": {key: {"count": len(items), "examples": items[:2]} for key, items in misses.items()},
    }


def _pct(x: float | None) -> str:
    return "  n/a" if x is None else f"{100 * x:5.1f}%"


def print_report(fig: dict) -> None:
    """The figures as a readable summary."""
    corpus, fp, rc, t = fig["corpus"], fig["false_positives"], fig["recall"], fig["timings"]
    print(f"\n== corpus {corpus['name']}: {corpus['scripts']} scripts, {corpus['passing']} pass in Blender {corpus['blender']} (no render)")
    for tool in fig["lint_tools"]:
        if tool["status"] != "ok":
            print(f"   !! {tool['tool']} {tool['status']}: {tool['detail'][:200]}")
    b = fp["before"]
    print(
        f"\n== false positives (blocking diagnostics on scripts that run): {fp['blocking_fps']} in {fp['scripts_with_fp']}/{fp['scripts']} scripts"
        f" (before the precision pass: {b['blocking_fps']} in {b['scripts_with_fp']} scripts)"
    )
    for key, entry in fp["by_code"].items():
        print(f"  {entry['count']:5d}  {key}")
        for ex in entry["examples"]:
            print(f"           {ex['script']}:{ex['line']}: {ex['message'][:160]}\n             | {ex['code'][:120]}")
    m = fig["mutants"]
    print(
        f"\n== recall: {m['planted']} mutants planted, {m['failing']} confirmed failing in the harness, {m['failing_at_line']} at the planted line"
    )
    o = rc["overall"]
    print(
        f"  overall            {_pct(o['recall'])}  ({o['flagged']}/{o['n']} within ±{WINDOW} line; any blocking anywhere {_pct(o['anywhere'])};"
        f" before the precision pass {_pct(o['recall_before'])})"
    )
    for category, c in rc["by_category"].items():
        planted_n, failing_n = m["by_category"][category]["planted"], m["by_category"][category]["failing"]
        print(
            f"  {category:20s} {_pct(c['recall'])}  ({c['flagged']}/{c['n']}; anywhere {_pct(c['anywhere'])}; {failing_n}/{planted_n} planted failed)"
        )
    print("  by mutator: " + ", ".join(f"{k} {v['flagged']}/{v['n']}" for k, v in rc["by_mutator"].items()))
    print("  flagged by tool: " + (", ".join(f"{k} {v}" for k, v in sorted(rc["by_tool"].items())) or "none"))
    if rc["misses"]:
        print("\n== misses (first two per category)")
    for category, entry in rc["misses"].items():
        print(f"  {category}: {entry['count']} missed")
        for ex in entry["examples"]:
            print(
                f"    [{ex['mutator']}] line {ex['line']}: {ex['description']}\n      | {ex['code'][:120]}\n      runtime: {ex['runtime'][:140]}"
            )
            if ex["blocking_elsewhere"]:
                print(f"      blocking elsewhere: {ex['blocking_elsewhere']}")
    n_ok, n_mut = max(corpus["passing"], 1), max(m["failing"], 1)
    print("\n== timings (wall seconds)")
    print(
        f"  run originals {t['run_originals']:.1f}s  lint originals {t['lint_originals']:.1f}s  plant {t['plant']:.1f}s  "
        f"run mutants {t['run_mutants']:.1f}s  lint mutants {t['lint_mutants']:.1f}s"
    )
    print(
        f"  per script: harness {t['run_originals'] / corpus['scripts']:.3f}s, batch lint {t['lint_originals'] / n_ok:.3f}s "
        f"(lint/harness {t['lint_originals'] / n_ok / (t['run_originals'] / corpus['scripts']):.2f}x); "
        f"mutants: lint {t['lint_mutants'] / n_mut:.3f}s/script"
    )


def measure(name: str, scripts: Sequence[Script], pool: WorkerPool, tmp: Path, cap: int, seed: int, data: str) -> dict:
    """Run, lint, plant, run and lint again for one corpus: its figures."""
    timings: dict[str, float] = {}
    sources = [s.source for s in scripts]
    paths = write_all(sources, tmp / name / "scripts", [s.name for s in scripts])
    start = time.perf_counter()
    runs = run_all(pool, paths, f"run {name}")
    timings["run_originals"] = time.perf_counter() - start
    passing = [i for i, r in enumerate(runs) if r.ok]
    blender = next((r.blender_version for r in runs if r.blender_version), "?")

    start = time.perf_counter()
    lint = lint_files([paths[i] for i in passing], tools=TOOLS, rules=rule_pack()) if passing else {}
    timings["lint_originals"] = time.perf_counter() - start
    originals = [lint[paths[i]] for i in passing]
    fp = false_positives([paths[i].name for i in passing], [sources[i] for i in passing], originals)

    start = time.perf_counter()
    planted = sample_mutants([sources[i] for i in passing], cap, seed)
    timings["plant"] = time.perf_counter() - start
    mutant_paths = write_all([m.source for m in planted], tmp / name / "mutants", [f"m{i:04d}_{m.mutator}" for i, m in enumerate(planted)])
    start = time.perf_counter()
    mutant_runs = run_all(pool, mutant_paths, f"run {name} mutants")
    timings["run_mutants"] = time.perf_counter() - start
    failing = [i for i, r in enumerate(mutant_runs) if not r.ok]

    start = time.perf_counter()
    mutant_lint = lint_files([mutant_paths[i] for i in failing], tools=TOOLS, rules=rule_pack()) if failing else {}
    timings["lint_mutants"] = time.perf_counter() - start

    kept = [planted[i] for i in failing]
    per_category = {c: {"planted": sum(m.category == c for m in planted), "failing": sum(m.category == c for m in kept)} for c in MUTATORS}
    at_line = sum(1 for i in failing if (e := mutant_runs[i].exception) is not None and e.line == planted[i].line)
    statuses = originals[0].tools if originals else []
    return {
        "corpus": {"name": name, "data": data, "scripts": len(sources), "passing": len(passing), "blender": blender},
        "lint_tools": [{"tool": s.tool, "status": s.status, "detail": s.detail} for s in statuses],
        "false_positives": fp,
        "mutants": {
            "planted": len(planted),
            "failing": len(kept),
            "failing_at_line": at_line,
            "by_category": per_category,
            "cap": cap,
            "seed": seed,
        },
        "recall": recall(kept, [mutant_runs[i] for i in failing], [mutant_lint[mutant_paths[i]] for i in failing]),
        "timings": timings,
    }


def print_summary(figures: list[dict]) -> None:
    """One line per corpus: false positives and recall, after vs before the precision pass."""
    print("\n== summary (after / before the precision pass)")
    for fig in figures:
        fp, o = fig["false_positives"], fig["recall"]["overall"]
        b = fp["before"]
        ratio = f"{fp['blocking_fps'] / b['blocking_fps']:.2f}x" if b["blocking_fps"] else "n/a"
        print(
            f"  {fig['corpus']['name']:11s} blocking FPs {fp['blocking_fps']} / {b['blocking_fps']} ({ratio}) in {fig['corpus']['passing']} running scripts;"
            f" recall {_pct(o['recall'])} / {_pct(o['recall_before'])} on {o['n']} failing mutants"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus", nargs="+", choices=("blendnet", "procedural", "generators"), default=["blendnet", "procedural", "generators"]
    )
    parser.add_argument("-n", type=int, default=None, help="use the first N scripts of each corpus (default: all)")
    parser.add_argument("--cap", type=int, default=60, help="mutants per category")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="BlendNet JSONL")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where the procedural corpus's scripts are cached")
    parser.add_argument("--partial", action="store_true", help="measure the procedural scripts the cache holds, skip the others")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()

    corpora: dict[str, tuple[list[Script], str]] = {}
    if "blendnet" in args.corpus:
        corpora["blendnet"] = (load_blendnet(args.data, args.n), str(args.data))
    if "procedural" in args.corpus:
        manifest = MANIFESTS / "procedural.json"
        corpora["procedural"] = (load_manifest(manifest, args.cache, partial=args.partial)[: args.n], str(manifest))
    if "generators" in args.corpus:
        corpora["generators"] = (load_directory(GENERATORS)[: args.n], str(GENERATORS))
    options = RunOptions(render=False, timeout=60)
    figures = []
    with tempfile.TemporaryDirectory(prefix="bpywright-lint-bench-") as tmp, WorkerPool(args.workers, options) as pool:
        pool.warm()
        for name, (scripts, data) in corpora.items():
            fig = measure(name, scripts, pool, Path(tmp), args.cap, args.seed, data)
            print_report(fig)
            figures.append(fig)
    print_summary(figures)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
        print(f"\nfigures written to {args.json}")


if __name__ == "__main__":
    main()
