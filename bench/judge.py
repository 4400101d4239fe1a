"""Checklist judge over the generation benchmark's CADBench rows: every criterion of a prompt scored 0/1 by a judge model,
reported as CADBench does (Attr / Spat / Inst / Avg) beside its published figures.

    .venv/bin/python bench/judge.py --rows bench/results/generation/qwen2.5-coder-1.5b [--modes one-shot,loop]
                                    [--judge-url URL --judge-model NAME | --judge-local NAME] [--images]

The judge is any OpenAI-compatible endpoint (--judge-url, --judge-model). Without --judge-url the local model is served
and used as its own judge: allowed, and labelled WEAK in the table (a 1.5B coder model grading itself is a smoke test,
not a measurement). A text judge reads the script and the scene summary (the script is run again, without a render, to
get it); --images also renders four fixed views (front, side, top, iso: bpywright/fidelity/views.py) in that run and sends
them.
An answer that did not run or is a copy (graph/review/copies.py) scores 0 on every criterion without asking the judge.
Verdicts are cached beside the rows (MODE/ID.judge-JUDGE.json); the table goes to ROWS/../judge-MODEL-JUDGE.md.
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

from generation import DATA, honest, row_files  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.fidelity.judge import PUBLISHED, SECTIONS, Verdict, criteria_of, judge, table  # noqa: E402


def main() -> int:
    """Judge the cached rows of each mode and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path, required=True, help="a model's folder of generation rows (MODE/ID.json)")
    parser.add_argument("--modes", default="one-shot,retrieval,loop")
    parser.add_argument("--data", type=Path, default=DATA, help="CADBench.jsonl (the criteria)")
    parser.add_argument("--judge-url", help="an OpenAI-compatible /v1 for the judge (default: serve the local model: WEAK)")
    parser.add_argument("--judge-model", help="the judge model at --judge-url (default: the first it serves)")
    parser.add_argument("--judge-local", help="the local model to serve as judge (default: BPYWRIGHT_LOCAL_MODEL or the best installed)")
    parser.add_argument("--images", action="store_true", help="render four views of each answer for an image-capable judge")
    parser.add_argument("--limit", type=int, help="only the first N rows of each mode")
    args = parser.parse_args()
    rows_by_id = {r["id"]: r for r in (json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip())}
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    results = {
        m: sorted((json.loads(p.read_text(encoding="utf-8")) for p in row_files(args.rows / m)), key=lambda r: r["id"]) for m in modes
    }
    results = honest({m: rows[: args.limit] if args.limit else rows for m, rows in results.items()})

    from bpywright.graph.model.llm import LLMClient
    from bpywright.harness.options import RunOptions
    from bpywright.harness.pool import WorkerPool
    from bpywright.models.local import local_llm

    base = Settings.from_env()
    base = dataclasses.replace(
        base, llm_base_url=args.judge_url, llm_model=args.judge_model, local_model=args.judge_local or base.local_model
    )
    with local_llm(base) as (settings, note):
        if not settings.llm_base_url:
            print(f"error: no judge model ({note})", file=sys.stderr)
            return 1
        llm = LLMClient.from_settings(settings)
        assert llm is not None
        judge_name = llm.model.replace("/", "_")
        weak = not args.judge_url
        figures: dict[str, dict[str, float]] = {}
        problems = 0
        with WorkerPool(1, RunOptions(render=False, sandbox=settings.sandbox, blender=settings.blender, timeout=60)) as pool:
            for mode, rows in results.items():
                verdicts = []
                for r in rows:
                    verdict = one(r, rows_by_id.get(r["id"], {}), llm, pool, args.rows / mode, judge_name, args.images)
                    problems += bool(verdict.problem and verdict.problem != "no answer to judge")
                    verdicts.append(verdict)
                if verdicts:
                    figures[mode] = table(verdicts) | {"n": len(verdicts)}
    text = markdown(args.rows.name, judge_name, weak, figures, problems)
    out = args.rows.parent / f"judge-{args.rows.name}-{judge_name}.md"
    out.write_text(text, encoding="utf-8")
    print(text)
    return 0


def one(row: dict[str, Any], cad: dict[str, Any], llm: Any, pool: Any, folder: Path, judge_name: str, images: bool) -> Verdict:
    """A row's verdict (cached beside it): the script run again for its scene summary, then judged."""
    cached = folder / f"{row['id']}.judge-{judge_name}.json"
    if cached.is_file():
        return Verdict.model_validate_json(cached.read_text(encoding="utf-8"))
    from bpywright.fidelity.views import render_views

    script = row.get("script") if row.get("generated") else None
    scene, views = None, []
    if script and images:
        report, views = render_views(pool, script, folder / f"{row['id']}.views")
        scene = report.scene if report.ok else None
    elif script:
        report = pool.run(source=script)
        scene = report.scene if report.ok else None
    verdict = judge(llm, cad.get("instruction", row.get("prompt", "")), script, scene, criteria_of(cad), views)
    cached.write_text(verdict.model_dump_json(), encoding="utf-8")
    return verdict


def markdown(model: str, judge_name: str, weak: bool, figures: dict[str, dict[str, float]], problems: int) -> str:
    """CADBench's table: per mode Attr / Spat / Inst / Avg, the published figures beside."""
    label = f"{judge_name} (WEAK: the local model judging, a smoke test, not a measurement)" if weak else judge_name
    lines = [f"# Checklist judge: {model}, judged by {label}", "", "| mode | n | Attr | Spat | Inst | Avg |", "|---|---|---|---|---|---|"]
    for mode, f in figures.items():
        lines.append(f"| {mode} | {int(f['n'])} | " + " | ".join(f"{f[s]:.3f}" for s in (*SECTIONS.values(), "Avg")) + " |")
    lines += ["", "CADBench's published Sim Avg (judged by GPT-4o): " + ", ".join(f"{k} {v['Avg']}" for k, v in PUBLISHED.items())]
    lines += [f"Judge replies that could not be read (scored 0): {problems}"]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
