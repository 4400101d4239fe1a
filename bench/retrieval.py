"""Retrieval benchmark: BlendNet prompts → the bpy symbols their reference scripts use; BM25 vs dense vs hybrid.

Labelled set: query = the instruction; gold = the symbols the reference script uses that resolve against the index:
  - `bpy.ops.<ns>.<op>` attribute chains → that operator;
  - `bpy.data.<collection>.<method>` → `bpy.types.<API struct>.<method>`, the struct named in the type of
    `bpy.types.BlendData.<collection>` ("Collection of Material (BlendDataMaterials)"), else BlendData<CamelCase>;
    a bare `bpy.data.<collection>` → `bpy.types.BlendData.<collection>`;
  - `bpy.context.<member>` → `bpy.types.Context.<member>`;
  - an attribute of a variable whose type is evident from its assignment (`mat = bpy.data.materials.new(…)` → Material,
    from the `Collection of Material` type of `bpy.types.BlendData.materials`; `obj = bpy.context.object` /
    `active_object` → Object) → `bpy.types.<Struct>.<attr>` when the struct itself defines it (`mat.diffuse_color`,
    `obj.scale`; inherited `name` is left out);
  - any other attribute name → `bpy.types.<Struct>.<name>` only when exactly one struct in the index defines a member
    of that name (`location`, `new`, `append` are ambiguous and left out: a guess would make the labels noisy).
    Attributes of non-bpy modules (math, random, …) are skipped.
Queries whose script resolves to no gold symbol are dropped (counted in the report).

Metrics, per mode, averaged over queries (rankings cut at k=10):
  - recall@10 = |gold ∩ top10| / min(|gold|, 10)  (1.0 when every gold symbol that could fit is in the top 10);
  - hit@10 = 1 when any gold symbol is in the top 10;
  - MRR@10 = 1 / rank of the first gold symbol in the top 10 (0 when none);
  - diagnostic "no-bp" recall@10: the same, with boilerplate gold left out (symbols in ≥ 90% of the seed
    scripts: clearing the scene, making a material — nothing in a prompt implies them); prompts left with no gold skipped.
Latency is wall time of one search call per query (embedding the query included), p50/p95 over the set; the modes
take turns on each query so that load on the shared 2-core machine falls on all alike; the load average is printed too.

The query thesaurus and re-rank weights were tuned on ../shared/data/blendnet/seed_tasks.jsonl (135 prompts, disjoint
from the dev set: `--data` runs this benchmark on it); the dev set is only measured, never inspected for tuning.
Usage: .venv/bin/python bench/retrieval.py [--index artifacts/index/4.5] [--data FILE] [--limit N] [--json out.json]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bpywright.config import Settings  # noqa: E402
from bpywright.ingest.search import QUERY_WEIGHT, SEARCH_MODES, IndexMissing, SymbolIndex  # noqa: E402
from bpywright.ingest.usage import NEIGHBOURS, SymbolResolver  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
SEED = DATA.with_name("seed_tasks.jsonl")  # the tuning set
K = 10


def score(ranked: list[str], gold: set[str]) -> tuple[float, float, float]:
    """(recall@10, hit@10, MRR@10) of one ranking."""
    top = ranked[:K]
    found = [n for n, name in enumerate(top, 1) if name in gold]
    recall = len(set(top) & gold) / min(len(gold), K)
    return recall, float(bool(found)), 1.0 / found[0] if found else 0.0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def boilerplate(path: Path, resolver: SymbolResolver) -> set[str]:
    """Symbols in ≥ 90% of the seed tasks' scripts (clearing the scene, making a material): no prompt implies them.

    Taken from the tuning set, not from the set measured, for the diagnostic recall column only; rankings never see it.
    """
    if not path.is_file():
        return set()
    golds = [resolver.symbols_used(json.loads(line)["script"]) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    counts = Counter(name for gold in golds for name in gold)
    return {name for name, n in counts.items() if n >= 0.9 * len(golds)}


def measure(
    modes: dict[str, Callable[[str, int], list]], labelled: list[tuple[str, set[str]]], common: set[str]
) -> dict[str, dict[str, float]]:
    """Per mode: mean recall@10, hit@10, MRR@10 (and recall without boilerplate) and latency percentiles.

    The modes take turns on each query (in a rotating order), so load on the shared machine falls on all of them alike.
    """
    names = list(modes)
    for search in modes.values():
        search("warm-up query", K)
    totals = {m: [0.0, 0.0, 0.0] for m in names}
    rest: dict[str, list[float]] = {m: [] for m in names}
    times: dict[str, list[float]] = {m: [] for m in names}
    for n, (query, gold) in enumerate(labelled):
        for mode in names[n % len(names) :] + names[: n % len(names)]:
            t0 = time.perf_counter()
            ranked = [h.symbol.name for h in modes[mode](query, K)]
            times[mode].append((time.perf_counter() - t0) * 1000)
            totals[mode] = [t + v for t, v in zip(totals[mode], score(ranked, gold))]
            if gold - common:
                rest[mode].append(score(ranked, gold - common)[0])
    count = len(labelled)
    return {
        m: {
            "recall@10": totals[m][0] / count,
            "hit@10": totals[m][1] / count,
            "mrr@10": totals[m][2] / count,
            "recall@10_no_boilerplate": statistics.mean(rest[m]),
            "p50_ms": percentile(times[m], 50),
            "p95_ms": percentile(times[m], 95),
        }
        for m in names
    }


def encode_p50(index: SymbolIndex, queries: list[str]) -> float | None:
    """Median time to embed one query: the share of the hybrid latency the model takes."""
    if index.embedder is None:
        return None
    times = []
    for query in queries:
        t0 = time.perf_counter()
        index.embedder.embed([query])
        times.append((time.perf_counter() - t0) * 1000)
    return percentile(times, 50)


def main() -> int:
    """Label, retrieve with each mode, print the table (and optionally JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, default=ROOT / "artifacts" / "index" / "4.5", help="version dir built by `bpywright ingest`")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=0, help="first N prompts only (0: all)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if not args.data.is_file():
        print(f"error: {args.data} not found (the shared BlendNet data lives in ../shared/data)", file=sys.stderr)
        return 1
    started = time.perf_counter()
    try:
        index = SymbolIndex.load(args.index, settings=Settings.from_env())
    except IndexMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    load_s = time.perf_counter() - started
    resolver = index.resolver
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = rows[: args.limit] if args.limit else rows
    labelled = [(row["instruction"], gold) for row in rows if (gold := resolver.symbols_used(row["script"]))]
    common = boilerplate(SEED, resolver)
    # The usage prior learns from verified scripts: the recipes (SymbolIndex.load) and, here, the seed tasks, the
    # tuning set, which shares no prompt with the dev set. Measuring on the seed set itself would leak, so it is not taught then.
    taught = 0
    if args.data.resolve() != SEED.resolve() and SEED.is_file():
        seed_rows = [json.loads(line) for line in SEED.read_text(encoding="utf-8").splitlines() if line.strip()]
        taught = index.add_usage((row["instruction"], row["script"]) for row in seed_rows)
    modes = {mode: functools.partial(index.search, mode=mode) for mode in SEARCH_MODES}
    if index.dense is None:
        del modes["dense"]
    figures = measure(modes, labelled, common)
    encode = encode_p50(index, [q for q, _ in labelled])
    manifest = json.loads((args.index / "search.json").read_text(encoding="utf-8"))
    gold_sizes = [len(g) for _, g in labelled]
    print(
        f"index {args.index}: {manifest['symbols']} symbols, {manifest['dense']} vectors ({manifest['embedder'] or 'BM25-only'}), "
        f"{manifest['bytes'] / 1e6:.1f} MB on disk, built in {manifest['seconds']:.0f} s; loaded in {load_s:.1f} s; {index.dense_status}"
    )
    print(
        f"labelled set: {len(labelled)} of {len(rows)} prompts with gold; gold symbols per prompt: mean {statistics.mean(gold_sizes):.1f}, "
        f"median {statistics.median(gold_sizes)}"
    )
    print(f"boilerplate (in ≥ 90% of the seed scripts; excluded from 'no-bp' recall only): {', '.join(sorted(common)) or '-'}")
    print(
        f"load average while measuring: {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} CPUs"
        + (f"; embedding one query: p50 {encode:.1f} ms" if encode is not None else "")
    )
    print(
        f"usage prior: {len(index.usage)} verified scripts (13 recipes + {taught} seed tasks); score = share of the {NEIGHBOURS} "
        f"nearest prompts' scripts using a symbol + {QUERY_WEIGHT} / (1 + hybrid rank / 3)"
    )
    print(f"{'mode':<13}{'recall@10':>11}{'hit@10':>9}{'MRR@10':>9}{'no-bp rec':>11}{'p50 ms':>9}{'p95 ms':>9}")
    for mode, f in figures.items():
        print(
            f"{mode:<13}{f['recall@10']:>11.3f}{f['hit@10']:>9.3f}{f['mrr@10']:>9.3f}{f['recall@10_no_boilerplate']:>11.3f}"
            f"{f['p50_ms']:>9.1f}{f['p95_ms']:>9.1f}"
        )
    singles = [m for m in figures if m not in ("hybrid", "hybrid+usage")]
    hybrid = figures["hybrid"]
    for mode in singles:
        ratio = {key: hybrid[key] / max(figures[mode][key], 1e-9) for key in ("recall@10", "hit@10", "mrr@10", "p50_ms")}
        print(f"hybrid / {mode}: " + ", ".join(f"{key} ×{value:.2f}" for key, value in ratio.items()))
    full = figures["hybrid+usage"]
    for mode in ("bm25", "hybrid"):
        ratio = {key: full[key] / max(figures[mode][key], 1e-9) for key in ("recall@10", "hit@10", "mrr@10", "p50_ms")}
        print(f"hybrid+usage / {mode}: " + ", ".join(f"{key} ×{value:.2f}" for key, value in ratio.items()))
    targets = {
        "hybrid beats both alone (recall@10)": all(hybrid["recall@10"] > figures[m]["recall@10"] for m in singles),
        "recall@10 >= 0.85 (search = hybrid+usage)": full["recall@10"] >= 0.85,
        "hit@10 >= 0.85": full["hit@10"] >= 0.85,
        "p50 <= 20 ms": full["p50_ms"] <= 20,
    }
    print("targets: " + "; ".join(f"{name}: {'yes' if ok else 'NO'}" for name, ok in targets.items()))
    if args.json:
        record = {
            "figures": figures,
            "encode_p50_ms": encode,
            "labelled": len(labelled),
            "prompts": len(rows),
            "index": manifest,
            "boilerplate": sorted(common),
            "load_average": os.getloadavg()[0],
            "targets": targets,
        }
        args.json.write_text(json.dumps(record, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
