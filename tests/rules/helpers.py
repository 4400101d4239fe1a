"""Shared helpers for rule tests: fix a dedented script, list the rules that fired, fake a runtime failure, heal on Blender."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from bpywright.harness.report import ExceptionInfo, RunReport
from bpywright.rules.healer import HealOutcome, HealResult, heal, heal_once
from bpywright.rules.pack import detect, fix_all


def src(text: str) -> str:
    """A dedented script."""
    return textwrap.dedent(text).lstrip("\n")


def fired(source: str, target: str = "4.5") -> set[str]:
    """Ids of the rules with a sure finding."""
    return {h.rule for h in detect(src(source), target)}


def fixed(source: str, target: str = "4.5") -> str:
    """The script after every sure fix."""
    return fix_all(src(source), target)[0]


def failed(kind: str, message: str, line: int) -> RunReport:
    """A RunReport of a script that raised `kind: message` at `line`."""
    return RunReport(
        status="error", backend="bpy-module", sandbox="rlimits-only", exception=ExceptionInfo(type=kind, message=message, line=line)
    )


def healed_once(source: str, kind: str, message: str, line: int, target: str = "4.5") -> HealResult:
    """heal_once on a script with a fake runtime failure."""
    return heal_once(src(source), failed(kind, message, line), None, target)


def healed_in_blender(
    run: Callable[[str], RunReport],
    script: str,
    error: str = "",
    *,
    check: str = "",
    max_rounds: int = 2,
    before: str = "error",
) -> tuple[HealOutcome, RunReport]:
    """Heal `script` on real Blender: it must first end with status `before` and `error` in its failure, heal, and run
    again with `check` (Python lines appended) passing. Returns the outcome and the report of that last run."""
    outcome = heal(script, run=run, max_rounds=max_rounds)
    assert outcome.status_before == before, f"expected {before!r} before healing, got {outcome.status_before!r}: {outcome.failure_before}"
    assert error in (outcome.failure_before or ""), f"{error!r} not in the failure before healing: {outcome.failure_before}"
    assert outcome.healed, f"not healed in {len(outcome.rounds)} round(s): {outcome.failure_after}"
    report = run(outcome.script + check)
    assert report.status == "ok", f"the healed script{' with its check' if check else ''} ended {report.status!r}: {report.exception}"
    return outcome, report
