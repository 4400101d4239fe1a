"""Warm workers that outlive the threads that started them: the spawner thread against forking from the caller's thread.

    .venv/bin/python bench/spawner.py [--rounds 5] [--jobs 4]

One run, both ways: `ours` starts every worker from bpywright's spawner thread; `baseline` forks from the calling thread
(what the pool did before: bwrap's --die-with-parent then kills a worker when that thread ends). Each round is one
`WorkerPool.map` (its own executor threads, as a CLI batch, a request or a Ray task would be) after a warm(); the table
shows workers started and the wall time of the rounds after the first.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.harness import sandbox  # noqa: E402
from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402


def measure(scripts: list[Path], rounds: int, jobs: int) -> tuple[int, float, int]:
    """(workers started, seconds for rounds 2..N, reports not ok)."""
    options = RunOptions(render=False, timeout=30)
    with WorkerPool(jobs, options) as pool:
        pool.warm()
        pool.map(scripts, options)  # the first round starts workers showing the scripts' folder
        time.sleep(1.0)  # the gap between a batch's end and the next request
        start, bad = time.perf_counter(), 0
        for _ in range(rounds - 1):
            bad += sum(not r.ok for r in pool.map(scripts, options))
            time.sleep(1.0)
        return pool.workers_started, time.perf_counter() - start - (rounds - 1), bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scripts = []
        for i in range(args.jobs * 2):
            path = Path(tmp) / f"s{i}.py"
            path.write_text(f"import bpy\nbpy.ops.mesh.primitive_cube_add(size={i + 1})\n")
            scripts.append(path)
        ours = measure(scripts, args.rounds, args.jobs)
        real = sandbox.on_spawner_thread
        sandbox.on_spawner_thread = lambda fn: fn()  # type: ignore[assignment]  # the baseline: fork from the caller's thread
        try:
            base = measure(scripts, args.rounds, args.jobs)
        finally:
            sandbox.on_spawner_thread = real
    print(f"{args.jobs} workers, {args.rounds} rounds of {len(scripts)} scripts (each round a map() on its own threads)")
    print("| | workers started | rounds 2..N wall s | reports not ok |")
    print("|---|---|---|---|")
    for name, (started, wall, bad) in (("ours (spawner thread)", ours), ("baseline (caller's thread)", base)):
        print(f"| {name} | {started} | {wall:.2f} | {bad} |")
    print(f"baseline/ours wall: {base[1] / ours[1]:.2f}x; workers started: {base[0]} vs {ours[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
