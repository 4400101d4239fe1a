"""`bpywright heal`: heal one file on a one-worker pool (local or on a cluster), print the rounds (or JSON), write the result.

Like every `command.py`, this is a slice of the CLI (a front door): stdlib imports only at module level.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..cliargs import (
    UsageError,
    add_cluster_flag,
    add_sandbox_flag,
    add_version,
    backend_paths,
    cluster_spec,
    positive_float,
    target_version,
)
from ..config import Settings

if TYPE_CHECKING:
    from ..cluster.spec import ClusterSpec
    from ..harness.options import RunOptions
    from .healer import HealOutcome


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`bpywright heal`'s arguments (import-light: called whenever the CLI parser is built)."""
    parser.add_argument("script", type=Path)
    add_version(parser, "--target")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--write", action="store_true", help="rewrite SCRIPT in place when healing helped")
    out.add_argument("-o", "--output", type=Path, help="write the healed script here")
    parser.add_argument("--max-rounds", type=int, default=5, help="run/fix rounds at most (default 5)")
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.add_argument("--blender", type=Path, help="a Blender executable instead of the bpy module")
    parser.add_argument("--timeout", type=positive_float, default=60.0, help="seconds each run may take (default 60)")
    parser.add_argument("--root", type=Path, help="project folder the script sees read-only (default: its git root, else its folder)")
    add_sandbox_flag(parser)
    add_cluster_flag(parser, "each round (one worker): ")


def heal_source(
    source: str,
    *,
    target: str,
    max_rounds: int,
    options: RunOptions,
    as_file: Path | None = None,
    cluster: ClusterSpec | None = None,
) -> HealOutcome:
    """Heal a script on a one-worker pool (local, or on `cluster`), closed at the end; as_file runs each candidate as that file."""
    from ..cluster.factory import open_pool
    from .healer import heal

    with open_pool(options, cluster=cluster, jobs=1, at_most=1) as pool:
        return heal(source, target=target, max_rounds=max_rounds, run=lambda s: pool.run(source=s, options=options, as_file=as_file))


def render_outcome(outcome: HealOutcome) -> str:
    """Each round's rules, diff and status, then the final verdict, for people."""
    out = [f"before: {outcome.status_before}" + (f" ({outcome.failure_before})" if outcome.failure_before else "")]
    for r in outcome.rounds:
        rules = ", ".join(f"{a.rule} (line {', '.join(map(str, a.lines))})" for a in r.applied)
        out.append(f"\nround {r.round}: {rules}" + (f" — explains the failure: {r.explained}" if r.explained else ""))
        out.append(r.diff.rstrip())
        result = r.status + (f": {r.failure}" + (f" (line {r.line})" if r.line else "") if r.failure else "")
        out.append(f"→ {result}" + (f"  [{r.note}]" if r.note else ""))
    if outcome.status_before == "ok":
        out.append("\nnothing to heal: the script passes already")
    elif outcome.healed:
        out.append(f"\nhealed: the script passes on Blender {outcome.target} after {len(outcome.rounds)} round(s)")
    elif not outcome.rounds:
        out.append("\nnot healed: no rule matches this failure")
    else:
        out.append(f"\nnot healed: still {outcome.status_after}" + (f" ({outcome.failure_after})" if outcome.failure_after else ""))
    return "\n".join(out)


def run(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright heal`: rules first, round by round, never leaving the script worse; exit 0 only if it passes."""
    from ..harness.options import RunOptions

    if not args.script.is_file():
        raise UsageError(f"no such script: {args.script}")
    if args.max_rounds < 1:
        raise UsageError("--max-rounds must be >= 1")
    if args.blender is not None and not args.blender.is_file():
        raise UsageError(f"Blender executable not found: {args.blender}")
    target = target_version(args, settings)
    blender, python = backend_paths(args, settings)
    cluster = cluster_spec(args, settings)
    source = args.script.read_text(encoding="utf-8")
    options = RunOptions(
        render=False,
        timeout=args.timeout,
        blender=blender or settings.blender,
        python=python,
        sandbox=settings.sandbox and not args.no_sandbox,
        root=args.root,
        args=getattr(args, "script_args", []),
    )
    outcome = heal_source(source, target=target, max_rounds=args.max_rounds, options=options, as_file=args.script, cluster=cluster)
    if args.json:
        print(outcome.model_dump_json(indent=2))
    else:
        print(render_outcome(outcome))
    destination: Path | None = args.output or (args.script if args.write and outcome.script != source else None)
    if destination is not None:
        destination.write_text(outcome.script, encoding="utf-8")
        print(f"wrote {destination}", file=sys.stderr)
    return 0 if outcome.healed else 1
