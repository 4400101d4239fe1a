"""Two fidelity runs of the same sample side by side, prompt by prompt (no model is asked).

    .venv/bin/python bench/paired.py BASE_FOLDER OTHER_FOLDER [--labels A B] [--mode loop] [--out FILE.md] [--sheet FILE.png]

Each folder is one bench/fidelity.py run (--out) on the same prompts (the same --start, --n and --seed): its floors.json
and MODEL/MODE/ID.json rows. Both are judged as bench/fidelity.py judges them (copies are failures; faithful: F beats
both floors), from each folder's own measurement cache. Prints per prompt the two verdicts (F, faithful, accepted) and
in all: faithful, accepted, precision, copies, answers that are a shown archetype again up to scale (the run's own
critique: F >= agreement.REPEAT_F against an archetype the row showed; not copies by their code lines, and never
accepted), and the prompts where the two disagree; the sheet is reference | first
run | second run, a row a prompt.
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

from fidelity import DATA, acceptance, answers, load_rows, measure_cache  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.graph.review.agreement import REPEAT_F  # noqa: E402


def judged_rows(folder: Path, mode: str, references: dict[str, str], settings: Settings) -> dict[str, dict[str, Any]]:
    """The folder's rows of one mode (every model), judged, by prompt id."""
    entries = {e["id"]: e for e in json.loads((folder / "floors.json").read_text(encoding="utf-8"))}
    out: dict[str, dict[str, Any]] = {}
    for model_dir in sorted(p for p in folder.iterdir() if (p / mode).is_dir()):
        rows = []
        for path in sorted((model_dir / mode).glob("*.json")):
            if path.name.endswith(".measure.json"):
                continue
            r = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(r, dict) and r.get("id") in entries:
                rows.append(r)
        cache = measure_cache(folder, settings)
        try:
            for r in answers({mode: rows}, entries, references, cache, model_dir.name).get(mode, []):
                out[r["id"]] = r | {"model": model_dir.name}
        finally:
            cache.close()
    return out


def repeats(r: dict[str, Any]) -> bool:
    """The run's critic found the answer to be an archetype the row showed, again up to scale (F >= REPEAT_F against
    it): a plan-library archetype, or the critic's shape where it was shown (Settings.plan_shapes). Not a copy by its
    code lines (sizes and colours changed), but the shape the model was shown."""
    shown = {e.get("id") for e in r.get("shown") or [] if isinstance(e, dict)}
    return any(
        a.get("archetype") and (a.get("id") in shown or str(a.get("id", "")).startswith("plan:")) and a.get("fscore", 0.0) >= REPEAT_F
        for a in r.get("agreement") or []
        if isinstance(a, dict)
    )


def cell(r: dict[str, Any] | None) -> str:
    if r is None:
        return "–"
    if r.get("copy_of"):
        return "copy"
    f = f"F {r['fidelity']['fscore']:.2f}" if r.get("fidelity") else "did not run"
    f += " (the shown shape again)" if r["generated"] and repeats(r) else ""
    return f + (" faithful" if r["faithful"] else "") + (" **accepted**" if r.get("accepted") and r["generated"] else "")


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    a = acceptance(rows)
    return {
        "n": len(rows),
        "faithful": sum(r["faithful"] for r in rows),
        "copies": sum(bool(r.get("copy_of")) for r in rows),
        "accepted": a["accepted"],
        "accepted_faithful": sum(r["faithful"] for r in rows if r.get("accepted") and r["generated"]),
        "repeats": sum(r["generated"] and repeats(r) for r in rows),
        "repeats_faithful": sum(r["generated"] and repeats(r) and r["faithful"] for r in rows),
    }


def markdown(base: dict[str, dict[str, Any]], other: dict[str, dict[str, Any]], labels: tuple[str, str]) -> str:
    """The per-prompt table over the prompts both runs answered, then the totals and the disagreements."""
    ids = [i for i in base if i in other]
    lines = [f"| prompt | {labels[0]} | {labels[1]} |", "|---|---|---|"]
    lines += [f"| {base[i].get('name', '')} (`{i[:8]}`) | {cell(base[i])} | {cell(other[i])} |" for i in ids]
    lines += [
        "",
        "| run | n | faithful | copies | accepted | faithful among them | the shown shape again (faithful) |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, rows in zip(labels, (base, other), strict=True):
        s = summary([rows[i] for i in ids])
        precision = f"{s['accepted_faithful'] / s['accepted']:.2f}" if s["accepted"] else "–"
        lines.append(
            f"| {label} | {s['n']} | {s['faithful']} ({100 * s['faithful'] / max(1, s['n']):.1f} %) | {s['copies']} "
            f"| {s['accepted']} ({100 * s['accepted'] / max(1, s['n']):.1f} %) | {s['accepted_faithful']} ({precision}) "
            f"| {s['repeats']} ({s['repeats_faithful']}) |"
        )
    gained = [i for i in ids if other[i]["faithful"] and not base[i]["faithful"]]
    lost = [i for i in ids if base[i]["faithful"] and not other[i]["faithful"]]
    lines += [
        "",
        f"- faithful in {labels[1]} only: {len(gained)}"
        + (f" ({', '.join(other[i].get('name', i[:8]) for i in gained)})" if gained else ""),
        f"- faithful in {labels[0]} only: {len(lost)}" + (f" ({', '.join(base[i].get('name', i[:8]) for i in lost)})" if lost else ""),
    ]
    return "\n".join(lines) + "\n"


def sheet(
    base_dir: Path,
    other_dir: Path,
    base: dict[str, dict[str, Any]],
    other: dict[str, dict[str, Any]],
    mode: str,
    path: Path,
    cell_px: int = 128,
) -> Path:
    """Reference | first run | second run, a row a prompt, two prompts a line, each answer captioned with its verdict."""
    from PIL import Image, ImageDraw

    ids = [i for i in base if i in other]
    per_line = 2
    lines = -(-len(ids) // per_line)
    width = 3 * cell_px + 12
    out = Image.new("RGB", (per_line * width, lines * (cell_px + 18)), "white")
    draw = ImageDraw.Draw(out)
    for k, i in enumerate(ids):
        x, y = (k % per_line) * width, (k // per_line) * (cell_px + 18)
        images = [base_dir / "references" / f"{i}.png"]
        for folder, rows in ((base_dir, base), (other_dir, other)):
            r = rows[i]
            images.append(folder / r["model"] / mode / r["render"] if r.get("render") and r["generated"] else Path("/nonexistent"))
        for n, image in enumerate(images):
            if image.is_file():
                with Image.open(image) as img:
                    out.paste(img.convert("RGB").resize((cell_px, cell_px)), (x + n * cell_px, y))
            else:
                draw.rectangle([(x + n * cell_px, y), (x + (n + 1) * cell_px - 2, y + cell_px - 2)], fill=(200, 200, 200))
        text = f"{k + 1}. {base[i].get('name', '')[:12]}: {cell(base[i]).replace('**', '')} | {cell(other[i]).replace('**', '')}"
        draw.text((x + 2, y + cell_px + 2), text[:60], fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    out.save(path)
    return path


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("base", type=Path)
    p.add_argument("other", type=Path)
    p.add_argument("--labels", nargs=2, default=None)
    p.add_argument("--mode", default="loop")
    p.add_argument("--out", type=Path)
    p.add_argument("--sheet", type=Path)
    args = p.parse_args()
    labels = tuple(args.labels) if args.labels else (args.base.name, args.other.name)
    references = {r["id"]: r["script"] for r in load_rows(DATA)}
    settings = Settings.from_env()
    base = judged_rows(args.base, args.mode, references, settings)
    other = judged_rows(args.other, args.mode, references, settings)
    text = markdown(base, other, labels)  # type: ignore[arg-type]
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    if args.sheet:
        sheet(args.base, args.other, base, other, args.mode, args.sheet)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
