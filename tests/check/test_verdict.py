"""Case outcomes and exit codes under each --fail-on, from real RunReport/LintReport models."""

from __future__ import annotations

import pytest

from bpywright.check.models import CaseResult, VisualCheck
from bpywright.check.verdict import exit_code, judge
from bpywright.harness.diagnostics import Diagnostic, LintReport
from bpywright.harness.report import ExceptionInfo, RunReport


def report(status: str = "ok", exc: ExceptionInfo | None = None) -> RunReport:
    return RunReport(status=status, backend="bpy-module", sandbox="bwrap", exception=exc)  # type: ignore[arg-type]


def lint(severity: str) -> LintReport:
    return LintReport(diagnostics=[Diagnostic(tool="pyright", code="x", severity=severity, line=3, message="no such attribute")])  # type: ignore[arg-type]


def case(outcome: str, advisory: list[str] | None = None, allowed: bool = False) -> CaseResult:
    return CaseResult(
        script="s.py",
        target="blender-4.5.15",
        status="ok",
        outcome=outcome,  # type: ignore[arg-type]
        advisory=advisory or [],
        expected_failure=outcome == "xfail",
        expected_failure_allowed=allowed,
    )


def test_blocking_lint_fails_a_clean_run_only_where_it_applies() -> None:
    outcome, message, line, reasons, _ = judge(report(), lint("blocking"), True, False, None)
    assert (outcome, line) == ("failed", 3) and message.startswith("blocking lint: no such attribute")
    assert judge(report(), lint("blocking"), False, False, None)[0] == "passed"


def test_statuses_map_to_failures_and_errors() -> None:
    exc = ExceptionInfo(type="KeyError", message="'Cube'\nmore", line=7)
    assert judge(report("error", exc), None, False, False, None)[:3] == ("failed", "KeyError: 'Cube'", 7)
    assert judge(report("timeout"), None, False, False, None)[0] == "error"
    assert judge(report("crash"), None, False, False, None)[0] == "error"
    assert judge(report("rejected", ExceptionInfo(type="Rejected", message="NUL bytes")), None, False, False, None)[0] == "failed"


def test_expected_failures_and_advisories() -> None:
    assert judge(report("timeout"), None, False, True, None)[0] == "xfail"
    outcome, *_, advisory = judge(report(), None, False, True, None)
    assert outcome == "xpass" and advisory
    moved = VisualCheck(threshold=10, phash_distance=20, changed=True, note="phash distance 20")
    outcome, *_, advisory = judge(report(), lint("advisory"), True, False, moved)
    assert outcome == "passed" and len(advisory) == 2


@pytest.mark.parametrize(
    ("outcomes", "codes"),
    [
        ([case("passed"), case("xfail", allowed=True)], (0, 0, 0)),
        ([case("passed"), case("xfail")], (1, 1, 0)),  # the repository's claim, not accepted by the operator
        ([case("passed", ["render moved"])], (0, 1, 0)),
        ([case("xpass", ["expected to fail"])], (0, 1, 0)),
        ([case("failed")], (1, 1, 0)),
        ([case("error"), case("passed")], (1, 1, 0)),
    ],
)
def test_exit_codes(outcomes: list[CaseResult], codes: tuple[int, int, int]) -> None:
    assert tuple(exit_code(outcomes, mode) for mode in ("blocking", "advisory", "never")) == codes  # type: ignore[arg-type]
