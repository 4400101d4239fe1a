"""Shared helpers for rule tests: fix a dedented script, list the rules that fired, fake a runtime failure."""

from __future__ import annotations

import textwrap

from bpywright.harness.report import ExceptionInfo, RunReport
from bpywright.rules.healer import HealResult, heal_once
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
