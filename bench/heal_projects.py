"""Heal benchmark on real old projects: public 2.7x-2.9x script projects (entry scripts beside a helper package), pinned by
commit in bench/corpora/heal_projects.json, healed as projects on Blender 4.5 beside three baselines.

    .venv/bin/python bench/corpus.py fill bench/corpora/heal_projects.json --mirrors /work/.mirror
    .venv/bin/python bench/heal_projects.py [--manifest bench/corpora/heal_generators.json] [--workers 2] [--max-rounds 5]
                                            [--timeout 60] [--project-only] [--json out.json] [--show-unhealed]

Per entry script:
- naive: the script run as it is (its project beside it);
- entry only: healed as a single file, the helpers left as they are;
- first rule: a project heal that applies, each round, only the first rule that explains the failure at its statement
  (no sure fixes elsewhere, no other files): what one matching rule per failure does;
- project: `bpywright heal` (every rule, every file in play).

--project-only measures the naive runner and the project heal alone (a third of the runs); --timeout gives each run
more seconds where the machine is loaded or the generators are slow (the default is the heal bench's 60 s). As in
`bpywright heal`, a fix after which a script runs past the limit instead of failing is run once more with 4 times as
long (at most 600 s) and kept when it still runs past; such a script counts as not run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.corpus import DEFAULT_CACHE, cache_path  # noqa: E402
from bench.heal import OPTIONS, failure_group  # noqa: E402
from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402
from bpywright.harness.report import RunReport  # noqa: E402
from bpywright.rules.healer import HealResult, Slow, fix_file, heal, longer_limit  # noqa: E402
from bpywright.rules.pack import rules_for  # noqa: E402
from bpywright.rules.project import heal_project, read_source, staged  # noqa: E402

MANIFEST = ROOT / "bench" / "corpora" / "heal_projects.json"


def materialise(manifest: dict, cache: Path, into: Path) -> list[tuple[Path, list[str], str]]:
    """Each project written under `into` from the cache (sha256 checked): (root, entries, label)."""
    import hashlib

    out = []
    for project in manifest["projects"]:
        label = f"{project['repo'].split('/')[-1]}@{project['commit'][:7]}"
        base = into / label
        for entry in manifest["scripts"]:
            if entry["repo"] != project["repo"] or entry["commit"] != project["commit"]:
                continue
            data = cache_path(cache, entry).read_bytes()
            if hashlib.sha256(data).hexdigest() != entry["sha256"]:
                raise SystemExit(f"{entry['path']} at {entry['commit'][:7]} changed in the cache: fill it again")
            (base / entry["path"]).parent.mkdir(parents=True, exist_ok=True)
            (base / entry["path"]).write_bytes(data)
        out.append((base / project["root"], project["entries"], label))
    return out


def first_rule_only(
    script: str,
    error: str,
    line: int | None,
    lint: None = None,
    target: str = "4.5",
    exclude: frozenset[str] = frozenset(),
    module_names: tuple[str, ...] = (),
    name: str = "script.py",
    only: frozenset[str] | None = None,
) -> HealResult:
    """The naive healer: only the first rule (not yet set aside) that explains the failure, only at its statement."""
    if not error or only is not None:
        return HealResult(script=script)
    first = next((r.id for r in rules_for(target) if r.id not in exclude and r.explains_error(error)), None)
    if first is None:
        return HealResult(script=script)
    others = frozenset(r.id for r in rules_for(target) if r.id != first)
    return fix_file(script, error, line, None, target, others, module_names, name)


def one_project(
    pool: WorkerPool, root: Path, entries: list[str], label: str, max_rounds: int, timeout: float, project_only: bool = False
) -> dict[str, dict]:
    found: dict[str, dict] = {}
    with staged(root.resolve()) as stage:
        options = OPTIONS.model_copy(update={"root": stage.root, "timeout": timeout})
        longer = longer_limit(timeout)
        longer_options = options.model_copy(update={"timeout": longer or timeout})

        def run_entry(entry: str, texts: dict[str, str], source: str | None = None, these: RunOptions = options) -> RunReport:
            stage.set(texts)
            path = stage.root / entry
            return pool.run(source=source if source is not None else read_source(path), options=these, as_file=path)

        for entry in entries:
            slow = Slow(timeout, longer, lambda t, e=entry: run_entry(e, t, these=longer_options))
            whole = heal_project(root, entry, run=lambda t, e=entry: run_entry(e, t), seen_as=stage.root, max_rounds=max_rounds, slow=slow)
            alone = naive_heal = None
            if not project_only:
                original = read_source(root / entry)
                alone = heal(original, max_rounds=max_rounds, run=lambda s, e=entry: run_entry(e, {}, s))
                naive_heal = heal_project(
                    root, entry, run=lambda t, e=entry: run_entry(e, t), seen_as=stage.root, max_rounds=max_rounds, fixer=first_rule_only
                )
            found[f"{label}/{entry}"] = {
                "naive": whole.status_before == "ok",
                "entry_only": alone.healed if alone is not None else None,
                "first_rule": naive_heal.healed if naive_heal is not None else None,
                "project": whole.healed,
                "rounds": len(whole.rounds),
                "files_changed": [f.path for f in whole.files],
                "rules": sorted({a.rule for r in whole.rounds if not r.reverted for a in r.applied}),
                "failure_before": whole.failure_before,
                "failure_after": whole.failure_after,
                "ran_past": whole.ran_past,
                "stopped": whole.stopped,
            }
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-rounds", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=OPTIONS.timeout, help="seconds each run may take")
    ap.add_argument("--project-only", action="store_true", help="measure the naive runner and the project heal only")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--show-unhealed", action="store_true")
    args = ap.parse_args(argv)
    manifest = json.loads(args.manifest.read_text(encoding="utf-8"))
    start = time.perf_counter()
    results: dict[str, dict] = {}
    options = OPTIONS.model_copy(update={"timeout": args.timeout})
    with tempfile.TemporaryDirectory(prefix="heal-projects-") as tmp, WorkerPool(args.workers, options) as pool:
        projects = materialise(manifest, args.cache, Path(tmp))
        # one project at a time per worker; the entries of a big project share the pool with the others
        jobs = [(root, [entry], label) for root, entries, label in projects for entry in entries]
        with ThreadPoolExecutor(args.workers) as ex:
            for found in ex.map(lambda p: one_project(pool, *p, args.max_rounds, args.timeout, args.project_only), jobs):
                results.update(found)
    n = len(results) or 1
    kinds = ("project",) if args.project_only else ("entry_only", "first_rule", "project")
    counts = {k: sum(bool(r["naive"] or r[k]) for r in results.values()) for k in kinds}
    naive = sum(r["naive"] for r in results.values())
    print(
        f"== {len(projects)} project snapshots, {len(results)} entry scripts ({time.perf_counter() - start:.0f} s, Blender 4.5, "
        f"bpy module, {args.timeout:.0f} s per run)"
    )
    print(f"run as they are (naive runner):             {naive}/{len(results)} ({naive / n:.0%})")
    if not args.project_only:
        print(f"healed as a single file (helpers untouched): {counts['entry_only']}/{len(results)} ({counts['entry_only'] / n:.0%})")
        print(f"project heal, first matching rule only:     {counts['first_rule']}/{len(results)} ({counts['first_rule'] / n:.0%})")
    print(f"project heal (bpywright heal):              {counts['project']}/{len(results)} ({counts['project'] / n:.0%})")
    slow = sum(1 for r in results.values() if not (r["naive"] or r["project"]) and r.get("ran_past"))
    if slow:
        print(f"  of those left, ran past the time limit with no error after the heal (fixes kept): {slow}")
    for name, r in sorted(results.items()):
        if not (r["naive"] or r["project"]):
            past = f"ran past {r['ran_past']:g} s after the heal, no error" if r.get("ran_past") else ""
            print(
                f"  still failing: {name}: {past or failure_group(r['failure_after'] or '')}"
                + (f"  [stopped: {r['stopped']}]" if args.show_unhealed else "")
            )
    if args.json:
        args.json.write_text(json.dumps({"counts": counts, "naive": naive, "entries": results}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
