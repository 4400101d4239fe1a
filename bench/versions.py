"""Blender versions benchmark: BlendNet dev scripts on 4.5 vs 5.0 vs 5.2, before and after `heal --target`; lint with
the 5.2 stubs; per-runtime pool start-up and throughput.

    .venv/bin/python bench/versions.py [--versions 4.5,5.0,5.2] [--limit N] [--workers 2] [--no-heal] [--no-lint]
                                       [--json out.json] [--runs-dir DIR]

1. Every BlendNet dev script runs (no render) on each installed runtime through a warm WorkerPool: pass rate, failures
   grouped by message, pool start-up (first worker ready) and throughput (scripts/s) — 4.5 (the bundled wheel) is
   the baseline each other runtime is compared with.
2. The scripts that fail on a version are healed for it (`heal --target VERSION`: drift rules, re-run on that runtime).
3. Lint: blocking findings with the 5.2 stubs on the scripts that pass on 5.2 (false positives; goal 0), and recall
   on planted 5.2 API mistakes (each fails on the 5.2 runtime) — bench/planted.py's method, 5.2 mistakes.
Runtimes come from `bpywright blender list`; a version that is not installed is skipped with the command that adds it.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.config import Settings  # noqa: E402
from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402
from bpywright.runtimes import RuntimeMissing, RuntimeRegistry  # noqa: E402

BLENDNET = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
BASE = RunOptions(render=False, timeout=60)


def load_scripts(path: Path, limit: int | None) -> dict[str, str]:
    """BlendNet dev scripts by id (read in place); `limit` takes an evenly spaced sample."""
    out: dict[str, str] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            out[str(row.get("id") or row.get("name") or len(out))] = row["script"]
    if limit and limit < len(out):  # an evenly spaced sample, so every category stays represented
        keys = list(out)
        out = {keys[i * len(keys) // limit]: out[keys[i * len(keys) // limit]] for i in range(limit)}
    return out


def failure_text(report) -> str:
    """'Type: message' of a failed run ('' when it passed)."""
    if report.ok:
        return ""
    if report.exception is not None:
        return f"{report.exception.type}: {report.exception.message}"[:300]
    return report.status


def failure_group(text: str) -> str:
    """A failure with names and numbers blanked, so one API change groups its instances."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    return re.sub(r"\d+(\.\d+)?", "N", text)[:140]


def run_version(options: RunOptions, scripts: dict[str, str], workers: int) -> tuple[dict[str, str], float, float]:
    """Failure text by script on one runtime, the pool's start-up seconds and the run's scripts/s."""
    started = time.perf_counter()
    with WorkerPool(workers, options) as pool:
        pool.warm()
        startup = time.perf_counter() - started
        t0 = time.perf_counter()
        with ThreadPoolExecutor(workers) as ex, tqdm(total=len(scripts), unit="script", leave=False, file=sys.stderr) as bar:

            def one(source: str) -> str:
                text = failure_text(pool.run(source=source, options=options))
                bar.update(1)
                return text

            texts = dict(zip(scripts, ex.map(one, scripts.values())))
        rate = len(scripts) / (time.perf_counter() - t0)
    return texts, startup, rate


def heal_version(options: RunOptions, target: str, sources: dict[str, str], workers: int) -> dict[str, bool]:
    """Whether each failing script passes after the rule healer targets `target` on that runtime."""
    from bpywright.rules.healer import heal

    with WorkerPool(workers, options) as pool, ThreadPoolExecutor(workers) as ex:

        def one(source: str) -> bool:
            return heal(source, max_rounds=4, target=target, run=lambda s: pool.run(source=s, options=options)).healed

        return dict(zip(sources, ex.map(one, sources.values())))


def lint_false_positives(sources: dict[str, str], version: str) -> tuple[int, int, Counter]:
    """Scripts with a blocking finding (and the codes) among scripts that ran fine on `version`."""
    import tempfile

    from bpywright.harness.lint import lint_files
    from bpywright.rules import rule_pack

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n, source in enumerate(sources.values()):
            path = Path(tmp) / f"s{n:04d}.py"
            path.write_text(source, encoding="utf-8")
            paths.append(path)
        reports = lint_files(paths, version=version, rules=rule_pack(version, index_root=Path(tmp) / "none"))
    codes: Counter = Counter()
    flagged = 0
    for report in reports.values():
        if report.blocking:
            flagged += 1
            codes.update(f"{d.tool}:{d.code}" for d in report.blocking)
    return flagged, len(reports), codes


# Realistic 4.5-era lines that fail on 5.2, appended to scripts that pass there: (name, lines; the last one is the mistake).
PLANTS_52 = (
    ("eevee-next-engine", ["bpy.context.scene.render.engine = 'BLENDER_EEVEE_NEXT'"]),
    ("eevee-gtao", ["bpy.context.scene.eevee.use_gtao = True"]),
    ("grease-pencils-v3", ["sketch = bpy.data.grease_pencils_v3.new('Sketch')"]),
    ("scene-node-tree", ["compositor = bpy.context.scene.node_tree"]),
    ("bgl-module", ["import bgl"]),
    (
        "legacy-separate-rgb",
        [
            "split_mat = bpy.data.materials.new('Split')",
            "split_mat.use_nodes = True",
            "split = split_mat.node_tree.nodes.new('ShaderNodeSeparateRGB')",
        ],
    ),
    ("vse-sequences", ["strips = bpy.context.scene.sequence_editor_create().sequences"]),
    ("imp-module", ["import imp"]),
    (
        "boolean-fast",
        ["cutter = bpy.data.objects.new('Cut', bpy.data.meshes.new('Cut')).modifiers.new('Cut', 'BOOLEAN')", "cutter.solver = 'FAST'"],
    ),
    (
        "cycles-shadow-catcher",
        ["floor = bpy.data.objects.new('Floor', bpy.data.meshes.new('Floor'))", "floor.cycles.is_shadow_catcher = True"],
    ),
)


def plant_52(sources: dict[str, str], per_plant: int) -> list[tuple[str, str, int]]:
    """(plant name, mutant source, 1-based line of the mistake): each plant appended to the first per_plant scripts."""
    out = []
    for name, lines in PLANTS_52:
        for source in list(sources.values())[:per_plant]:
            body = source.rstrip("\n") + "\nimport bpy\n" + "\n".join(lines) + "\n"
            out.append((name, body, body.count("\n")))
    return out


def planted_recall(options: RunOptions, passing: dict[str, str], per_plant: int, workers: int) -> dict:
    """Recall on planted 5.2 mistakes (each confirmed to fail on the 5.2 runtime): 5.2 stubs+rules vs the 4.5 ones."""
    import tempfile

    from bpywright.harness.lint import lint_files
    from bpywright.rules import rule_pack

    mutants = plant_52(passing, per_plant)
    with WorkerPool(workers, options) as pool, ThreadPoolExecutor(workers) as ex:
        fails = list(ex.map(lambda m: not pool.run(source=m[1], options=options).ok, mutants))
    confirmed = [m for m, failed in zip(mutants, fails) if failed]
    found: dict[str, Counter] = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for n, (_, body, _) in enumerate(confirmed):
            path = Path(tmp) / f"m{n:04d}.py"
            path.write_text(body, encoding="utf-8")
            paths.append(path)
        for version in ("5.2", "4.5"):
            reports = lint_files(paths, version=version, rules=rule_pack(version, index_root=Path(tmp) / "none"))
            hits: Counter = Counter()
            for (name, _, line), path in zip(confirmed, paths):
                hits[name] += any(abs(d.line - line) <= 1 for d in reports[path].blocking)
            found[version] = hits
    per = {
        name: {"planted": sum(1 for m in confirmed if m[0] == name), "found_5.2": found["5.2"][name], "found_4.5": found["4.5"][name]}
        for name, _ in PLANTS_52
    }
    return {
        "mutants": len(mutants),
        "confirmed_failing": len(confirmed),
        "recall_5.2": sum(found["5.2"].values()) / max(len(confirmed), 1),
        "recall_4.5_stubs": sum(found["4.5"].values()) / max(len(confirmed), 1),
        "per_plant": per,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", default="4.5,5.0,5.2")
    parser.add_argument("--blendnet", type=Path, default=BLENDNET, help="BlendNet dev JSONL (read in place)")
    parser.add_argument("--limit", type=int, help="an evenly spaced sample of N BlendNet scripts")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-heal", action="store_true")
    parser.add_argument("--no-lint", action="store_true")
    parser.add_argument("--per-plant", type=int, default=8, help="scripts each planted 5.2 mistake is put into (default 8)")
    parser.add_argument("--json", type=Path, help="write every figure (and per-script failures) here")
    args = parser.parse_args()
    settings = Settings.from_env()
    registry = RuntimeRegistry.for_settings(settings)
    scripts = load_scripts(args.blendnet, args.limit)
    print(f"{len(scripts)} BlendNet dev scripts, {args.workers} workers")
    results: dict[str, dict] = {}
    for version in args.versions.split(","):
        try:
            runtime = registry.get(version)
        except RuntimeMissing as exc:
            print(f"== {version}: skipped — {exc}")
            continue
        options = runtime.run_options(BASE)
        failures, startup, rate = run_version(options, scripts, args.workers)
        failing = {k: v for k, v in failures.items() if v}
        row = {
            "blender": runtime.blender_version,
            "scripts": len(scripts),
            "passed": len(scripts) - len(failing),
            "startup_s": round(startup, 2),
            "scripts_per_s": round(rate, 2),
            "groups": Counter(failure_group(t) for t in failing.values()).most_common(15),
            "failures": failing,
        }
        if not args.no_heal and failing:
            healed = heal_version(options, runtime.version, {k: scripts[k] for k in failing}, args.workers)
            row["passed_after_heal"] = row["passed"] + sum(healed.values())
            row["still_failing"] = Counter(failure_group(failing[k]) for k, ok in healed.items() if not ok).most_common(10)
        results[version] = row
        after = f", after heal --target {version}: {row['passed_after_heal']}/{len(scripts)}" if "passed_after_heal" in row else ""
        print(
            f"== {version} ({runtime.blender_version}): {row['passed']}/{len(scripts)} pass{after}; "
            f"pool start-up {startup:.2f} s, {rate:.2f} scripts/s"
        )
        for group, count in row["groups"][:8]:
            print(f"   {count:4d}  {group}")
    base = results.get("4.5")
    if base:
        for version, row in results.items():
            drift = {k: t for k, t in row["failures"].items() if k not in base["failures"]}
            if version != "4.5":
                row["fail_only_here"] = drift
                why = Counter(failure_group(t) for t in drift.values()).most_common(5)
                print(f"4.5-correct scripts that fail on {version}: {len(drift)}" + "".join(f"\n   {n:4d}  {g}" for g, n in why))
        print("\nratios vs the bundled 4.5 wheel (measured in this run):")
        for version, row in results.items():
            if version != "4.5":
                print(
                    f"  {version}: pass rate {row['passed'] / max(base['passed'], 1):.3f}×, "
                    f"throughput {row['scripts_per_s'] / base['scripts_per_s']:.2f}×, start-up {row['startup_s'] / base['startup_s']:.2f}×"
                )
    if not args.no_lint and "5.2" in results:
        passing = {k: scripts[k] for k in scripts if k not in results["5.2"]["failures"]}
        t0 = time.perf_counter()
        flagged, total, codes = lint_false_positives(passing, "5.2")
        base_flagged, _, _ = lint_false_positives(passing, "4.5")
        results["lint_5.2"] = {
            "flagged": flagged,
            "flagged_with_4.5_stubs": base_flagged,
            "scripts": total,
            "codes": codes.most_common(10),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        print(
            f"\nlint, scripts that run on 5.2 with a blocking finding (false positives; goal 0): {flagged}/{total} with the 5.2 stubs "
            f"vs {base_flagged}/{total} with the 4.5 stubs (the old default)"
        )
        for code, count in codes.most_common(10):
            print(f"   {count:4d}  {code}")
        recall = planted_recall(registry.get("5.2").run_options(BASE), passing, args.per_plant, args.workers)
        results["planted_5.2"] = recall
        print(
            f"planted 5.2 mistakes: {recall['confirmed_failing']}/{recall['mutants']} fail on 5.2; lint recall {recall['recall_5.2']:.0%} "
            f"with the 5.2 stubs + rules vs {recall['recall_4.5_stubs']:.0%} with the 4.5 ones "
            + (f"({recall['recall_5.2'] / recall['recall_4.5_stubs']:.1f}×)" if recall["recall_4.5_stubs"] else "(the 4.5 stubs find none)")
        )
        for name, row in recall["per_plant"].items():
            print(f"   {name:<24} {row['found_5.2']}/{row['planted']} (4.5 stubs: {row['found_4.5']})")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
