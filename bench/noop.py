"""No-op rebuilds: `typings build` and `ingest` with unchanged inputs, timed against the full build they skip.

    .venv/bin/python bench/noop.py [--runs 5] [--inventory ../shared/data/objects_inv/blender_4.4_objects.inv]

Each build runs once from scratch into a temporary folder (the baseline), then `--runs` times again with nothing
changed; the p50 of the no-op runs is printed beside the full build with their ratio, all measured in this one run.
The tests (tests/harness/test_stubs.py, tests/ingest/test_pipeline.py) assert that a no-op rewrites no file; how long
it takes depends on the machine's load, so it is measured here, not asserted there.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.config import Settings  # noqa: E402
from bpywright.harness.stubs import build_typings  # noqa: E402
from bpywright.ingest.pipeline import ingest  # noqa: E402

DEFAULT_INVENTORY = ROOT.parent / "shared" / "data" / "objects_inv" / "blender_4.4_objects.inv"


def timed(action: Callable[[], object]) -> float:
    """Seconds one call takes."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def measure(name: str, action: Callable[[], object], runs: int) -> None:
    """Print the full build, the no-op p50 and their ratio."""
    full = timed(action)
    noop = statistics.median(timed(action) for _ in range(runs))
    print(f"{name:<16} full build {full:8.2f} s   no-op p50 {noop:6.3f} s   full/no-op {full / noop:8.0f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="no-op runs per build (default 5)")
    parser.add_argument("--inventory", type=Path, default=DEFAULT_INVENTORY, help="objects.inv merged by ingest")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bpywright-noop-") as tmp:
        out = Path(tmp)
        measure("typings build", lambda: build_typings("4.5", out_root=out / "typings"), args.runs)
        settings = Settings(artifacts=out / "artifacts", embedder="none")  # BM25-only, as the test's index
        inventory = str(args.inventory) if args.inventory.is_file() else None
        measure("ingest", lambda: ingest(inventory=inventory, out_root=settings.index_dir, settings=settings), args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
