"""What a plan revised after a run that went through bought: each attempt of every plan-built run of the fidelity sample's
prompts, read back from the checkpoints and measured against the prompt's reference.

    .venv/bin/python bench/replan_rounds.py [--artifacts DIR ...] [--out FILE]

A run of the plan strategy whose first attempt ran gets a round for its critic's findings (a revised plan) unless
BPYWRIGHT_MAX_CRITIC_ROUNDS (or the local model's catalogue entry) says 0. This reads every such run kept in the given
artifacts folders (their runs/checkpoints.sqlite: the benchmark's loop runs, bench/cpu_time.py's requests), measures
each attempt in Blender the same way as bench/fidelity.py, and reports the first attempt's F-score beside the returned
one's and the best of the round's: whether the round made, or returned, a faithful answer the first attempt was not.
No model is asked.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import DATA, faithful, geometry, load_rows, measure_cache  # noqa: E402
from fidelity_attempts import attempt_fidelity, final_state, threads  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.graph.plans.plan import plan_of_script  # noqa: E402

FLOORS = ROOT / "bench" / "results" / "fidelity" / "floors.json"


def scored(fid: Any, entry: dict[str, Any]) -> tuple[float, bool] | None:
    """(F-score, faithful) of an attempt that ran (attempt_fidelity), else None."""
    return None if fid is None else (round(fid.fscore, 3), faithful(fid, entry))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--artifacts", type=Path, nargs="+", default=[Path("artifacts")])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "cpu_time" / "replan-rounds.md")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/bpywright-replan-rounds"), help="measurements, kept")
    args = parser.parse_args()

    entries = {e["id"]: e for e in json.loads(FLOORS.read_text(encoding="utf-8"))}
    by_prompt = {r["instruction"]: r for r in load_rows(DATA) if r["id"] in entries}
    cache = measure_cache(args.cache, Settings.from_env())
    lines: list[str] = []
    counts = {"runs": 0, "within": 0, "made": 0, "returned": 0, "worse": 0}
    try:
        for artifacts in args.artifacts:
            settings = dataclasses.replace(Settings.from_env(), artifacts=artifacts)
            for thread in threads(artifacts):
                state = final_state(settings, thread)
                row = by_prompt.get(state.prompt) if state is not None else None
                if state is None or row is None or len(state.attempts) < 2:
                    continue
                first, later = state.attempts[0], state.attempts[1:]
                if first.run is None or not first.run.ok or plan_of_script(first.script or "") is None:
                    continue
                entry = entries[row["id"]]
                ref = geometry(cache.get(f"references/{row['id']}", row["script"]))
                scores = {
                    a.index: scored(attempt_fidelity(cache, f"{row['id']}/{artifacts.name}-{thread}-{a.index}", a, ref), entry)
                    for a in state.attempts
                }
                f0 = scores[0]
                if f0 is None:
                    continue
                returned = scores.get(state.best) if state.best is not None else None
                best_later = max((s for a in later if (s := scores[a.index]) is not None), default=None)
                counts["runs"] += 1
                counts["within"] += returned is not None and abs(returned[0] - f0[0]) <= 0.02
                counts["made"] += best_later is not None and best_later[1] and not f0[1]
                counts["returned"] += returned is not None and returned[1] and not f0[1]
                counts["worse"] += returned is not None and returned[0] < f0[0] - 0.02

                def show(s: tuple[float, bool] | None) -> str:
                    return "–" if s is None else f"{s[0]:.3f}{' (faithful)' if s[1] else ''}"

                lines.append(
                    f"| {row['name']} (`{row['id'][:8]}`) | {artifacts.name}/{thread} | {len(state.attempts)} | {show(f0)} | "
                    f"{show(best_later)} | #{state.best} {show(returned)} |"
                )
    finally:
        cache.close()
    text = "\n".join(
        [
            "# Plans revised after a run that went through: what the round bought",
            "",
            "Each plan-built run of the fidelity sample's prompts whose first attempt ran and that took a further round "
            "(bench/replan_rounds.py). F-score against the prompt's reference; faithful: above both floors.",
            "",
            "| prompt | run | attempts | first attempt F | best later attempt F | returned F |",
            "|---|---|---|---|---|---|",
            *lines,
            "",
            f"- runs: {counts['runs']}; returned F within 0.02 of the first attempt's: {counts['within']}; "
            f"returned worse by more than 0.02: {counts['worse']}",
            f"- a later attempt faithful where the first was not: {counts['made']}; returned: {counts['returned']}",
            "",
        ]
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
