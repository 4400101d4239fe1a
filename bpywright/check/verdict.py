"""How a run, its lint and its visual check become a case outcome, and the cases an exit code (--fail-on)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .models import OUTCOME_OF_STATUS, CaseResult, FailOn, LintFinding, Outcome, VisualCheck

if TYPE_CHECKING:
    from ..harness.diagnostics import LintReport
    from ..harness.report import RunReport


def lint_findings(lint: LintReport | None) -> list[LintFinding]:
    """The summary's view of a LintReport."""
    if lint is None:
        return []
    return [LintFinding(tool=d.tool, code=d.code, severity=d.severity, line=d.line, message=d.message) for d in lint.diagnostics]


def judge(
    report: RunReport, lint: LintReport | None, lint_applies: bool, expected_failure: bool, visual: VisualCheck | None
) -> tuple[Outcome, str, int | None, list[str], list[str]]:
    """(outcome, message, line, blocking reasons, advisory problems) of one case."""
    outcome: Outcome = OUTCOME_OF_STATUS[report.status]
    message = report.failure if outcome != "passed" else ""
    line = report.exception.line if report.exception is not None and outcome != "passed" else None
    reasons = [message + (f" (line {line})" if line and f"line {line}" not in message else "")] if outcome != "passed" else []
    advisory: list[str] = []
    if lint is not None and lint_applies:
        for d in lint.diagnostics:
            text = f"line {d.line}: {d.message} [{d.tool} {d.code}]"
            (reasons if d.severity == "blocking" else advisory).append(f"{d.severity} lint {text}")
        blocking = lint.blocking
        if blocking and outcome == "passed":
            outcome, message, line = (
                "failed",
                f"blocking lint: {blocking[0].message} [{blocking[0].tool} {blocking[0].code}]",
                blocking[0].line,
            )
    if visual is not None and visual.changed:
        advisory.append(f"render moved: {visual.note}")
    if expected_failure:
        if outcome in ("failed", "error"):
            outcome = "xfail"
        else:
            outcome = "xpass"
            advisory.append("expected to fail (expected-failures in the repository's config) but passed: take it off the list")
    return outcome, message, line, reasons, advisory


def fails(case: CaseResult, fail_on: FailOn) -> bool:
    """True when this case makes the check fail under fail_on."""
    if fail_on == "never":
        return False
    if case.outcome in ("failed", "error"):
        return True
    if case.outcome == "xfail":  # the repository's claim that it fails: a failure unless the operator accepted it
        return not case.expected_failure_allowed
    return fail_on == "advisory" and bool(case.advisory)


def exit_code(cases: list[CaseResult], fail_on: FailOn) -> int:
    """0 when nothing fails under fail_on, else 1."""
    return int(any(fails(case, fail_on) for case in cases))
