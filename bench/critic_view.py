"""What the critic reads of a plan-built answer: the whole script, or its PARTS table with the fixed builder named
(graph/plans/plan.py plan_view). Same model, same answers, asked both ways in one run, order alternating.

    .venv/bin/python bench/critic_view.py --rows bench/results/fidelity/qwen2.5-coder-1.5b [--modes loop] [--limit N]
                                          [--base-url URL --model NAME | --local NAME] [--json out.json]

For every row whose answer is a plan-built script that ran: the script is run again (render 128 px) for the objective
checks and the scene summary the critic sees, then the critic model is asked twice: once shown the whole script (the
review before plan_view), once shown the view (today's). Reported per form: prompt characters, seconds to the first
token (prompt processing, on a CPU the bulk of a review), seconds in all, the score, and the verdict after the scene's
check of the reasons (graph/review/grounding.py); and how often the two verdicts agree. Wall clock on whatever else runs: the
ratio is the figure, read with the load printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import measuring_options  # noqa: E402
from generation import endpoint, row_files  # noqa: E402

from bpywright.config import Settings  # noqa: E402


def review(
    llm: Any, prompt: str, script: str, report: Any, checks: dict[str, bool], reasons: list[str], threshold: float
) -> dict[str, Any]:
    """One critic call on `script` (whole or viewed): its cost and verdict."""
    from bpywright.graph.loop.nodes.critic import RUBRIC_SCHEMA, Rubric, salvage
    from bpywright.graph.model.prompting import critic_messages
    from bpywright.graph.review.grounding import overruled

    render = f"{report.render.width}x{report.render.height}, {report.render.nonblank_fraction:.0%} non-blank" if report.render else ""
    messages = critic_messages(prompt, script, checks, reasons, report.scene, render, threshold)
    start = time.monotonic()
    text = llm.structured(messages, "critique", RUBRIC_SCHEMA)
    seconds = time.monotonic() - start
    stats = llm.stats[-1]
    rubric: Rubric | None
    try:
        rubric = Rubric.model_validate(json.loads(text, strict=False))
    except (ValueError, TypeError):
        rubric = salvage(text)
    score = rubric.score if rubric is not None else None
    accepted = bool(rubric is not None and rubric.score >= threshold)
    over = False
    if rubric is not None and not accepted:
        over, _ = overruled(rubric.reasons, prompt, report.scene)
    return {
        "prompt_chars": stats.prompt_chars,
        "reused_chars": stats.reused_chars,
        "first_token_s": stats.first_token_s,
        "seconds": seconds,
        "tokens": stats.tokens,
        "score": score,
        "accepted": accepted or over,
        "overruled": over,
        "reasons": rubric.reasons if rubric is not None else [text[:200]],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path, required=True, help="a model's folder of fidelity rows (MODE/ID.json)")
    parser.add_argument("--modes", default="loop")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--base-url")
    parser.add_argument("--model")
    parser.add_argument("--local")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    from bpywright.graph.loop.state import Attempt
    from bpywright.graph.model.llm import LLMClient
    from bpywright.graph.plans.plan import plan_view
    from bpywright.graph.review.checks import objective
    from bpywright.harness.pool import WorkerPool
    from bpywright.models.local import local_llm

    rows = []
    for mode in (m.strip() for m in args.modes.split(",") if m.strip()):
        for path in row_files(args.rows / mode):
            row = json.loads(path.read_text(encoding="utf-8"))
            if row.get("ran") and plan_view(row.get("script")) is not None:
                rows.append(row)
    rows = rows[: args.limit] if args.limit else rows
    if not rows:
        print("no plan-built answer that ran in these rows", file=sys.stderr)
        return 1
    base = endpoint(Settings.from_env(), args.base_url, args.model, args.local)
    results = []
    with local_llm(base) as (settings, note):
        if not settings.llm_base_url:
            print(f"error: no model ({note})", file=sys.stderr)
            return 1
        llm = LLMClient.from_settings(settings)
        assert llm is not None
        with WorkerPool(1, measuring_options(settings)) as pool:
            for i, row in enumerate(rows):
                report = pool.run(source=row["script"])
                attempt = Attempt(index=0, origin="generate", script=row["script"], run=report)
                checks, reasons = objective(row["prompt"], attempt)
                if not all(checks.values()):
                    print(f"[{i + 1}/{len(rows)}] skip {row['id'][:8]}: fails objective checks {[k for k, v in checks.items() if not v]}")
                    continue
                forms = {"whole script": row["script"], "parts table (plan_view)": plan_view(row["script"]) or ""}
                order = list(forms) if i % 2 == 0 else list(reversed(forms))
                out: dict[str, Any] = {"id": row["id"], "name": row.get("name"), "prompt": row["prompt"]}
                for form in order:
                    out[form] = review(llm, row["prompt"], forms[form], report, checks, reasons, settings.accept_threshold)
                results.append(out)
                print(
                    f"[{i + 1}/{len(rows)}] {row.get('name')}: "
                    + "; ".join(
                        f"{f}: {out[f]['seconds']:.0f}s score {out[f]['score']} {'acc' if out[f]['accepted'] else 'rej'}" for f in forms
                    ),
                    flush=True,
                )
    text = markdown(results, llm.model)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


def markdown(results: list[dict[str, Any]], model: str) -> str:
    forms = ("whole script", "parts table (plan_view)")
    load = os.getloadavg()[0]
    lines = [
        f"# The critic's view of a plan-built answer: {model}, {len(results)} answers, load average {load:.1f} at the end",
        "",
        "| shown | prompt chars (median) | first token s (median) | seconds (median) | accepted | overruled |",
        "|---|---|---|---|---|---|",
    ]
    for f in forms:
        rs = [r[f] for r in results]
        if not rs:
            continue
        first = [x["first_token_s"] for x in rs if x["first_token_s"] is not None]
        lines.append(
            f"| {f} | {statistics.median(x['prompt_chars'] for x in rs):.0f} | {statistics.median(first) if first else float('nan'):.1f} | "
            f"{statistics.median(x['seconds'] for x in rs):.1f} | {sum(x['accepted'] for x in rs)} | {sum(x['overruled'] for x in rs)} |"
        )
    if results:
        agree = sum(r[forms[0]]["accepted"] == r[forms[1]]["accepted"] for r in results)
        ratio = statistics.median(r[forms[1]]["seconds"] / r[forms[0]]["seconds"] for r in results if r[forms[0]]["seconds"] > 0)
        lines += ["", f"Verdicts agree on {agree} of {len(results)}; median per-answer time ratio (view / whole) {ratio:.2f}."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
