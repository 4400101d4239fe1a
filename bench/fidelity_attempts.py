"""Every attempt of the fidelity benchmark's loop rows, measured against its reference: which verdict would have returned
a faithful answer, and when.

    .venv/bin/python bench/fidelity_attempts.py --out bench/results/fidelity/RUN [--mode loop] [--model qwen2.5-coder-1.5b]

bench/fidelity.py measures the answer a run returned. This reads each row's run from the checkpoints (every attempt's
script, objective checks and the critic's verdict: artifacts/runs/checkpoints.sqlite, thread
bench-MODEL-MODE-ID8-*), measures each attempt that ran the same way (Blender, against the same reference and floors) and
reports, per row and in all:

- the answer returned and the critic's verdict (as bench/fidelity.py);
- the first attempt that passed the objective and structural checks: what BPYWRIGHT_REVIEW=checks would have accepted
  and returned, whether it is faithful, and the LLM seconds spent up to its review (cost.json's calls before the first
  critique: an estimate of that run's time, Blender and lint left out);
- whether any attempt was faithful (what a perfect reviewer could have returned).

No model is asked: the attempts are read back, not generated again.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import compare, faithful, floor, geometry, load_rows, measure_cache  # noqa: E402
from generation import row_files  # noqa: E402

from bpywright.config import Settings  # noqa: E402


def final_state(settings: Settings, thread: str) -> Any:
    """The run's last checkpointed GenState."""
    from bpywright.graph.loop.build import build_graph, checkpoint_db, sqlite_checkpointer
    from bpywright.graph.loop.state import GenState

    with sqlite_checkpointer(checkpoint_db(settings)) as saver:
        snapshot = build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": thread}})
    return GenState.model_validate(snapshot.values) if snapshot.values else None


def threads(artifacts: Path) -> list[str]:
    """Every thread checkpointed under artifacts."""
    db = artifacts / "runs" / "checkpoints.sqlite"
    if not db.is_file():
        return []
    with sqlite3.connect(db) as con:
        return sorted(r[0] for r in con.execute("SELECT DISTINCT thread_id FROM checkpoints"))


def attempt_fidelity(cache: Any, key: str, a: Any, reference: Any) -> Any:
    """The attempt's scene against the reference (measured once under key); None for an attempt that did not run."""
    if a.script is None or a.run is None or not a.run.ok:
        return None
    return compare(geometry(cache.get(key, a.script)), reference)


def run_of(settings: Settings, row: dict[str, Any], model: str, mode: str) -> tuple[Path, Any] | None:
    """(run folder, last GenState) of the run that returned the row's answer: the row's own thread where it names it;
    for an older row, the newest of the prompt's benchmark runs whose returned script is the row's. A later run of the
    same prompt that returned the same script (same seed, another code version) is then taken for it: run this before
    the prompt is run again."""
    if row.get("thread"):
        state = final_state(settings, row["thread"])
        return (settings.runs_dir / row["thread"], state) if state is not None else None
    for run in sorted(settings.runs_dir.glob(f"bench-{model}-{mode}-{row['id'][:8]}-*"), reverse=True):
        state = final_state(settings, run.name)
        if state is not None and state.best is not None and state.attempts[state.best].script == row.get("script"):
            return run, state
    return None


def llm_seconds_to_first_review(cost: dict[str, Any], tokens: int | None) -> float | None:
    """LLM seconds spent before the first critique call (the whole run's when it has none). tokens: the row's own count:
    before the fix of cost.json a benchmark row's cost held the calls the shared client made before it (the one-shot's),
    dropped here from the front until the tokens agree."""
    calls = list(cost.get("calls", []))
    while tokens is not None and calls and sum(c.get("tokens") or 0 for c in calls) > tokens:
        calls.pop(0)
    total = 0.0
    for call in calls:
        if call.get("name") == "critique":
            return total
        total += call.get("seconds") or 0.0
    return total if calls else None


_QUOTED = re.compile(r": '(.*)'$")


def verdict_now(prompt: str, a: Any, threshold: float) -> bool:
    """The verdict today's critic code gives the same attempt and the same rubric: its objective and structural checks run
    again on the attempt's scene, the critic's reasons read against it again (graph/review/grounding.py). The rubric is the
    model's, as recorded; an older run that overruled it kept only the reasons quoted in its notes (cut at 120 chars)."""
    from bpywright.graph.review.checks import objective
    from bpywright.graph.review.grounding import overruled

    c = a.critique
    if c is None or a.run is None:
        return False
    checks, _ = objective(prompt, a)
    if not all(checks.values()) or not c.llm_scored:
        return False
    if c.score >= threshold:
        return True
    reasons = c.reasons
    if c.overruled and not c.overruled_because:  # before the notes had their own field, they replaced the reasons
        reasons = [m.group(1) for r in c.reasons if (m := _QUOTED.search(r))]
    return overruled(reasons, prompt, a.run.scene)[0]


def arguments(doc: str) -> argparse.Namespace:
    """The command line of the scripts that read a fidelity run's checkpoints (this one, bench/redraws.py)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="bench/fidelity.py's --out folder of the run")
    parser.add_argument("--mode", default="loop")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl")
    return parser.parse_args()


def runs(args: argparse.Namespace, settings: Settings, cache: Any) -> Iterator[tuple[dict[str, Any], Path, Any, Any, dict[str, Any]]]:
    """Each row of the run's MODEL/MODE folder with (row, run folder, last GenState, the reference's measured geometry,
    its floors entry); a row whose run is not checkpointed here is said on stderr and skipped."""
    references = {r["id"]: r["script"] for r in load_rows(args.data)}
    entries = {e["id"]: e for e in json.loads((args.out / "floors.json").read_text(encoding="utf-8"))}
    for path in row_files(args.out / args.model / args.mode):
        row = json.loads(path.read_text(encoding="utf-8"))
        found = run_of(settings, row, args.model, args.mode)
        if found is None:
            print(f"{row['id'][:8]}: no checkpoint of the run that returned its answer", file=sys.stderr)
            continue
        reference = geometry(cache.get(f"references/{row['id']}", references[row["id"]]))
        assert reference is not None
        yield row, *found, reference, entries[row["id"]]


def cost_of(run: Path) -> dict[str, Any]:
    """The run's cost.json ({} where it has none)."""
    return json.loads((run / "cost.json").read_text(encoding="utf-8")) if (run / "cost.json").is_file() else {}


def main() -> int:
    args = arguments(__doc__)
    settings = Settings.from_env()
    cache = measure_cache(args.out, settings)
    rows_out = []
    try:
        for row, run, state, reference, entry in runs(args, settings, cache):
            cost = cost_of(run)
            judged: list[dict[str, Any] | None] = []
            for a in state.attempts:
                fid = attempt_fidelity(cache, f"{args.model}/{args.mode}-attempts/{row['id']}.{a.index}.measure", a, reference)
                if fid is None:
                    judged.append(None)
                    continue
                judged.append(
                    {
                        "index": a.index,
                        "fscore": fid.fscore,
                        "faithful": bool(faithful(fid, entry)),
                        "objective": bool(a.critique and a.critique.objective_ok),
                        "accepted": bool(a.critique and a.critique.accepted),
                        "accepted_now": verdict_now(row["prompt"], a, settings.accept_threshold),
                    }
                )
            first_ok = next((j for j in judged if j and j["objective"]), None)
            returned = judged[state.best] if state.best is not None and state.best < len(judged) else None
            rows_out.append(
                {
                    "name": row.get("name"),
                    "id": row["id"],
                    "attempts": len(state.attempts),
                    "floor": floor(entry),
                    "returned": returned,
                    "first_ok": first_ok,
                    "any_faithful": any(j and j["faithful"] for j in judged),
                    "seconds": row.get("seconds"),
                    "first_review_llm_s": llm_seconds_to_first_review(cost, row.get("tokens")),
                }
            )
            print(f"{row.get('name')}: returned {returned}; first passing the checks {first_ok}", flush=True)
    finally:
        cache.close()
    text = markdown(rows_out, args.model, args.mode)
    (args.out / f"attempts-{args.model}-{args.mode}.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


def markdown(rows: list[dict[str, Any]], model: str, mode: str) -> str:
    def yes(j: dict[str, Any] | None, key: str) -> str:
        return "–" if j is None else ("yes" if j[key] else "no")

    lines = [
        f"# Every attempt of {model}'s {mode} rows, measured against the reference",
        "",
        "| prompt | attempts | returned: F | faithful | accepted | accepted by today's critic code | first to pass the checks: # "
        "| F | faithful | LLM s to its review | run s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ret, first = r["returned"], r["first_ok"]
        lines.append(
            f"| {r['name']} (`{r['id'][:8]}`) | {r['attempts']} | {ret['fscore'] if ret else 0:.3f} | {yes(ret, 'faithful')} | {yes(ret, 'accepted')} "
            f"| {yes(ret, 'accepted_now')} "
            f"| {first['index'] if first else '–'} | {first['fscore'] if first else 0:.3f} | {yes(first, 'faithful')} "
            f"| {r['first_review_llm_s'] or 0:.0f} | {r['seconds'] or 0:.0f} |"
        )
    n = len(rows)
    if n:
        firsts = [r["first_ok"] for r in rows if r["first_ok"]]
        checks_faithful = sum(f["faithful"] for f in firsts)
        lines += [
            "",
            f"- returned answers faithful: {sum(bool(r['returned'] and r['returned']['faithful']) for r in rows)} of {n}; "
            f"accepted: {sum(bool(r['returned'] and r['returned']['accepted']) for r in rows)} "
            f"({sum(bool(r['returned'] and r['returned']['accepted'] and r['returned']['faithful']) for r in rows)} faithful); "
            f"by today's critic code: {sum(bool(r['returned'] and r['returned'].get('accepted_now')) for r in rows)} "
            f"({sum(bool(r['returned'] and r['returned'].get('accepted_now') and r['returned']['faithful']) for r in rows)} faithful)",
            f"- review by the checks alone (the first attempt to pass them): {len(firsts)} of {n} accepted, "
            f"{checks_faithful} faithful (precision {checks_faithful / len(firsts):.2f})"
            if firsts
            else "- no attempt passed the checks",
            f"- some attempt faithful: {sum(r['any_faithful'] for r in rows)} of {n}",
            f"- median LLM seconds to the first review {statistics.median(r['first_review_llm_s'] or 0 for r in rows):.0f}, "
            f"median run seconds {statistics.median(r['seconds'] or 0 for r in rows):.0f}",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
