"""Per-snippet lint time: warm checkers (dmypy + pyright language server) vs cold CLI runs.

    .venv/bin/python bench/lint.py [--cold 5] [--warm 30] [--data ../shared/data/blendnet/BlendNetHuman.dev.jsonl]

cold      = ruff + mypy + pyright CLIs with an empty mypy cache (what a one-off check costs)
cached    = the same CLIs with mypy's cache kept between runs (what `bpywright lint` does)
warm      = `Linter`: ruff CLI, dmypy, pyright-langserver kept running, checkers in parallel
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bpywright.harness.lint import Linter, lint_source  # noqa: E402
from bpywright.rules import rule_pack  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "blendnet" / "BlendNetHuman.dev.jsonl"


def snippets(data: Path, n: int) -> list[str]:
    """The first n BlendNet scripts."""
    with data.open(encoding="utf-8") as fh:
        return [json.loads(line)["script"] for _, line in zip(range(n), fh)]


def timed(fn, items: list[str]) -> list[float]:
    """Seconds per item."""
    out = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", type=int, default=5, help="snippets for the cold and cached runs")
    parser.add_argument("--warm", type=int, default=30, help="snippets for the warm run")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    items = snippets(args.data, max(args.cold, args.warm))
    rules = rule_pack("4.5")  # the drift rules and node-socket check (no api-check: no index root)
    cold = timed(lambda s: lint_source(s, rules=rules, shared_cache=False), items[: args.cold])
    lint_source(items[0], rules=rules)  # fill the shared mypy cache once
    cached = timed(lambda s: lint_source(s, rules=rules), items[: args.cold])
    with Linter(rules=rules) as linter:
        start = time.perf_counter()
        linter.lint(items[0])
        startup = time.perf_counter() - start
        warm = timed(linter.lint, items[: args.warm])
    med = statistics.median
    print(f"cold CLI   ({len(cold)} snippets): median {med(cold):6.2f}s  mean {statistics.mean(cold):6.2f}s")
    print(f"cached CLI ({len(cached)} snippets): median {med(cached):6.2f}s  mean {statistics.mean(cached):6.2f}s")
    print(
        f"warm       ({len(warm)} snippets): median {med(warm):6.3f}s  p95 {sorted(warm)[int(0.95 * (len(warm) - 1))]:6.3f}s  (start-up {startup:.1f}s once)"
    )
    print(f"ratio cold/warm: {med(cold) / med(warm):.1f}x   cached/warm: {med(cached) / med(warm):.1f}x")


if __name__ == "__main__":
    main()
