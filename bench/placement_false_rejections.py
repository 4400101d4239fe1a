"""How often the placement checks reject a verified answer: the BlendNet dev requests whose words place one part
against another ("a lamp on a table", "a cherry on top", "a basket under it"; graph/reading/placement.py), their
human-verified reference scripts run in Blender and checked against their own instructions
(graph/review/relations.placement_checks). A rejection is a false one, or a reference that put the part elsewhere.

    .venv/bin/python bench/placement_false_rejections.py [--show 10] [--data BlendNetHuman.dev.jsonl]

Prints how many requests state a placement, how many are checked (both parts named in the reference's scene), how many
each relation rejects, and the messages.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.graph.reading.placement import placements  # noqa: E402
from bpywright.graph.review.relations import PLACEMENT, placement_checks  # noqa: E402
from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", type=int, default=10, help="rejection messages printed")
    parser.add_argument("--data", type=Path, default=DATA, help="the BlendNet dev set (JSON lines)")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    placed = [row for row in rows if placements(row["instruction"])]
    checked: collections.Counter[str] = collections.Counter()
    rejected: collections.Counter[str] = collections.Counter()
    messages: list[str] = []
    ran = references_checked = any_rejected = 0
    with tempfile.TemporaryDirectory() as tmp, WorkerPool(2, RunOptions(render=False, timeout=60)) as pool:
        paths = []
        for i, row in enumerate(placed):
            path = Path(tmp) / f"ref{i:03d}.py"
            path.write_text(row["script"], encoding="utf-8")
            paths.append(path)
        for row, report in zip(placed, pool.map(paths), strict=True):
            if not report.ok or report.scene is None:
                continue
            ran += 1
            checks, reasons = placement_checks(row["instruction"], report.scene)
            references_checked += bool(checks)
            for label, holds in checks.items():
                relation = label.removeprefix(PLACEMENT).split()[1]
                checked[relation] += 1
                rejected[relation] += not holds
            if reasons:
                any_rejected += 1
                messages.extend(f"{row['name']}: {r[:160]}" for r in reasons)
    print(f"BlendNet dev requests stating a placement: {len(placed)} of {len(rows)}; their references that ran: {ran}")
    print(f"references with a placement checked (both parts named in the scene): {references_checked}")
    print(f"references rejected by a placement check: {any_rejected} ({any_rejected / max(references_checked, 1):.1%} of those checked)")
    for relation, count in checked.most_common():
        print(f"  {relation:8s} checked {count:3d}, rejects {rejected[relation]:3d}")
    for line in messages[: args.show]:
        print(f"      {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
