"""How faithful is an exemplar's scene read back as a part plan (graph/plans/scene.py)? The plan strategy shows verified
exemplars to the model as such plans, so a reading that loses the object would teach the wrong one.

    .venv/bin/python bench/scene_plans.py [--n 30] [--floors bench/results/fidelity/floors.json] [--out DIR]

For each reference of the fidelity sample (bench/fidelity.py, BlendNet dev, seed 26): run it, read its scene as a plan,
build that plan with the plan strategy's own builder, and measure the built scene against the reference like any answer
(F-score at tau 0.05 of the diagonal; faithful when it beats both of the prompt's floors: a unit cube, the wrong object).
Prints the table and writes DIR/scene-plans.md, DIR/scene-plans.json and a contact sheet (reference | its plan built).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fidelity import DATA, faithful, floor, load_rows, measuring_options  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.fidelity.compare import compare  # noqa: E402

FLOORS = ROOT / "bench" / "results" / "fidelity" / "floors.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--floors", type=Path, default=FLOORS)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "scene_plans")
    args = parser.parse_args()

    from bpywright.fidelity.measure import measure
    from bpywright.graph.plans.plan import build_script, grounded, plan_json
    from bpywright.graph.plans.scene import plan_of_scene
    from bpywright.harness.pool import WorkerPool

    entries = json.loads(args.floors.read_text(encoding="utf-8"))[: args.n]
    by_id = {r["id"]: r for r in load_rows(args.data)}
    args.out.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    pool = WorkerPool(1, measuring_options(Settings.from_env()))
    try:
        for entry in entries:
            row = by_id[entry["id"]]
            ref = measure(pool, row["script"], render_to=args.out / f"{row['id']}.reference.png")
            plan = plan_of_scene(ref.report.scene, row["instruction"])
            out: dict[str, Any] = {"id": row["id"], "name": row["name"], "floor": round(floor(entry), 3)}
            if plan is None or ref.geometry is None:
                rows.append(out | {"fscore": 0.0, "faithful": False, "parts": 0, "objects": 0})
                continue
            plan = grounded(plan, row["instruction"])
            built = measure(pool, build_script(plan, "4.5"), render_to=args.out / f"{row['id']}.plan.png")
            fid = compare(built.geometry, ref.geometry)
            meshes = [o for o in (ref.report.scene.objects if ref.report.scene else []) if o.type == "MESH"]
            out |= {
                "fscore": round(fid.fscore, 3) if fid.measured else 0.0,
                "iou": round(fid.iou, 3) if fid.measured else 0.0,
                "faithful": faithful(fid, entry),
                "parts": len(plan.parts),
                "objects": len(meshes),
                "plan": plan_json(plan),
            }
            rows.append(out)
            print(f"{row['name']}: F {out['fscore']} (floor {out['floor']}), {out['parts']} parts of {out['objects']} meshes", flush=True)
    finally:
        pool.close()
    n = len(rows)
    lines = [
        "# Exemplar scenes read back as part plans (graph/plans/scene.py)",
        "",
        f"{n} references of the fidelity sample; each one's scene read as a plan, the plan built by the plan builder, the "
        "built scene measured against the reference. Faithful: F beats both floors of the prompt (a cube, the wrong object).",
        "",
        f"- faithful: {sum(r['faithful'] for r in rows)} of {n}",
        f"- median F-score: {statistics.median(r['fscore'] for r in rows):.3f} (median floor {statistics.median(r['floor'] for r in rows):.3f})",
        "",
        "| reference | F | floor | faithful | parts shown / meshes |",
        "|---|---|---|---|---|",
        *(
            f"| {r['name']} (`{r['id'][:8]}`) | {r['fscore']:.3f} | {r['floor']:.3f} | {'yes' if r['faithful'] else 'no'} | {r['parts']} / {r['objects']} |"
            for r in rows
        ),
    ]
    text = "\n".join(lines) + "\n"
    (args.out / "scene-plans.md").write_text(text, encoding="utf-8")
    (args.out / "scene-plans.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
