"""What the service's reports say, read on the Blender side: did a script pass here, what was checked, where it failed.

Standard library only (no bpy), so it is plain data in, plain data out.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any


def sha256(text: str) -> str:
    """The SHA-256 of a script's UTF-8 text: what a validation is bound to."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def major_minor(version: str | None) -> str:
    """'4.5' of '4.5.3' (or of '4.5'); '' for nothing."""
    return ".".join(str(version or "").split(".")[:2])


@dataclass(frozen=True)
class Finding:
    """One thing to look at in a script: a lint diagnostic or the exception the run raised, at a line."""

    line: int
    severity: str  # blocking | advisory | error
    source: str  # ruff, mypy, pyright, rules, syntax, run
    message: str


@dataclass
class Verdict:
    """Whether a script passed for one Blender version in the sandbox, and what was checked to say so."""

    passed: bool
    checked: list[str] = field(default_factory=list)  # one line per check, for the panel
    problem: str = ""  # why it did not pass ('' when it did)
    findings: list[Finding] = field(default_factory=list)


def judge(run: dict[str, Any] | None, lint: dict[str, Any] | None, version: str) -> Verdict:
    """Passed = ran cleanly in the service's sandbox on this Blender MAJOR.MINOR, with no blocking lint finding."""
    findings = lint_findings(lint)
    checked: list[str] = []
    if lint is not None:
        blocking = sum(1 for f in findings if f.severity == "blocking")
        tools = ", ".join(str(t.get("tool")) for t in lint.get("tools", []) if t.get("status") == "ok") or "none ran"
        checked.append(f"lint ({tools}): {blocking} blocking, {len(findings) - blocking} advisory")
    if run is None:
        return Verdict(False, checked, "the service sent no run report: nothing was run", findings)
    ran_on = str(run.get("blender_version") or "?")
    line = f"ran in the sandbox ({run.get('sandbox', '?')}) on Blender {ran_on}: {run.get('status')}"
    total = (run.get("timings") or {}).get("total")
    if total:
        line += f" in {float(total):.1f} s"
    checked.append(line)
    render = run.get("render") or {}
    if render:
        share = render.get("nonblank_fraction")
        shown = f", {share:.0%} non-blank" if isinstance(share, (int, float)) else ""
        checked.append(f"rendered {render.get('width')}×{render.get('height')} ({render.get('engine')}){shown}")
    exception = run.get("exception") or {}
    if exception:
        where = exception.get("line") or 0
        findings.append(Finding(int(where), "error", "run", f"{exception.get('type')}: {exception.get('message', '')}"[:300]))
    findings.sort(key=lambda f: (f.line, f.severity != "error"))
    if run.get("status") != "ok":
        failure = f"{exception.get('type')}: {exception.get('message')}" if exception else str(run.get("status"))
        return Verdict(False, checked, f"the sandboxed run failed ({failure[:200]})", findings)
    if major_minor(ran_on) != version:
        return Verdict(False, checked, f"it ran on Blender {ran_on}, not on this Blender {version}", findings)
    if any(f.severity == "blocking" for f in findings):
        return Verdict(False, checked, "lint has blocking findings", findings)
    return Verdict(True, checked, "", findings)


def lint_findings(lint: dict[str, Any] | None) -> list[Finding]:
    """The diagnostics of a LintReport as findings."""
    out = []
    for d in (lint or {}).get("diagnostics", []):
        source = str(d.get("tool", "lint"))
        code = d.get("code")
        message = f"[{code}] {d.get('message', '')}" if code else str(d.get("message", ""))
        out.append(Finding(int(d.get("line") or 0), str(d.get("severity", "advisory")), source, message[:300]))
    return out
