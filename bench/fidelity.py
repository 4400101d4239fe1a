"""Fidelity benchmark: does the answer build what was asked? BlendNet dev prompts, answers compared with their reference
scripts' scenes, measured in Blender (bpywright/fidelity), calibrated per prompt by two floors measured the same way.

    .venv/bin/python bench/fidelity.py [--n 30] [--start 0] [--seed 26] [--floors-only] [--modes one-shot,retrieval,loop,plan]
                                       [--base-url URL --model NAME | --local NAME] [--store] [--max-rounds 3]
                                       [--out bench/results/fidelity] [--report-only]

The sample: BlendNetHuman.dev.jsonl rows in a seeded order, keeping the first n whose reference script runs on the bpy
wheel (4.5) and builds a visible surface. Per sample, measured like any answer:
  self      the reference run a second time (a sanity check: it must be faithful);
  cube      a unit cube ("a cube" floor);
  wrong     the reference of another object (another name) of the same category, a seeded draw ("the wrong object" floor).
An answer is **faithful** when its F-score against the reference beats both floors' (strictly). F-score is the primary
metric: bounded (0..1, comparable across prompts), and robust to one stray part, which moves the Chamfer mean arbitrarily
far (Tatarchenko et al. 2019 argue the same for shape reconstruction); tau = 0.05 of the bounding-box diagonal, after each
scene is centred on its box and divided by its diagonal (the size ratio is reported beside, not scored). Chamfer,
silhouette IoU (front/side/top/iso), part counts and colour distance are reported with it.

Modes are bench/generation.py's (one row per (prompt, mode), cached under --out/MODEL/MODE/ID.json, the row's own seed):
one-shot, retrieval, loop, and plan (the loop with Settings.strategy=plan). A row that did not run, or ran a copy of what
its prompt showed (graph/review/copies.py), is a failure and not faithful. --store draws exemplars from the configured exemplar
store (e.g. with the BlendNet dev pairs imported: `bpywright exemplars import BlendNetHuman.dev.jsonl`) through a
leave-one-out view: the prompt's own reference pair is never shown. Without it the prompt shows what a fresh `make run`
gives (the bundled recipes).

Results: --out/fidelity-floors.md (+ floors.json, references/ID.json|png), and per model fidelity-MODEL.md and a contact
sheet per mode (fidelity-MODEL-MODE.png: each reference render beside the answer's).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from generation import MODES, code_version, endpoint, honest, run_rows  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.fidelity.compare import TAU, compare  # noqa: E402
from bpywright.fidelity.measure import UNIT_CUBE  # noqa: E402
from bpywright.fidelity.models import Fidelity, Measurement, SceneGeometry  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"


def measuring_options(settings: Settings) -> Any:
    """How the fidelity benchmarks run a script they measure: rendered at 128 px, the configured sandbox and Blender,
    60 s at most."""
    from bpywright.harness.options import RunOptions

    return RunOptions(render=True, resolution=128, sandbox=settings.sandbox, blender=settings.blender, timeout=60)


def measure_cache(folder: Path, settings: Settings) -> MeasureCache:
    """Measurements cached under folder, by one worker that starts on first need (measuring_options)."""
    from bpywright.harness.pool import WorkerPool

    options = measuring_options(settings)
    return MeasureCache(folder, lambda: WorkerPool(1, options))


def load_rows(path: Path) -> list[dict[str, Any]]:
    """The dev set's rows (id, name, instruction, category, script)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


class MeasureCache:
    """Measurements of scripts, kept as JSON (geometry, status, failure) with the render beside, so a rerun measures nothing
    twice; the pool is opened on first need."""

    def __init__(self, folder: Path, pool_factory: Any):
        self.folder = folder
        self._pool_factory = pool_factory
        self._pool: Any = None

    def pool(self) -> Any:
        if self._pool is None:
            self._pool = self._pool_factory()
        return self._pool

    def get(self, key: str, script: str) -> dict[str, Any]:
        """{"ok", "failure", "geometry" (or None), "why", "render"} of the script, measured once under key."""
        from bpywright.fidelity.measure import measure

        path = self.folder / f"{key}.json"
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
        path.parent.mkdir(parents=True, exist_ok=True)
        m: Measurement = measure(self.pool(), script, render_to=path.with_suffix(".png"))
        out = {
            "ok": m.ran,
            "failure": None if m.ran else m.report.failure[:300],
            "geometry": m.geometry.model_dump() if m.geometry is not None else None,
            "why": m.why,
            "render": path.with_suffix(".png").name if path.with_suffix(".png").is_file() else None,
        }
        path.write_text(json.dumps(out), encoding="utf-8")
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()


def geometry(measured: dict[str, Any]) -> SceneGeometry | None:
    """The measured geometry of a run that went through, else None."""
    return SceneGeometry.model_validate(measured["geometry"]) if measured.get("ok") and measured.get("geometry") else None


def usable(measured: dict[str, Any]) -> bool:
    """The reference ran and built something visible to compare with."""
    g = geometry(measured)
    return g is not None and not g.empty


def choose_sample(rows: list[dict[str, Any]], n: int, seed: int, cache: MeasureCache) -> list[dict[str, Any]]:
    """The first n rows, in a seeded order, whose reference runs on 4.5 and builds a visible surface."""
    order = rows[:]
    random.Random(seed).shuffle(order)
    chosen = []
    for row in order:
        if len(chosen) == n:
            break
        measured = cache.get(f"references/{row['id']}", row["script"])
        if usable(measured):
            chosen.append(row)
        else:
            print(
                f"skip {row['id'][:8]} {row['name']!r}: {measured.get('failure') or measured.get('why') or 'built nothing'}",
                file=sys.stderr,
            )
    return chosen


def wrong_object(row: dict[str, Any], rows: list[dict[str, Any]], seed: int, cache: MeasureCache) -> dict[str, Any] | None:
    """Another object (a dev prompt of the same category, not of the same name: the dev set holds several chessboards) drawn
    by a seeded draw per row, whose reference runs and builds something."""
    name = row["name"].strip().lower()
    others = [
        r
        for r in rows
        if r["category"] == row["category"] and r["name"].strip().lower() != name and r["script"].strip() != row["script"].strip()
    ]
    random.Random(f"{seed}:{row['id']}").shuffle(others)
    for other in others[:10]:
        if usable(cache.get(f"references/{other['id']}", other["script"])):
            return other
    return None


def floors(sample: list[dict[str, Any]], rows: list[dict[str, Any]], seed: int, cache: MeasureCache) -> list[dict[str, Any]]:
    """Per sample: the reference against itself (measured again), a unit cube, and the wrong object of its category."""
    cube = geometry(cache.get("cube", UNIT_CUBE))
    out = []
    for row in sample:
        reference = geometry(cache.get(f"references/{row['id']}", row["script"]))
        assert reference is not None
        again = geometry(cache.get(f"again/{row['id']}", row["script"]))
        other = wrong_object(row, rows, seed, cache)
        wrong = geometry(cache.get(f"references/{other['id']}", other["script"])) if other else None
        entry = {
            "id": row["id"],
            "name": row["name"],
            "category": row["category"],
            "self": compare(again, reference).model_dump(),
            "cube": compare(cube, reference).model_dump(),
            "wrong": compare(wrong, reference).model_dump() if wrong is not None else None,
            "wrong_id": other["id"] if other else None,
            "wrong_name": other["name"] if other else None,
        }
        entry["self_faithful"] = faithful(Fidelity.model_validate(entry["self"]), entry)
        out.append(entry)
    return out


def floor(entry: dict[str, Any]) -> float:
    """The F-score an answer must beat: the better of the cube's and the wrong object's."""
    return max(entry["cube"]["fscore"], entry["wrong"]["fscore"] if entry["wrong"] else 0.0)


def faithful(fid: Fidelity, entry: dict[str, Any]) -> bool:
    """Closer to the reference than both floors (F-score, strictly)."""
    return fid.measured and fid.fscore > floor(entry)


def floors_markdown(entries: list[dict[str, Any]], seed: int) -> str:
    """The floors table: per sample the self/cube/wrong F-scores, and their medians."""

    def med(key: str, field: str = "fscore") -> float:
        values = [e[key][field] for e in entries if e[key] is not None and e[key][field] is not None]
        return statistics.median(values) if values else float("nan")

    cube_wins = sum(e["wrong"] is not None and e["cube"]["fscore"] > e["wrong"]["fscore"] for e in entries)
    lines = [
        "# Fidelity floors: BlendNet dev references measured in Blender 4.5 (bpy wheel)",
        "",
        f"{len(entries)} references (seed {seed}); F-score at tau = {TAU} of the bounding-box diagonal, both scenes normalised. "
        f"Code {code_version()}.",
        "",
        "| | median F-score | median Chamfer | median silhouette IoU |",
        "|---|---|---|---|",
        f"| reference vs itself (run again) | {med('self'):.3f} | {med('self', 'chamfer'):.4f} | {med('self', 'iou'):.3f} |",
        f"| unit cube vs reference (floor) | {med('cube'):.3f} | {med('cube', 'chamfer'):.4f} | {med('cube', 'iou'):.3f} |",
        f"| wrong object of the category vs reference (floor) | {med('wrong'):.3f} | {med('wrong', 'chamfer'):.4f} | {med('wrong', 'iou'):.3f} |",
        "",
        f"- reference vs itself faithful (beats both floors): {sum(e['self_faithful'] for e in entries)}/{len(entries)}",
        "- unit cube as an answer faithful: 0/{n} by construction (it must beat its own floor strictly); it beats the "
        f"wrong-object floor on {cube_wins}/{len(entries)} (where the wrong object is further from the reference than a cube)".replace(
            "{n}", str(len(entries))
        ),
        "",
        "| # | prompt | category | self F | cube F | wrong object | wrong F | floor |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for i, e in enumerate(entries, 1):
        wrong = f"{e['wrong']['fscore']:.3f}" if e["wrong"] else "–"
        lines.append(
            f"| {i} | {e['name']} (`{e['id'][:8]}`) | {e['category'][:40]} | {e['self']['fscore']:.3f} | {e['cube']['fscore']:.3f} "
            f"| {e['wrong_name'] or '–'} | {wrong} | {floor(e):.3f} |"
        )
    return "\n".join(lines) + "\n"


class LeaveOneOut:
    """An exemplar store seen without one prompt's own reference pair (its prompt or its script): what a benchmark
    prompt may retrieve when the BlendNet dev pairs are imported."""

    def __init__(self, store: Any, prompt: str, script: str):
        self.store, self.prompt, self.script = store, prompt.strip(), script.strip()

    def nearest(self, prompt: str, version: str, k: int = 3) -> list[Any]:
        found = self.store.nearest(prompt, version, k + 3)
        return [e for e in found if e.prompt.strip() != self.prompt and e.script.strip() != self.script][:k]

    def add(self, **kwargs: Any) -> object:
        return None  # the benchmark never stores what it generates


def answers(
    rows: dict[str, list[dict[str, Any]]], entries: dict[str, dict[str, Any]], references: dict[str, str], cache: MeasureCache, model: str
) -> dict[str, list[dict[str, Any]]]:
    """Each row judged honest (copies are failures) and, where its generated script ran, measured against its reference."""
    out: dict[str, list[dict[str, Any]]] = {}
    for mode, judged in honest(rows).items():
        out[mode] = []
        for r in judged:
            entry = entries[r["id"]]
            fid = None
            if r["generated"] and r.get("script"):
                digest = hashlib.sha256(r["script"].encode("utf-8")).hexdigest()[:12]  # a row measured anew is measured anew
                answer = geometry(cache.get(f"{model}/{mode}/{r['id']}.{digest}.measure", r["script"]))
                reference = geometry(cache.get(f"references/{r['id']}", references[r["id"]]))
                assert reference is not None
                fid = compare(answer, reference)
            r = r | {"fidelity": fid.model_dump() if fid else None, "faithful": bool(fid and faithful(fid, entry)), "floor": floor(entry)}
            out[mode].append(r)
    return out


def acceptance(rows: list[dict[str, Any]], verdict: str = "accepted") -> dict[str, float | int | None]:
    """The critic's verdict against the reference-based one: accepted (of all rows), precision (faithful among accepted),
    recall (accepted among faithful). Copies are never counted as accepted. verdict "objective": what the objective and
    structural checks alone would accept (BPYWRIGHT_REVIEW=checks)."""
    accepted = [r for r in rows if r.get(verdict) and r["generated"]]
    faithful_rows = [r for r in rows if r["faithful"]]
    both = sum(r["faithful"] for r in accepted)
    return {
        "accepted": len(accepted),
        "precision": both / len(accepted) if accepted else None,
        "recall": both / len(faithful_rows) if faithful_rows else None,
    }


def modes_markdown(model: str, judged: dict[str, list[dict[str, Any]]]) -> str:
    """Per mode: faithful rate, median F-score (failures count 0), run failure with copies counted, the floors' median, and
    the critic's acceptance against the reference verdict."""

    def share(value: float | int | None) -> str:
        return "–" if value is None else f"{100 * value:.0f} %"

    lines = [
        f"# Fidelity benchmark: {model}",
        "",
        f"Faithful: the answer's F-score (tau {TAU} of the diagonal) beats both floors of its prompt (a unit cube; another "
        "object of its category). Failures and copies count as F 0 and not faithful. Code: "
        + ", ".join(sorted({str(r.get("code")) for rows in judged.values() for r in rows})),
        "",
        "| mode | n | faithful | median F-score | run failure (copies counted as failures) | copies | median floor F "
        "| accepted | accepted that are faithful (precision) | faithful that are accepted (recall) "
        "| pass the checks alone (precision) | median seconds |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for mode, rows in judged.items():
        if not rows:
            continue
        n = len(rows)
        fs = [r["fidelity"]["fscore"] if r["fidelity"] else 0.0 for r in rows]
        acc = acceptance(rows)
        lines.append(
            f"| {mode} | {n} | {100 * sum(r['faithful'] for r in rows) / n:.1f} % | {statistics.median(fs):.3f} "
            f"| {100 * sum(not r['generated'] for r in rows) / n:.1f} % | {sum(bool(r.get('copy_of')) for r in rows)} "
            f"| {statistics.median(r['floor'] for r in rows):.3f} | {acc['accepted']} | {share(acc['precision'])} | {share(acc['recall'])} "
            f"| {(checks := acceptance(rows, 'objective'))['accepted']} ({share(checks['precision'])}) "
            f"| {statistics.median(r.get('seconds') or 0.0 for r in rows):.0f} |"
        )
    for mode, rows in judged.items():
        lines += [
            "",
            f"## {mode}, prompt by prompt",
            "",
            "| prompt | F-score | floor F | faithful | passes the checks | accepted | seconds |",
        ]
        lines.append("|---|---|---|---|---|---|---|")
        for r in rows:
            f = f"{r['fidelity']['fscore']:.3f}" if r["fidelity"] else ("copy" if r.get("copy_of") else "did not run")
            lines.append(
                f"| {r.get('name') or r['id'][:8]} (`{r['id'][:8]}`) | {f} | {r['floor']:.3f} | {'yes' if r['faithful'] else 'no'} "
                f"| {'yes' if r.get('objective') and r['generated'] else 'no'} | {'yes' if r.get('accepted') and r['generated'] else 'no'} "
                f"| {r.get('seconds') or 0.0:.0f} |"
            )
    return "\n".join(lines) + "\n"


def contact_sheet(
    judged: list[dict[str, Any]], out_dir: Path, model: str, mode: str, path: Path, cell: int = 128, per_line: int = 5
) -> Path:
    """Reference render | answer render per prompt, five pairs a line, each captioned with its F-score and verdict."""
    from PIL import Image, ImageDraw

    lines = -(-len(judged) // per_line)
    sheet = Image.new("RGB", (per_line * (2 * cell + 8), lines * (cell + 18)), "white")
    draw = ImageDraw.Draw(sheet)
    for k, r in enumerate(judged):
        x, y = (k % per_line) * (2 * cell + 8), (k // per_line) * (cell + 18)
        reference = out_dir / "references" / f"{r['id']}.png"
        answer = out_dir / model / mode / r["render"] if r.get("render") else None
        for offset, image in ((0, reference), (cell, answer)):
            if image is not None and image.is_file():
                with Image.open(image) as img:
                    sheet.paste(img.convert("RGB").resize((cell, cell)), (x + offset, y))
            else:
                draw.rectangle([(x + offset, y), (x + offset + cell - 2, y + cell - 2)], fill=(200, 200, 200))
                draw.text((x + offset + 4, y + 16), "copy" if r.get("copy_of") else "did not run", fill="black")
        f = r["fidelity"]["fscore"] if r["fidelity"] else 0.0
        verdict = "faithful" if r["faithful"] else ("copy" if r.get("copy_of") else "not faithful")
        draw.text((x + 2, y + cell + 2), f"{k + 1}. {r.get('name', '')[:14]} F {f:.2f}/{r['floor']:.2f} {verdict}", fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(path)
    return path


def floors_sheet(entries: list[dict[str, Any]], out_dir: Path, path: Path, cell: int = 128, per_line: int = 5) -> Path:
    """Reference | its wrong object, per sample (the floors' contact sheet)."""
    from PIL import Image, ImageDraw

    lines = -(-len(entries) // per_line)
    sheet = Image.new("RGB", (per_line * (2 * cell + 8), lines * (cell + 18)), "white")
    draw = ImageDraw.Draw(sheet)
    for k, e in enumerate(entries):
        x, y = (k % per_line) * (2 * cell + 8), (k // per_line) * (cell + 18)
        for offset, ident in ((0, e["id"]), (cell, e["wrong_id"])):
            image = out_dir / "references" / f"{ident}.png" if ident else None
            if image is not None and image.is_file():
                with Image.open(image) as img:
                    sheet.paste(img.convert("RGB").resize((cell, cell)), (x + offset, y))
        wrong = e["wrong"]["fscore"] if e["wrong"] else 0.0
        draw.text((x + 2, y + cell + 2), f"{k + 1}. {e['name'][:12]} | {(e['wrong_name'] or '-')[:10]} F {wrong:.2f}", fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(path)
    return path


def main() -> int:
    """Measure the floors (and, unless --floors-only, the modes' answers) and write the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--start", type=int, default=0, help="skip the sample's first START prompts (e.g. ones already read)")
    parser.add_argument(
        "--related", action="store_true", help="only prompts the plan library shows a related plan for (graph/plans/library.py)"
    )
    parser.add_argument("--ids", help="only these prompts of the sample (comma-separated id prefixes), e.g. to rerun some")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--floors-only", action="store_true", help="measure the references and floors only (no model)")
    parser.add_argument("--modes", default="one-shot,retrieval,loop")
    parser.add_argument("--base-url", help="an OpenAI-compatible /v1 (default: serve the local model)")
    parser.add_argument("--model", help="the model to ask for at --base-url (default: the first it serves)")
    parser.add_argument("--local", help="the local model to serve (default: BPYWRIGHT_LOCAL_MODEL or the best installed)")
    parser.add_argument("--store", action="store_true", help="retrieve from the configured exemplar store, leave-one-out")
    parser.add_argument("--max-rounds", type=int, default=3)
    parser.add_argument("--budget", type=float, default=1200.0)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "fidelity")
    parser.add_argument("--report-only", action="store_true", help="write the tables from the cache (needs --local/--model)")
    args = parser.parse_args()
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if bad := [m for m in modes if m not in MODES]:
        parser.error(f"unknown mode(s) {bad}; choose from {MODES}")

    base = Settings.from_env()
    cache = measure_cache(args.out, base)
    try:
        rows = load_rows(args.data)
        sample = choose_sample(rows, args.start + args.n, args.seed, cache)[args.start :]
        if args.related:
            from bpywright.graph.plans.library import similar

            sample = [r for r in sample if similar(r["instruction"], 2)]
        if args.ids:
            wanted = [w.strip() for w in args.ids.split(",") if w.strip()]
            if missing := [w for w in wanted if not any(r["id"].startswith(w) for r in sample)]:
                parser.error(f"--ids {missing} not in the sample (--n {args.n} --start {args.start} --seed {args.seed})")
            sample = [r for r in sample if any(r["id"].startswith(w) for w in wanted)]
        entries = floors(sample, rows, args.seed, cache)
        (args.out / "floors.json").write_text(json.dumps(entries, indent=1), encoding="utf-8")
        text = floors_markdown(entries, args.seed)
        (args.out / "fidelity-floors.md").write_text(text, encoding="utf-8")
        floors_sheet(entries, args.out, args.out / "fidelity-floors.png")
        print(text)
        if args.floors_only:
            return 0
        items = [{"id": r["id"], "prompt": r["instruction"], "category": r["category"], "name": r["name"]} for r in sample]
        by_id = {r["id"]: r for r in sample}
        return run_modes(args, base, modes, items, by_id, {e["id"]: e for e in entries}, cache)
    finally:
        cache.close()


def run_modes(
    args: argparse.Namespace,
    base: Settings,
    modes: list[str],
    items: list[dict[str, Any]],
    by_id: dict[str, Any],
    entries: dict[str, Any],
    cache: MeasureCache,
) -> int:
    """Generate (or read) each mode's rows, measure them, write the table and the contact sheets."""
    from bpywright.graph.model.llm import LLMClient
    from bpywright.models.local import local_llm

    if args.report_only:
        name = args.model or args.local or base.local_model
        if not name:
            print("error: --report-only needs --local NAME or --model NAME (the cache is named after the model)", file=sys.stderr)
            return 2
        model = name.replace("/", "_")
        folder = args.out / model
        rows = {
            m: [json.loads(p.read_text(encoding="utf-8")) for i in items if (p := folder / m / f"{i['id']}.json").is_file()] for m in modes
        }
    else:
        base = endpoint(base, args.base_url, args.model, args.local, budget_s=args.budget, max_heal_rounds=args.max_rounds)
        with local_llm(base) as (settings, note):
            if not settings.llm_base_url:
                print(f"error: no model to benchmark ({note})", file=sys.stderr)
                return 1
            llm = LLMClient.from_settings(settings)
            assert llm is not None
            model = llm.model.replace("/", "_")
            store = None
            if args.store:
                from bpywright.exemplars.store import ExemplarStore

                store = ExemplarStore.open(settings)

            def store_for(item: dict[str, Any]) -> Any:
                return LeaveOneOut(store, by_id[item["id"]]["instruction"], by_id[item["id"]]["script"]) if store is not None else None

            try:
                rows = run_rows(
                    items,
                    modes,
                    args.out / model,
                    settings=settings,
                    llm=llm,
                    pool=cache.pool(),
                    max_rounds=args.max_rounds,
                    store_for=store_for,
                )
            finally:
                if store is not None:
                    store.close()
    judged = answers(rows, entries, {i: r["script"] for i, r in by_id.items()}, cache, model)
    text = modes_markdown(model, judged)
    (args.out / f"fidelity-{model}.md").write_text(text, encoding="utf-8")
    for mode, mode_rows in judged.items():
        contact_sheet(mode_rows, args.out, model, mode, args.out / f"fidelity-{model}-{mode}.png")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
