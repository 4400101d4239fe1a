"""How often the technique checks reject a verified answer: the BlendNet dev requests that name a technique (a colour, a
metal, glass, text, copies …), their human-verified reference scripts run in Blender and checked against their own
instructions. BlendNet verified the shapes, not the materials: a rejection is a false one, or a technique the reference
left out (a "metal shaft" in a grey diffuse colour, metallic 0).

    .venv/bin/python bench/technique_false_rejections.py [--show 4] [--data BlendNetHuman.dev.jsonl]

Prints how many requests name a technique, how many references each kind of check rejects, and a few of the messages.
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

from bpywright.graph.review.techniques import check, techniques  # noqa: E402
from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--show", type=int, default=4, help="messages printed per kind of check")
    parser.add_argument("--data", type=Path, default=DATA, help="the BlendNet dev set (JSON lines)")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text(encoding="utf-8").splitlines() if line.strip()]
    named = [(row, found) for row in rows if (found := techniques(row["instruction"]))]
    checked: collections.Counter[str] = collections.Counter()
    rejected: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    ran = any_rejected = 0
    with tempfile.TemporaryDirectory() as tmp, WorkerPool(2, RunOptions(render=False, timeout=60)) as pool:
        paths = []
        for i, (row, _) in enumerate(named):
            path = Path(tmp) / f"ref{i:03d}.py"
            path.write_text(row["script"], encoding="utf-8")
            paths.append(path)
        for (row, found), report in zip(named, pool.map(paths), strict=True):
            if not report.ok or report.scene is None or report.scene.fps is None:
                continue
            ran += 1
            failed = False
            for t in found:
                result = check(t, report.scene)
                checked[t.kind] += 1
                if not result.ok:
                    failed = True
                    rejected[t.kind] += 1
                    examples[t.kind].append(f"{row['name']}: {result.message[:150]}")
            any_rejected += failed
    print(f"BlendNet dev requests naming a technique: {len(named)} of {len(rows)}; their references that ran: {ran}")
    print(f"references rejected by any technique check: {any_rejected} ({any_rejected / max(ran, 1):.1%})")
    for kind, count in checked.most_common():
        print(f"  {kind:10s} checked {count:3d}, rejects {rejected[kind]:3d}")
        for line in examples[kind][: args.show]:
            print(f"      {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
