"""What the redraws did in a fidelity run: the loop with them (the answer returned) against the same run cut at its first
redraw (what `BPYWRIGHT_REDRAWS=0` would have returned), both measured against the references. No model is asked.

    .venv/bin/python bench/redraws.py --out bench/results/fidelity/RUN [--mode loop] [--model qwen2.5-coder-1.5b]

Reads each row's run from the checkpoints (BPYWRIGHT_ARTIFACTS must be the run's store, as for
bench/fidelity_attempts.py). A redraw is an attempt whose note starts "redrawn:" (heal's redraw: a fresh plan sampled
after an answer that passed the checks disagreed with its verified neighbours or the archetype of its kind). Without
redraws the loop stops at the first such disagreement and returns the best attempt made before it (the loop's own
ranking, graph/loop/ranking.py), which was not accepted. Per row and in all: redraws drawn, draws accepted and whether
they are faithful (F beats both floors, as bench/fidelity.py), the returned answer with and without, and the seconds
the redraws took (the wall time of the run after the first redraw began is not recorded; the LLM seconds of the plan
calls after it are, in cost.json).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import faithful, measure_cache  # noqa: E402
from fidelity_attempts import arguments, attempt_fidelity, cost_of, runs  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.graph.loop.ranking import best_of  # noqa: E402
from bpywright.graph.review.copies import copies_of, shown_sources  # noqa: E402

REDRAWN = "redrawn:"


def redrawn(attempts: list[Any]) -> list[int]:
    """The indices of the redrawn attempts, in order."""
    return [a.index for a in attempts if (a.note or "").startswith(REDRAWN)]


def first_redraw(attempts: list[Any]) -> int | None:
    """The index of the first redrawn attempt (None: no redraw fired)."""
    return next(iter(redrawn(attempts)), None)


def without_redraws(state: Any) -> int | None:
    """The attempt the loop would have returned had it stopped at its first redraw: the best of those before it."""
    cut = first_redraw(state.attempts)
    if cut is None:
        return state.best
    before = state.attempts[:cut]
    return best_of(before, copies_of(before, shown_sources(state.version, state.exemplars)))


def redraw_llm_seconds(cost: dict[str, Any], draws: int) -> float:
    """LLM seconds of the run's last `draws` plan/generate calls (each redraw is one; an estimate where a redrawn plan
    was then repaired, whose repair calls come after it)."""
    calls = [c for c in cost.get("calls", []) if c.get("name") not in ("critique",)]
    return sum(c.get("seconds") or 0.0 for c in calls[-draws:]) if draws else 0.0


class Judge:
    """One row's attempts against its reference: # index → F, faithful (both floors), accepted in the run. A copy of
    what the prompt showed counts as F 0 and not faithful, as in bench/fidelity.py."""

    def __init__(self, cache: Any, key: str, state: Any, reference: Any, entry: dict[str, Any]):
        self.cache, self.key, self.state, self.reference, self.entry = cache, key, state, reference, entry
        self.copies = copies_of(state.attempts, shown_sources(state.version, state.exemplars))

    def __call__(self, index: int | None) -> dict[str, Any] | None:
        if index is None:
            return None
        a = self.state.attempts[index]
        accepted = bool(a.critique and a.critique.accepted)
        if index in self.copies:
            return {"index": index, "fscore": 0.0, "faithful": False, "accepted": accepted, "copy": True}
        fid = attempt_fidelity(self.cache, f"{self.key}.{index}.measure", a, self.reference)
        if fid is None:
            return {"index": index, "fscore": 0.0, "faithful": False, "accepted": accepted}
        return {"index": index, "fscore": round(fid.fscore, 3), "faithful": bool(faithful(fid, self.entry)), "accepted": accepted}


def main() -> int:
    args = arguments(__doc__)
    settings = Settings.from_env()
    cache = measure_cache(args.out, settings)
    rows: list[dict[str, Any]] = []
    try:
        for row, run, state, reference, entry in runs(args, settings, cache):
            judged = Judge(cache, f"{args.model}/{args.mode}-attempts/{row['id']}", state, reference, entry)
            draws = redrawn(state.attempts)
            rows.append(
                {
                    "name": row.get("name"),
                    "id": row["id"],
                    "draws": [judged(i) for i in draws],
                    "with": judged(state.best),
                    "without": judged(without_redraws(state)),
                    "seconds": row.get("seconds"),
                    "redraw_llm_s": redraw_llm_seconds(cost_of(run), len(draws)),
                }
            )
            print(f"{row.get('name')}: {len(draws)} redraw(s); with {rows[-1]['with']}; without {rows[-1]['without']}", flush=True)
    finally:
        cache.close()
    text = markdown(rows, args.model, args.mode)
    (args.out / f"redraws-{args.model}-{args.mode}.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


def tally(rows: list[dict[str, Any]], key: str) -> tuple[int, int, int]:
    """(faithful, accepted, accepted and faithful) of the answers returned under key ("with" / "without")."""
    got = [r[key] for r in rows if r[key] is not None]
    return (
        sum(g["faithful"] for g in got),
        sum(g["accepted"] for g in got),
        sum(g["accepted"] and g["faithful"] for g in got),
    )


def markdown(rows: list[dict[str, Any]], model: str, mode: str) -> str:
    def cell(j: dict[str, Any] | None) -> str:
        if j is None:
            return "–"
        what = "copy" if j.get("copy") else f"F {j['fscore']:.2f}{' faithful' if j['faithful'] else ''}"
        return f"#{j['index']} {what}{' **accepted**' if j['accepted'] else ''}"

    lines = [
        f"# The redraws of {model}'s {mode} rows: the answer returned with them and without (the run cut at its first redraw)",
        "",
        "| prompt | redraws (each: # F, faithful, accepted) | returned with redraws | without | LLM s of the redraws | run s |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        draws = "; ".join(cell(d) for d in r["draws"]) or "–"
        lines.append(
            f"| {r['name']} (`{r['id'][:8]}`) | {draws} | {cell(r['with'])} | {cell(r['without'])} "
            f"| {r['redraw_llm_s']:.0f} | {r['seconds'] or 0:.0f} |"
        )
    n = len(rows)
    if n:
        fw, aw, afw = tally(rows, "with")
        fo, ao, afo = tally(rows, "without")
        drawn = [d for r in rows for d in r["draws"] if d is not None]

        def precision(hit: int, of: int) -> str:
            return f"{hit / of:.2f}" if of else "–"

        lines += [
            "",
            f"- rows: {n}; redraws fired on {sum(bool(r['draws']) for r in rows)}, {len(drawn)} drawn, "
            f"{sum(d['accepted'] for d in drawn)} of them accepted ({sum(d['accepted'] and d['faithful'] for d in drawn)} faithful)",
            f"- with redraws: faithful {fw} of {n} ({fw / n:.1%}), accepted {aw} ({aw / n:.1%}), {afw} faithful among them "
            f"(precision {precision(afw, aw)})",
            f"- without (cut at the first redraw): faithful {fo} of {n} ({fo / n:.1%}), accepted {ao} ({ao / n:.1%}), "
            f"{afo} faithful among them (precision {precision(afo, ao)})",
            f"- LLM seconds of the redraws: {sum(r['redraw_llm_s'] for r in rows):.0f} in all",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
