"""The critic's shapes as answers: how often is the shape of a request's kind itself faithful to the prompt's reference?
(no model is asked)

    .venv/bin/python bench/shapes_as_answers.py FOLDER [FOLDER ...] [--out FILE.md] [--cache DIR]

On a fresh store the loop accepts an answer when its shape agrees with the critic's shape of the request's kind
(graph/plans/shapes.py, graph/agreement.against_archetype). An accepted answer is then about as faithful to the reference as
that shape is: where the shape itself is not (the reference is a round cat bed and the shape a square one, the request
asks for drumsticks beside the drum, or compares two objects), agreeing with it says little. This measures, for every
prompt of the given fidelity result folders (their floors.json), the kind's shape built and measured in Blender as if it
were the answer (faithful: F beats both floors, as bench/fidelity.py), beside the loop's own answer to the same prompt
and whether the run accepted it. The split "accepted where the shape is faithful / where it is not" is how much of the
loop's precision the shapes allow.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from archetypes import DATA, VERSION, digest  # noqa: E402  (its measurement cache keys, so one cache serves both)
from fidelity import compare, faithful, geometry, load_rows, measure_cache  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.graph.review.agreement import archetype_of  # noqa: E402


def judge(folders: list[Path], references: dict[str, dict[str, Any]], cache: Any, mode: str = "loop") -> list[dict[str, Any]]:
    """One row a prompt (the first folder that has it): its shape's verdict against the reference (None: no shape of
    its kind), and the loop's answer's (faithful, accepted; None where the folder holds no answer that ran)."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for folder in folders:
        answers: dict[str, dict[str, Any]] = {}
        for path in folder.glob(f"*/{mode}/*.json"):
            r = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(r, dict) and r.get("id"):
                answers[r["id"]] = r
        for entry in json.loads((folder / "floors.json").read_text(encoding="utf-8")):
            ident = entry["id"]
            if ident in seen or ident not in references:
                continue
            seen.add(ident)
            ref = geometry(cache.get(f"references/{ident}", references[ident]["script"]))
            if ref is None:
                continue
            found = archetype_of(references[ident]["instruction"], VERSION)
            shape = None
            if found is not None and not found.shown:
                built = geometry(cache.get(f"archetypes/{digest(found.script)}", found.script))
                shape = None if built is None else bool(faithful(compare(built, ref), entry))
            r = answers.get(ident)
            script = r.get("script") if r and r.get("ran") else None
            answer = geometry(cache.get(f"answers/{ident}.{digest(script)}", script)) if script else None
            out.append(
                {
                    "folder": folder.name,
                    "id": ident,
                    "name": references[ident].get("name", ""),
                    "shape_id": found.id if found is not None and not found.shown else None,
                    "shape": shape,
                    "answer": None if answer is None else bool(faithful(compare(answer, ref), entry)),
                    "accepted": bool(r and r.get("accepted") and script),
                }
            )
    return out


def tally(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts over rows: prompts, with a shape, the shape faithful, the answer faithful on them; accepted answers and
    the faithful among them, where the shape is faithful and where it is not."""
    shaped = [r for r in rows if r["shape"] is not None]
    t: dict[str, Any] = {
        "prompts": len(rows),
        "shaped": len(shaped),
        "shape_faithful": sum(bool(r["shape"]) for r in shaped),
        "answer_faithful": sum(bool(r["answer"]) for r in shaped),
    }
    for label, want in (("good", True), ("bad", False)):
        group = [r for r in shaped if r["shape"] is want]
        accepted = [r for r in group if r["accepted"]]
        t[f"{label}_prompts"] = len(group)
        t[f"{label}_accepted"] = len(accepted)
        t[f"{label}_accepted_faithful"] = sum(bool(r["answer"]) for r in accepted)
    return t


def pct(n: int, d: int) -> str:
    return f"{n} ({100 * n / d:.1f} %)" if d else "–"


def ratio(n: int, d: int) -> str:
    return f"{n} of {d} ({n / d:.2f})" if d else "–"


def markdown(rows: list[dict[str, Any]]) -> str:
    """Per folder and in all: the shapes' own verdict, the loop's answers' on the same prompts, and the precision of the
    run's accepts split by the shape's verdict."""
    lines = [
        "| folder | prompts | with a shape | the shape faithful | the loop's answer faithful (same prompts) "
        "| accepted where the shape is faithful: faithful | accepted where it is not: faithful |",
        "|---|---|---|---|---|---|---|",
    ]
    folders = list(dict.fromkeys(r["folder"] for r in rows))
    for name in [*folders, "all"]:
        t = tally(rows if name == "all" else [r for r in rows if r["folder"] == name])
        lines.append(
            f"| {'**all**' if name == 'all' else name} | {t['prompts']} | {t['shaped']} | {pct(t['shape_faithful'], t['shaped'])} "
            f"| {pct(t['answer_faithful'], t['shaped'])} | {ratio(t['good_accepted_faithful'], t['good_accepted'])} "
            f"| {ratio(t['bad_accepted_faithful'], t['bad_accepted'])} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folders", nargs="+", type=Path)
    p.add_argument("--cache", type=Path, default=ROOT / ".bench-cache" / "archetypes")
    p.add_argument("--mode", default="loop")
    p.add_argument("--out", type=Path)
    p.add_argument("--json", type=Path, help="the judged rows, as JSON")
    args = p.parse_args()
    references = {r["id"]: r for r in load_rows(DATA)}
    cache = measure_cache(args.cache, Settings.from_env())
    try:
        rows = judge(args.folders, references, cache, args.mode)
    finally:
        cache.close()
    text = markdown(rows)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
