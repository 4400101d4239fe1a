"""Acceptance against the reference: would each reviewer's verdict have accepted faithful answers only?

    .venv/bin/python bench/acceptance.py ARTIFACTS [ARTIFACTS ...] [--floors bench/results/fidelity/floors.json]
                                         [--store] [--out FILE.md]

Every run kept in the given artifacts folders' checkpoints (runs/checkpoints.sqlite of a benchmark, a cpu_time version
or a user's `bpywright generate`) whose request is one of the fidelity sample's BlendNet dev prompts is read back; each of
its attempts that ran and passed the objective and structural checks is measured against the prompt's reference as
bench/fidelity.py measures answers (faithful: F beats both floors). An attempt kept by several runs (the same seed, the
same script) counts once. No model is asked: the verdicts are the ones recorded, and the rules below are computed.

Reviewers compared, each as precision (accepted and faithful / accepted) and accepted rate:
- the critic model's recorded score at each threshold (the loop accepts at settings.accept_threshold, 0.75);
- the objective and structural checks alone (BPYWRIGHT_REVIEW=checks);
- with --store (the configured exemplar store, e.g. the BlendNet dev pairs imported; seen leave-one-out), agreement with
  verified neighbours: the answer's F against each of its k nearest exemplars of the same kind (scene_plan.kind_words)
  beats that exemplar's own cube floor by a margin.

The attempts cluster: a prompt run several times (benchmark reruns, the timing runs' two versions) contributes several,
often near-identical, attempts. The table gives the number of distinct prompts beside each count.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import UNIT_CUBE, LeaveOneOut, compare, faithful, geometry, load_rows, measure_cache  # noqa: E402
from fidelity_attempts import final_state, threads  # noqa: E402

from bpywright.config import Settings  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"
THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8)
MARGINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5)
RULES = ((1, 1), (2, 1), (2, 2), (3, 2), (3, 3))  # (k nearest same-kind exemplars, how many of them the answer must agree with)
PICKED = (2, 2, 0.2)  # the loop's rule (graph/review/agreement.py), picked on the first 17 prompts' runs


def digest(script: str) -> str:
    return hashlib.sha256(script.encode("utf-8")).hexdigest()[:16]


def states(artifacts: Path) -> list[Any]:
    """The last checkpointed GenState of every run kept under one artifacts folder."""
    settings = dataclasses.replace(Settings.from_env(), artifacts=artifacts)
    return [state for thread in threads(artifacts) if (state := final_state(settings, thread)) is not None]


def attempts(folders: list[Path], rows: dict[str, dict[str, Any]], entries: dict[str, dict[str, Any]], cache: Any) -> list[dict[str, Any]]:
    """Each distinct (prompt, script) attempt that passed the objective checks, measured against its reference."""
    by_prompt = {r["instruction"].strip(): r for r in rows.values() if r["id"] in entries}
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for folder in folders:
        for state in states(folder):
            row = by_prompt.get(state.prompt.strip())
            if row is None:
                continue
            reference = geometry(cache.get(f"references/{row['id']}", row["script"]))
            assert reference is not None  # the sample keeps only references that ran and built a surface
            for a in state.attempts:
                c = a.critique
                if c is None or not c.objective_ok or a.script is None or (row["id"], a.script) in seen:
                    continue
                answer = geometry(cache.get(f"attempts/{row['id']}.{digest(a.script)}.measure", a.script))
                fid = compare(answer, reference)
                seen[(row["id"], a.script)] = {
                    "id": row["id"],
                    "geometry": answer,
                    "faithful": bool(faithful(fid, entries[row["id"]])),
                    "llm_scored": c.llm_scored,
                    "score": c.score if c.llm_scored else None,
                }
    return list(seen.values())


def neighbours(found: list[dict[str, Any]], rows: dict[str, dict[str, Any]], store: Any, cache: Any, k: int = 3) -> None:
    """Per attempt: (F against the neighbour, the neighbour's cube floor) for its k nearest verified exemplars of the same
    kind, leave-one-out: the neighbours the loop's review picks (agreement.neighbours_of)."""
    from bpywright.graph.review.agreement import neighbours_of

    cube = geometry(cache.get("cube", UNIT_CUBE))
    for item in found:
        row = rows[item["id"]]
        pairs = []
        for n in neighbours_of(LeaveOneOut(store, row["instruction"], row["script"]), row["instruction"], "4.5", k):
            g = geometry(cache.get(f"neighbours/{n.id}.measure", n.script))
            if g is not None and item["geometry"] is not None:
                pairs.append((compare(item["geometry"], g).fscore, compare(cube, g).fscore))
        item["neighbours"] = pairs


def line(label: str, accepted: list[dict[str, Any]], n: int) -> str:
    good = sum(a["faithful"] for a in accepted)
    precision = f"{good / len(accepted):.2f}" if accepted else "–"
    prompts = len({a["id"] for a in accepted})
    return f"| {label} | {len(accepted)} of {n} ({len(accepted) / n:.0%}) | {prompts} | {good} | {precision} |"


def markdown(found: list[dict[str, Any]], folders: list[Path], store: bool) -> str:
    n = len(found)
    scored = [a for a in found if a["llm_scored"]]
    lines = [
        "# Acceptance against the reference (bench/acceptance.py)",
        "",
        f"{n} distinct attempts that passed the objective and structural checks, from {len({a['id'] for a in found})} prompts, "
        f"read from the runs of {len(folders)} artifacts folder(s); {sum(a['faithful'] for a in found)} faithful "
        f"({sum(a['faithful'] for a in found) / max(n, 1):.0%}, the precision of accepting them all).",
        "",
        "Scores the critic model gave (attempts it scored): "
        + ", ".join(
            f"{s:.2f}: {c} ({sum(a['faithful'] for a in scored if a['score'] == s)} faithful)"
            for s, c in sorted(Counter(a["score"] for a in scored).items())
        ),
        "",
        "| reviewer | accepted | prompts | faithful among them | precision |",
        "|---|---|---|---|---|",
        line("the objective and structural checks alone", found, n),
    ]
    for t in THRESHOLDS:
        lines.append(line(f"the critic model's score ≥ {t}", [a for a in scored if a["score"] >= t], n))
    if store:
        best: tuple[int, str] | None = None
        for k, need in RULES:
            for margin in MARGINS:
                accepted = agreeing(found, k, need, margin)
                label = f"agrees with {need} of its {k} nearest same-kind exemplar(s), margin {margin}"
                label += " (the loop's rule)" if (k, need, margin) == PICKED else ""
                lines.append(line(label, accepted, n))
                good = sum(a["faithful"] for a in accepted)
                if accepted and good >= 0.8 * len(accepted) and (best is None or len(accepted) > best[0]):
                    best = (len(accepted), label)
        lines += ["", f"Most accepted at precision ≥ 0.8 on these attempts: {best[1] if best else 'none'}."]
    return "\n".join(lines) + "\n"


def agreeing(found: list[dict[str, Any]], k: int, need: int, margin: float) -> list[dict[str, Any]]:
    """The attempts that beat the cube's F by margin against at least `need` of their k nearest same-kind exemplars."""
    return [a for a in found if len(a["neighbours"]) >= k and sum(f > fc + margin for f, fc in a["neighbours"][:k]) >= need]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("artifacts", nargs="+", type=Path, help="artifacts folders whose runs/checkpoints.sqlite to read")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--floors", type=Path, default=ROOT / "bench" / "results" / "fidelity" / "floors.json")
    parser.add_argument(
        "--cache",
        type=Path,
        default=ROOT / "bench" / "results" / "fidelity",
        help="measurements cached here (bench/fidelity.py's --out: its references)",
    )
    parser.add_argument("--store", action="store_true", help="also rate agreement with the configured store's neighbours")
    parser.add_argument("--out", type=Path, help="write the table here too")
    args = parser.parse_args()

    settings = Settings.from_env()
    rows = {r["id"]: r for r in load_rows(args.data)}
    entries = {e["id"]: e for e in json.loads(args.floors.read_text(encoding="utf-8"))}
    cache = measure_cache(args.cache, settings)
    try:
        found = attempts(args.artifacts, rows, entries, cache)
        if not found:
            print("no attempt of a sample prompt passed the objective checks in these runs", file=sys.stderr)
            return 1
        if args.store:
            from bpywright.exemplars.store import ExemplarStore

            store = ExemplarStore.open(settings)
            try:
                neighbours(found, rows, store, cache)
            finally:
                store.close()
    finally:
        cache.close()
    text = markdown(found, args.artifacts, args.store)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
