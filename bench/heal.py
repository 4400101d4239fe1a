"""Heal benchmark: broken old-API scripts, healed by the drift rules alone; passing before vs after, rounds, what no rule explains.

    .venv/bin/python bench/heal.py [--corpus bench/heal_corpus] [--blendnet PATH | --no-blendnet] [--workers 2]
                                   [--max-rounds 5] [--json out.json] [--show-unhealed] [--projects-only]

1. Every corpus script runs on Blender 4.5 first; one that passes is not a valid entry (reported, left out).
2. Each failing script is healed (run → rules → re-run, at most --max-rounds rounds) on the warm pool.
3. Projects (corpus/projects/*/, entry scripts listed in ENTRIES.txt, helper modules beside them): each entry runs as
   a file of its project (a naive runner: as it is), is healed as a single file (the entry alone, as `heal` did
   before projects), and as a project (helpers healed too); the three pass counts are measured in one run.
4. BlendNet: the dataset's scripts that fail on 4.5 are healed the same way (read in place, never copied).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tqdm import tqdm

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402
from bpywright.harness.report import RunReport  # noqa: E402
from bpywright.rules.healer import HealOutcome, heal  # noqa: E402
from bpywright.rules.project import heal_project, staged  # noqa: E402

DEFAULT_CORPUS = ROOT / "bench" / "heal_corpus"
DEFAULT_BLENDNET = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
OPTIONS = RunOptions(render=False, timeout=60)


def failure_group(text: str) -> str:
    """A failure with names and numbers blanked, so that one missing rule groups its instances."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    return re.sub(r"\d+(\.\d+)?", "N", text)[:160]


def heal_all(pool: WorkerPool, sources: dict[str, str], max_rounds: int, workers: int, label: str) -> dict[str, HealOutcome]:
    """Heal many scripts concurrently on the shared pool."""

    def one(item: tuple[str, str]) -> tuple[str, HealOutcome]:
        name, source = item
        return name, heal(source, max_rounds=max_rounds, run=lambda s: pool.run(source=s, options=OPTIONS))

    with ThreadPoolExecutor(workers) as ex:
        return dict(tqdm(ex.map(one, sources.items()), total=len(sources), desc=label, unit="script", leave=False))


def summarise(outcomes: dict[str, HealOutcome]) -> dict:
    """Passing before/after, the rounds histogram, and unexplained failures grouped by type and message."""
    failing = {n: o for n, o in outcomes.items() if o.status_before != "ok"}
    healed = {n: o for n, o in failing.items() if o.healed}
    rounds = Counter(sum(1 for r in o.rounds if not r.reverted) for o in healed.values())
    unexplained: dict[str, list[str]] = defaultdict(list)
    for name, o in failing.items():
        if not o.healed:
            unexplained[failure_group(o.failure_after or o.status_after)].append(name)
    rules = Counter(a.rule for o in failing.values() for r in o.rounds if not r.reverted for a in r.applied)
    return {
        "scripts": len(outcomes),
        "failing_before": len(failing),
        "passing_before": len(outcomes) - len(failing),
        "passing_after": len(healed) + len(outcomes) - len(failing),
        "healed": len(healed),
        "rounds_histogram": dict(sorted(rounds.items())),
        "reverted_rounds": sum(r.reverted for o in failing.values() for r in o.rounds),
        "rules_applied": dict(rules.most_common()),
        "unexplained": {k: sorted(v) for k, v in sorted(unexplained.items(), key=lambda kv: -len(kv[1]))},
    }


def print_summary(title: str, s: dict, seconds: float) -> None:
    """The figures of one corpus, for people."""
    failing = s["failing_before"] or 1
    print(f"\n== {title}: {s['scripts']} scripts, {s['failing_before']} failing on Blender 4.5 ({seconds:.0f} s)")
    print(f"passing before heal: {s['passing_before']}/{s['scripts']}   after: {s['passing_after']}/{s['scripts']}")
    print(f"healed: {s['healed']}/{s['failing_before']} failing scripts ({s['healed'] / failing:.0%})")
    print("rounds needed (healed scripts): " + ", ".join(f"{k}: {v}" for k, v in s["rounds_histogram"].items()))
    print(f"reverted rounds (a fix that made things worse): {s['reverted_rounds']}")
    print("rules applied: " + ", ".join(f"{k} {v}" for k, v in s["rules_applied"].items()))
    if s["unexplained"]:
        print("failures no rule explains (the next rules to write):")
        for group, names in s["unexplained"].items():
            print(f"  {len(names):3d}  {group}   [{', '.join(names[:4])}{' …' if len(names) > 4 else ''}]")


def load_corpus(path: Path) -> dict[str, str]:
    """Corpus scripts by file name."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(path.glob("*.py"))}


def failing_blendnet(pool: WorkerPool, data: Path, workers: int) -> dict[str, str]:
    """BlendNet scripts (by record index) that fail on Blender 4.5."""
    with data.open(encoding="utf-8") as fh:
        scripts = {f"blendnet-{i:04d}": json.loads(line)["script"] for i, line in enumerate(fh)}

    def one(item: tuple[str, str]) -> tuple[str, RunReport]:
        return item[0], pool.run(source=item[1], options=OPTIONS)

    with ThreadPoolExecutor(workers) as ex:
        reports = dict(tqdm(ex.map(one, scripts.items()), total=len(scripts), desc="blendnet runs", unit="script", leave=False))
    print(f"\nBlendNet: {sum(not r.ok for r in reports.values())}/{len(scripts)} scripts fail on Blender 4.5")
    return {n: scripts[n] for n, r in reports.items() if not r.ok}


def project_entries(folder: Path) -> dict[Path, list[str]]:
    """Each corpus project (a folder with ENTRIES.txt) and its entry scripts."""
    return {
        p.parent: p.read_text(encoding="utf-8").split()
        for p in sorted(folder.glob("*/ENTRIES.txt"))
        if p.read_text(encoding="utf-8").split()
    }


def heal_projects(pool: WorkerPool, projects: dict[Path, list[str]], max_rounds: int, workers: int) -> dict[str, dict]:
    """Per entry: does it run as it is (naive), after healing the entry alone, after healing the project."""

    def one(item: tuple[Path, list[str]]) -> dict[str, dict]:
        root, entries = item
        found: dict[str, dict] = {}
        with staged(root.resolve()) as stage:
            options = OPTIONS.model_copy(update={"root": stage.root})

            def run_entry(entry: str, texts: dict[str, str], source: str | None = None) -> RunReport:
                stage.set(texts)
                path = stage.root / entry
                return pool.run(source=source if source is not None else path.read_text(encoding="utf-8"), options=options, as_file=path)

            for entry in entries:
                original = (root / entry).read_text(encoding="utf-8")
                alone = heal(original, max_rounds=max_rounds, run=lambda s, e=entry: run_entry(e, {}, s))
                whole = heal_project(root, entry, run=lambda t, e=entry: run_entry(e, t), seen_as=stage.root, max_rounds=max_rounds)
                found[f"{root.name}/{entry}"] = {
                    "naive": whole.status_before == "ok",
                    "entry_only": alone.healed,
                    "project": whole.healed,
                    "files_changed": [f.path for f in whole.files],
                    "rules": sorted({a.rule for r in whole.rounds if not r.reverted for a in r.applied}),
                    "failure_before": whole.failure_before,
                    "failure_after": whole.failure_after,
                    "not_healable": whole.not_healable,
                }
        return found

    results: dict[str, dict] = {}
    with ThreadPoolExecutor(workers) as ex:
        for found in tqdm(ex.map(one, projects.items()), total=len(projects), desc="projects", unit="project", leave=False):
            results.update(found)
    return results


def print_projects(results: dict[str, dict], seconds: float, show: bool) -> dict:
    """The three pass counts side by side, and what stays broken."""
    n = len(results) or 1
    naive = sum(r["naive"] for r in results.values())
    alone = sum(r["naive"] or r["entry_only"] for r in results.values())
    whole = sum(r["naive"] or r["project"] for r in results.values())
    helpers = sum(any(f != name.split("/", 1)[1] for f in r["files_changed"]) for name, r in results.items() if r["project"])
    print(f"\n== projects: {len(results)} entry scripts with helper modules ({seconds:.0f} s)")
    print(f"run as they are (naive runner):    {naive}/{len(results)} ({naive / n:.0%})")
    print(f"after healing the entry alone:     {alone}/{len(results)} ({alone / n:.0%})")
    print(f"after healing the project:         {whole}/{len(results)} ({whole / n:.0%})   ({helpers} needed a helper file healed)")
    groups: dict[str, list[str]] = defaultdict(list)
    for name, r in results.items():
        if not (r["naive"] or r["project"]):
            groups[failure_group(r["failure_after"] or "")].append(name)
    if groups:
        print("still failing after the project heal:")
        for group, names in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(names):3d}  {group}   [{', '.join(names)}]")
    if show:
        for name, r in results.items():
            if not (r["naive"] or r["project"]):
                print(f"  {name}: {r['failure_after']}" + (f"  (not healable: {r['not_healable']})" if r["not_healable"] else ""))
    return {"scripts": len(results), "naive": naive, "entry_only": alone, "project": whole, "entries": results}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when a corpus script does not fail on 4.5 (an invalid entry)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--blendnet", type=Path, default=DEFAULT_BLENDNET)
    ap.add_argument("--no-blendnet", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-rounds", type=int, default=5)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--show-unhealed", action="store_true", help="print the final failure of each unhealed script")
    ap.add_argument("--projects-only", action="store_true", help="only the multi-file projects (corpus/projects)")
    args = ap.parse_args(argv)

    results: dict = {}
    invalid: list[str] = []
    with WorkerPool(args.workers, OPTIONS) as pool:
        projects = project_entries(args.corpus / "projects")
        if projects:
            start = time.perf_counter()
            found = heal_projects(pool, projects, args.max_rounds, args.workers)
            results["projects"] = print_projects(found, time.perf_counter() - start, args.show_unhealed)
        if args.projects_only:
            pool.close()
            if args.json:
                args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
            return 0
        start = time.perf_counter()
        outcomes = heal_all(pool, load_corpus(args.corpus), args.max_rounds, args.workers, "corpus")
        invalid = sorted(n for n, o in outcomes.items() if o.status_before == "ok")
        if invalid:
            print(f"invalid corpus entries (they pass on 4.5 before healing): {', '.join(invalid)}")
        summary = summarise({n: o for n, o in outcomes.items() if n not in invalid})
        print_summary(f"heal corpus ({args.corpus.name})", summary, time.perf_counter() - start)
        results["corpus"] = summary
        if args.show_unhealed:
            for name, o in outcomes.items():
                if not o.healed and name not in invalid:
                    print(f"  {name}: {o.failure_after or o.status_after}")
        if not args.no_blendnet and args.blendnet.is_file():
            start = time.perf_counter()
            broken = failing_blendnet(pool, args.blendnet, args.workers)
            blendnet = summarise(heal_all(pool, broken, args.max_rounds, args.workers, "blendnet heal"))
            print_summary("BlendNet scripts that fail on 4.5", blendnet, time.perf_counter() - start)
            results["blendnet"] = blendnet
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main())
