"""How often the critic's structural checks reject a verified answer: BlendNet's human-verified reference scripts run in
Blender and checked against their own instructions (a seeded sample). Every rejection here is a false one.

    .venv/bin/python bench/structure.py [--n 120] [--seed 7]

Prints, per check, how many references it rejects and a few of them with the reason, so a check that misfires on real
answers is seen before it costs a user a heal round.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.graph.review.structure import structure_checks  # noqa: E402
from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=120)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, default=4, help="examples printed per check")
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    sample = random.Random(args.seed).sample(rows, min(args.n, len(rows)))
    rejected: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    ran = any_check = 0
    with tempfile.TemporaryDirectory() as tmp, WorkerPool(2, RunOptions(render=False, timeout=60)) as pool:
        paths = []
        for i, row in enumerate(sample):
            path = Path(tmp) / f"ref{i:03d}.py"
            path.write_text(row["script"], encoding="utf-8")
            paths.append(path)
        for row, report in zip(sample, pool.map(paths), strict=True):
            if not report.ok:
                continue
            ran += 1
            checks, reasons = structure_checks(row["instruction"], report.scene)
            any_check += bool(checks)
            for name in checks:
                rejected[name] += 1
                examples[name].append(f"{row['name']}: {'; '.join(reasons)[:160]}")
    print(f"BlendNet dev references that ran: {ran} of {len(sample)} (seed {args.seed})")
    print(f"rejected by any structural check (false rejections): {any_check} ({any_check / max(ran, 1):.1%})")
    for name, count in rejected.most_common():
        print(f"  {name:14s} rejects {count:3d} ({count / max(ran, 1):.1%})")
        for line in examples[name][: args.show]:
            print(f"      {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
