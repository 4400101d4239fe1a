"""The `bpywright heal` command: heal one file with a warm one-worker pool, print the rounds (or JSON), write the result."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..config import Settings
from ..harness.options import RunOptions
from ..harness.pool import WorkerPool
from .healer import HealOutcome, heal


def heal_source(source: str, *, target: str, max_rounds: int, options: RunOptions, as_file: Path | None = None) -> HealOutcome:
    """Heal a script with one warm worker, closed at the end; as_file runs each candidate as that file of its project."""
    with WorkerPool(1, options) as pool:
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


def heal_file(args: argparse.Namespace, settings: Settings) -> int:
    """Run the heal command for parsed CLI args; exit 0 only when the healed script passes."""
    source = args.script.read_text(encoding="utf-8")
    blender = args.blender or settings.blender
    options = RunOptions(
        render=False,
        timeout=args.timeout,
        blender=blender,
        python=getattr(args, "python", None),
        sandbox=settings.sandbox and not getattr(args, "no_sandbox", False),
        root=getattr(args, "root", None),
        args=getattr(args, "script_args", []),
    )
    outcome = heal_source(source, target=args.target, max_rounds=args.max_rounds, options=options, as_file=args.script)
    if args.json:
        print(outcome.model_dump_json(indent=2))
    else:
        print(render_outcome(outcome))
    destination: Path | None = args.output or (args.script if args.write and outcome.script != source else None)
    if destination is not None:
        destination.write_text(outcome.script, encoding="utf-8")
        print(f"wrote {destination}", file=sys.stderr)
    return 0 if outcome.healed else 1
