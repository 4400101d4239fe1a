"""Witnesses against the reference: would agreement with fresh plans of the same request accept faithful answers only?

    .venv/bin/python bench/witnesses.py FOLDER [--model qwen2.5-coder-1.5b] [--out FOLDER/witnesses.md]

FOLDER is a bench/fidelity.py --out folder whose loop rows were written with BPYWRIGHT_WITNESSES=K (graph/review/witnesses.py):
each row keeps the fresh plans its answer was compared with (`witnesses`, their scripts) and the comparison
(`agreement`: the answer's F-score against each, a unit cube's). The answers are judged as bench/fidelity.py judges them
(copies are failures; faithful: F against the reference beats both floors). No model is asked: the loop's recorded
comparisons decide the rules below, each computed from them as the loop would, since with the local model's catalogue entry
(critic_rounds=0, no redraws) a verdict ends the request either way and never changes the answer returned.

Rules, each as accepted (of all rows) and precision (faithful among accepted):
- the answer agrees with each of the first k witnesses (k = 1 .. K), with at least m of the K, at margins 0 .. 0.4 over
  the cube (the loop's rule: all K, agreement.MARGIN);
Beside them, each witness measured against the reference (is a witness faithful?) and the medoid: of the answer and its
witnesses, the one with the highest mean F-score against the others (self-consistency's choice of an answer).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import answers, compare, faithful, geometry, load_rows, measure_cache  # noqa: E402

from bpywright.config import Settings  # noqa: E402

MARGINS = (0.0, 0.1, 0.2, 0.3, 0.4)


def agrees(entries: list[dict[str, Any]], k: int, m: int, margin: float) -> bool:
    """At least m of the first k comparisons beat the cube by margin (m = k: each of them)."""
    firsts = entries[:k]
    return len(firsts) == k and sum(e["fscore"] > e["cube"] + margin for e in firsts) >= m


def rule_rows(judged: list[dict[str, Any]], most: int) -> list[tuple[str, int, int, float]]:
    """(rule, accepted, faithful among them, margin) for every rule over the judged rows."""
    out = []
    for k in range(1, most + 1):
        for m in range(1, k + 1):
            for margin in MARGINS:
                accepted = [r for r in judged if r["generated"] and agrees(r.get("agreement") or [], k, m, margin)]
                label = f"agrees with {m} of its first {k} fresh plan(s), margin {margin:.1f}"
                out.append((label, len(accepted), sum(r["faithful"] for r in accepted), margin))
    return out


def witness_verdicts(row: dict[str, Any], entry: dict[str, Any], reference: Any, cache: Any, model: str) -> tuple[list[bool], list[Any]]:
    """Each witness faithful or not, and the witnesses' geometries (None where it did not measure)."""
    verdicts, shapes = [], []
    for k, script in enumerate(row.get("witnesses") or []):
        digest = hashlib.sha256(script.encode("utf-8")).hexdigest()[:12]
        shape = geometry(cache.get(f"{model}/loop/{row['id']}.witness{k + 1}.{digest}.measure", script))
        shapes.append(shape)
        verdicts.append(bool(shape is not None and not shape.empty and faithful(compare(shape, reference), entry)))
    return verdicts, shapes


def medoid(shapes: list[Any]) -> int | None:
    """The index of the shape with the highest mean F-score against the others (None under two measured shapes)."""
    usable = [i for i, s in enumerate(shapes) if s is not None and not s.empty]
    if len(usable) < 2:
        return None
    mean = {i: statistics.fmean(compare(shapes[i], shapes[j]).fscore for j in usable if j != i) for i in usable}
    return max(usable, key=lambda i: (mean[i], -i))  # ties go to the answer (index 0), then the earlier witness


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    entries = {e["id"]: e for e in json.loads((args.folder / "floors.json").read_text(encoding="utf-8"))}
    rows = [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((args.folder / args.model / "loop").glob("*.json"))
        if ".measure" not in p.name
    ]
    rows = [r for r in rows if r["id"] in entries]
    references = {r["id"]: r["script"] for r in load_rows(args.data) if r["id"] in entries}
    cache = measure_cache(args.folder, Settings.from_env())
    try:
        judged = answers({"loop": rows}, entries, references, cache, args.model)["loop"]
        most = max((len(r.get("agreement") or []) for r in judged), default=0)
        compared = [r for r in judged if r.get("agreement")]
        lines = [
            f"# Witnesses against the reference ({args.folder.name}, {args.model}; bench/witnesses.py)",
            "",
            f"{len(judged)} loop rows; {sum(r['faithful'] for r in judged)} faithful; {len(compared)} compared with fresh plans "
            f"(up to {most} each); accepting every row that passed the checks: "
            f"{sum(r['objective'] and r['generated'] for r in judged)} at precision "
            f"{share(sum(r['faithful'] for r in judged if r['objective'] and r['generated']), sum(r['objective'] and r['generated'] for r in judged))}.",
            "",
            "| rule | accepted (of all rows) | faithful among them | precision |",
            "|---|---|---|---|",
        ]
        for label, accepted, right, _ in rule_rows(judged, most):
            lines.append(
                f"| {label} | {accepted} of {len(judged)} ({100 * accepted / max(1, len(judged)):.0f} %) | {right} | {share(right, accepted)} |"
            )
        lines += [
            "",
            "## Prompt by prompt",
            "",
            "| prompt | answer faithful | F against each fresh plan (a cube's) | witnesses faithful | medoid | medoid faithful |",
            "|---|---|---|---|---|---|",
        ]
        medoid_right = answer_right = chosen = 0
        for r in judged:
            reference = geometry(cache.get(f"references/{r['id']}", references[r["id"]]))
            verdicts, shapes = witness_verdicts(r, entries[r["id"]], reference, cache, args.model) if r["generated"] else ([], [])
            answer_shape = None
            if r["generated"]:
                digest = hashlib.sha256(r["script"].encode("utf-8")).hexdigest()[:12]
                answer_shape = geometry(cache.get(f"{args.model}/loop/{r['id']}.{digest}.measure", r["script"]))
            pick = medoid([answer_shape, *shapes]) if shapes else None
            pick_faithful = r["faithful"] if pick == 0 else (verdicts[pick - 1] if pick is not None else None)
            if pick is not None:
                chosen += 1
                medoid_right += bool(pick_faithful)
                answer_right += r["faithful"]
            against = ", ".join(f"{e['fscore']:.2f} ({e['cube']:.2f})" for e in r.get("agreement") or []) or "–"
            lines.append(
                f"| {r['name']} (`{r['id'][:8]}`) | {'yes' if r['faithful'] else 'no'} | {against} | "
                f"{sum(verdicts)} of {len(verdicts)} | {'answer' if pick == 0 else (f'plan {pick}' if pick else '–')} | "
                f"{'–' if pick_faithful is None else ('yes' if pick_faithful else 'no')} |"
            )
        lines += [
            "",
            f"Medoid against the answer, over the {chosen} rows with two or more measured shapes: the medoid is faithful "
            f"{medoid_right} times, the answer {answer_right}.",
        ]
        text = "\n".join(lines) + "\n"
        (args.out or args.folder / "witnesses.md").write_text(text, encoding="utf-8")
        print(text)
    finally:
        cache.close()
    return 0


def share(right: int, total: int) -> str:
    return f"{right / total:.2f}" if total else "–"


if __name__ == "__main__":
    sys.exit(main())
