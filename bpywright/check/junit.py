"""JUnit XML of a check: a testsuite per Blender version, a testcase per script on it.

Script faults (an exception, a rejected script, blocking lint) are <failure>; a timeout or crash is
<error>; an expected failure is <skipped type="xfail">. Advisory problems (advisory lint, a moved
render, an unexpected pass) are <failure> only under --fail-on advisory, else properties and system-out.
"""

from __future__ import annotations

import socket
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from .models import CaseResult, CheckSummary, FailOn


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
        return "skipped"
    return "failure" if fail_on == "advisory" and case.advisory else None


def _testcase(suite: ET.Element, case: CaseResult, fail_on: FailOn) -> str | None:
    element = ET.SubElement(
        suite, "testcase", classname=case.target, name=f"{case.script} [{case.target}]", file=case.script, time=f"{case.seconds:.3f}"
    )
    if case.line:
        element.set("line", str(case.line))
    _properties(element, _case_properties(case))
    kind = _outcome_element(case, fail_on)
    if kind == "skipped":
        ET.SubElement(element, "skipped", type="xfail", message=f"expected failure: {_message(case)}")
    elif kind is not None:
        if case.outcome in ("failed", "error"):
            kind_type = case.message.split(":", 1)[0] if case.message else case.status
            body = "\n".join([*case.reasons, "", case.traceback]).strip()
            ET.SubElement(element, kind, type=kind_type, message=_message(case)).text = body
        else:
            ET.SubElement(
                element, kind, type=case.outcome if case.outcome == "xpass" else "advisory", message=case.advisory[0]
            ).text = "\n".join(case.advisory)
    ET.SubElement(element, "system-out").text = case.summary
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
            kind = _testcase(suite, case, summary.fail_on)
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
    path.parent.mkdir(parents=True, exist_ok=True)
    junit_tree(summary).write(path, encoding="utf-8", xml_declaration=True)
    return path
