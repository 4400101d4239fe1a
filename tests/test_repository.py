"""The repository itself: benchmark output kept to what a reader needs."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS_BUDGET_BYTES = 24 * 1024 * 1024  # summaries, tables and contact sheets of every committed benchmark run
RESULTS_BUDGET_FILES = 900


def tracked(under: str) -> list[Path]:
    """Files git tracks under a folder of the repository."""
    out = subprocess.run(["git", "ls-files", "-z", under], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in out.decode().split("\0") if name]


def test_bench_results_stay_within_their_budget() -> None:
    files = [p for p in tracked("bench/results") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    assert len(files) <= RESULTS_BUDGET_FILES, f"{len(files)} files under bench/results (budget {RESULTS_BUDGET_FILES})"
    assert size <= RESULTS_BUDGET_BYTES, f"{size / 2**20:.1f} MiB under bench/results (budget 24 MiB)"


def test_no_per_attempt_rows_are_tracked() -> None:
    """A run's rows per prompt (scripts, reports, renders) stay where the run wrote them; only its summary is committed."""
    deep = [
        p.relative_to(ROOT)
        for p in tracked("bench/results")
        if len(p.relative_to(ROOT / "bench" / "results").parts) > 3
        and not p.relative_to(ROOT).as_posix().startswith("bench/results/generation/qwen2.5-coder-1.5b/")
    ]
    assert deep == [], f"per-attempt rows committed: {deep[:5]}"
