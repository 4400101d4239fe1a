"""JUnit XML of a check: a testsuite per Blender version, a testcase per script on it.

Script faults (an exception, a rejected script, blocking lint) are <failure>; a timeout or crash is
<error>. An expected failure is the checked repository's own claim (its config's expected-failures): accepted by
the operator (--allow-expected-failures) it is <skipped type="xfail">, else <failure type="xfail-refused">; both
messages say whose claim it is. Advisory problems (advisory lint, a moved render, an unexpected pass) are <failure>
only under --fail-on advisory, else properties and system-out. Control characters of script output are escaped.
"""

from __future__ import annotations

import io
import socket
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from ..harness.summary import escape_controls
from ..untrusted_files import write_nofollow
from .models import CaseResult, CheckSummary, FailOn


def xfail_note(case: CaseResult, config: str | None) -> str:
    """Whose claim an expected failure is, and whether the operator accepted it."""
    claim = f"expected failure claimed by the checked repository's config ({config or 'its config file'})"
    return claim + (
        ", accepted (--allow-expected-failures)"
        if case.expected_failure_allowed
        else ", refused: still a failure (accept with --allow-expected-failures)"
    )


def _properties(parent: ET.Element, values: dict[str, object]) -> None:
    props = ET.SubElement(parent, "properties")
    for name, value in values.items():
        if value is not None and value != "":
            ET.SubElement(props, "property", name=name, value=str(value))


def _case_properties(case: CaseResult) -> dict[str, object]:
    values: dict[str, object] = {
        "status": case.status,
        "outcome": case.outcome,
        "blender_version": case.blender_version,
        "lint_applies": case.lint_applies,
        "lint_blocking": sum(f.severity == "blocking" for f in case.lint),
        "lint_advisory": sum(f.severity == "advisory" for f in case.lint),
        "expected_failure": case.expected_failure,
        "report": case.report,
        "render": case.render,
        "nonblank_fraction": case.nonblank_fraction,
    }
    if case.visual is not None:
        values |= {
            "visual_changed": case.visual.changed,
            "phash_distance": case.visual.phash_distance,
            "dhash_distance": case.visual.dhash_distance,
            "visual_note": case.visual.note,
        }
    for n, text in enumerate(case.advisory, 1):
        values[f"advisory_{n}"] = text
    return values


def _message(case: CaseResult) -> str:
    return case.message + (f" (line {case.line})" if case.line else "")


def _outcome_element(case: CaseResult, fail_on: FailOn) -> str | None:
    """Which child marks the case: failure, error, skipped or none."""
    if case.outcome == "failed":
        return "failure"
    if case.outcome == "error":
        return "error"
    if case.outcome == "xfail":
        return "skipped" if case.expected_failure_allowed or fail_on == "never" else "failure"
    return "failure" if fail_on == "advisory" and case.advisory else None


def _testcase(suite: ET.Element, case: CaseResult, fail_on: FailOn, config: str | None = None) -> str | None:
    element = ET.SubElement(
        suite, "testcase", classname=case.target, name=f"{case.script} [{case.target}]", file=case.script, time=f"{case.seconds:.3f}"
    )
    if case.line:
        element.set("line", str(case.line))
    _properties(element, _case_properties(case))
    kind = _outcome_element(case, fail_on)
    if kind == "skipped":
        ET.SubElement(element, "skipped", type="xfail", message=escape_controls(f"{xfail_note(case, config)}: {_message(case)}"))
    elif kind is not None:
        if case.outcome == "xfail":
            body = "\n".join([xfail_note(case, config), *case.reasons, "", case.traceback]).strip()
            message = f"{xfail_note(case, config)}: {_message(case)}"
            ET.SubElement(element, kind, type="xfail-refused", message=escape_controls(message)).text = escape_controls(body)
        elif case.outcome in ("failed", "error"):
            kind_type = case.message.split(":", 1)[0] if case.message else case.status
            body = "\n".join([*case.reasons, "", case.traceback]).strip()
            ET.SubElement(element, kind, type=escape_controls(kind_type), message=escape_controls(_message(case))).text = escape_controls(
                body
            )
        else:
            ET.SubElement(
                element, kind, type=case.outcome if case.outcome == "xpass" else "advisory", message=escape_controls(case.advisory[0])
            ).text = escape_controls("\n".join(case.advisory))
    ET.SubElement(element, "system-out").text = escape_controls(case.summary)
    return kind


def junit_tree(summary: CheckSummary) -> ET.ElementTree:
    """The XML tree of a summary."""
    root = ET.Element("testsuites", name="bpywright check")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    for target in summary.targets:
        cases = [c for c in summary.cases if c.target == target.label]
        suite = ET.SubElement(root, "testsuite", name=target.label, timestamp=stamp, hostname=socket.gethostname())
        _properties(
            suite,
            {
                "blender_version": target.version,
                "backend": target.backend,
                "executable": target.executable,
                "fail_on": summary.fail_on,
                "lint_stubs": summary.lint_stubs,
            },
        )
        counts = {"tests": len(cases), "failures": 0, "errors": 0, "skipped": 0}
        for case in cases:
            kind = _testcase(suite, case, summary.fail_on, summary.config)
            if kind is not None:
                counts[{"failure": "failures", "error": "errors", "skipped": "skipped"}[kind]] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
        suite.set("time", f"{sum(c.seconds for c in cases):.3f}")
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{summary.seconds:.3f}")
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(summary: CheckSummary, path: Path) -> Path:
    """Write the JUnit XML file."""
    data = io.BytesIO()
    junit_tree(summary).write(data, encoding="utf-8", xml_declaration=True)
    return write_nofollow(path, data.getvalue(), "--junit file")
