"""The deterministic healer: match a run's failure (and static findings) to drift rules, fix, re-run, never leave it worse."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel

from ..harness.diagnostics import LintReport
from ..harness.report import RunReport
from .base import FixScope, statement_lines
from .pack import BY_ID, apply_rules, line_map, map_line, parse, rules_for
from .unbound import LINT_UNDEFINED

SCHEMA_VERSION = 1
_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
T = TypeVar("T")
LONGER_FACTOR = 4  # a fix that turns an error into a timeout is run once more with this many times the time limit …
LONGER_CAP_S = 600.0  # … but at most this many seconds (no second run when the limit is already this long)


def longer_limit(limit: float) -> float | None:
    """The budget of the second run a timeout after a fix gets: 4 × the limit, at most 600 s (None: no longer run)."""
    longer = min(limit * LONGER_FACTOR, LONGER_CAP_S)
    return longer if longer > limit else None


@dataclass(frozen=True)
class Slow(Generic[T]):
    """How a heal treats a fix after which the script runs past the time limit instead of raising its error: the limit,
    and (longer set) the same run with a longer budget, tried once before the fix is judged."""

    limit: float
    longer: float | None = None
    run_longer: Callable[[T], RunReport] | None = None


@dataclass(frozen=True)
class PastTheLimit:
    """A fixed script that ran past the time limit: the seconds it ran past (None: unknown), the note, and whether the
    fix is kept as it is (False: the second, longer run ended otherwise, and that run judges the fix)."""

    seconds: float | None
    note: str
    kept: bool = True


def join_notes(*notes: str) -> str:
    """A round's notes on one line."""
    return "; ".join(n for n in notes if n)


def past_the_limit(old: RunReport, new: RunReport, candidate: T, slow: Slow[T] | None) -> tuple[RunReport, PastTheLimit | None]:
    """A fix after which the script no longer raises its error but runs past the limit is progress: run it once more with
    the longer budget (when there is one). Returns the report to judge the fix by and, when it still runs past, why the
    fix is kept (None: judge it as usual)."""
    if old.status != "error" or new.status != "timeout":
        return new, None
    if slow is not None and slow.run_longer is not None and slow.longer:
        new = slow.run_longer(candidate)
        if new.status != "timeout":
            ended = "passed" if new.ok else f"ended in {new.status}"
            return new, PastTheLimit(
                None, f"ran past {slow.limit:g} s after the fix; {ended} on a second run with {slow.longer:g} s", False
            )
        past = f"ran past {slow.limit:g} s after the fix, and past {slow.longer:g} s on a second run"
        seconds: float | None = slow.longer
    elif slow is not None:
        past, seconds = f"ran past {slow.limit:g} s after the fix", slow.limit
    else:
        past, seconds = "ran past the time limit after the fix", None
    return new, PastTheLimit(seconds, f"{past}; not an error: the fix is kept")


class AppliedRule(BaseModel):
    """One rule a round applied, and the lines (of the script before the round) it touched."""

    rule: str
    title: str
    lines: list[int]


class HealResult(BaseModel):
    """What one healing step did: the new script, the rules applied, the diff, which rule explains the failure."""

    script: str
    applied: list[AppliedRule] = []
    diff: str = ""
    changed: bool = False
    explained: str | None = None


class FileChange(BaseModel):
    """One project file a heal changed: its path (relative to the project root), the rules applied there, its diff."""

    path: str
    applied: list[AppliedRule] = []
    diff: str = ""


class HealRound(BaseModel):
    """One run/fix round: the rules applied, the diff, and how the fixed script ran (file: where it fails now, in a project)."""

    round: int
    applied: list[AppliedRule]
    diff: str
    explained: str | None
    status: str
    failure: str | None = None
    line: int | None = None
    reverted: bool = False
    note: str = ""
    ran_past: float | None = None  # the fixed script ran past this many seconds with no error (the fix is kept)
    file: str | None = None
    files: list[FileChange] = []


class HealOutcome(BaseModel):
    """The whole heal: the final script (never worse than the input), rounds, and whether it passes now.

    A project heal adds the root, the entry (relative to it), every changed file with its own diff (files) and healed
    text (texts, by relative path), and why a failure outside the project cannot be healed (not_healable).
    """

    schema_version: int = SCHEMA_VERSION
    target: str
    healed: bool
    status_before: str
    failure_before: str | None
    status_after: str
    failure_after: str | None
    rounds: list[HealRound]
    script: str
    diff: str
    explained: bool = False
    root: str | None = None
    entry: str | None = None
    files: list[FileChange] = []
    texts: dict[str, str] = {}
    not_healable: str | None = None
    ran_past: float | None = None  # the fixed script ran past this many seconds without an error (a kept, slow fix)
    stopped: str = ""  # why the heal stopped, in words (it passes, no rule explains the failure, the rounds ran out …)


def stop_reason(report: RunReport, rounds: list[HealRound], max_rounds: int, target: str, excluded: set[str], where: str = "") -> str:
    """Why a heal loop ended, for people: it passes, the rounds ran out, or what the rules could not do with the failure."""
    if report.ok:
        return "it passes" if rounds else "it passed already"
    if report.status == "timeout" and rounds and rounds[-1].status == "timeout" and not rounds[-1].reverted:
        past = rounds[-1].note.split(";")[0]
        return f"the fixed script {past} with no error raised: it may need more time (--timeout), not another rule"
    if len(rounds) >= max_rounds:
        return f"the {max_rounds} round(s) ran out (--max-rounds) while it still fails"
    error = run_error(report)
    at = f" at {where}" if where else ""
    if not error:
        return f"it ends in {report.status}{at}, which no rule explains (rules explain errors a run raises)"
    explaining = [r.id for r in rules_for(target) if r.explains_error(error)]
    if not explaining:
        return f"no rule explains this failure{at}"
    tried = [r for r in explaining if r in excluded]
    if tried == explaining:
        return f"{', '.join(tried)} explain(s) this failure{at} but were tried and got no further (excluded)"
    left = [r for r in explaining if r not in excluded]
    also = f" ({', '.join(tried)} tried and set aside)" if tried else ""
    return f"{', '.join(left)} explain(s) this failure{at} but found nothing to change there{also}"


def unified_diff(old: str, new: str, name: str = "script.py") -> str:
    """A unified diff between two versions of a script."""
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True), f"a/{name}", f"b/{name}"))


def _lint_lines(report: LintReport | None) -> dict[str, frozenset[int]]:
    """Lines that static findings point each rule at: rule diagnostics by id, undefined names for missing-import."""
    found: dict[str, set[int]] = {}
    for d in report.diagnostics if report else []:
        if d.tool == "rules" and d.code in BY_ID:
            found.setdefault(d.code, set()).add(d.line)
        elif d.severity == "blocking" and LINT_UNDEFINED.search(d.message):
            found.setdefault("missing-import", set()).add(d.line)
    return {k: frozenset(v) for k, v in found.items()}


def heal_once(
    script: str, run_report: RunReport | None, lint_report: LintReport | None, target: str = "4.5", exclude: frozenset[str] = frozenset()
) -> HealResult:
    """One deterministic step: every sure fix, plus the rules that explain the failure applied at its statement."""
    error = run_error(run_report)
    line = run_report.exception.line if error and run_report and run_report.exception else None
    return fix_file(script, error, line, lint_report, target, exclude)


def run_error(run_report: RunReport | None) -> str:
    """The failure text rules match ('Type: message', the whole message), or '' when the run did not end in an error."""
    if run_report is None or run_report.status != "error":
        return ""
    exc = run_report.exception
    # Rules match the whole message (an operator's wrapped Python error names the real one on a later line).
    return f"{exc.type}: {exc.message}" if exc is not None else run_report.failure


def fix_file(
    script: str,
    error: str,
    line: int | None,
    lint_report: LintReport | None = None,
    target: str = "4.5",
    exclude: frozenset[str] = frozenset(),
    module_names: tuple[str, ...] = (),
    name: str = "script.py",
    only: frozenset[str] | None = None,
) -> HealResult:
    """Fix one file: every sure fix, plus the rules that explain `error` at the statement of `line` (None: sure fixes only).

    module_names: the names the module an AttributeError/ImportError names defines (a project's own helper module).
    only: the rules `error` is given to (None: every rule that explains it), for a caller's frame in a project.
    """
    module = parse(script)
    if module is None:
        return HealResult(script=script)
    failing = statement_lines(module, line if error else None)
    lint_lines = _lint_lines(lint_report)
    rules = [r for r in rules_for(target) if r.id not in exclude]
    explaining = [r for r in rules if error and r.explains_error(error) and (only is None or r.id in only)]
    plan = [(r, FixScope(target, failing, error, module_names)) for r in explaining]
    plan += [(r, FixScope(target, lint_lines.get(r.id, frozenset()))) for r in rules if r not in explaining]
    new, hits = apply_rules(script, plan)
    applied: dict[str, set[int]] = {}
    for hit in hits:
        applied.setdefault(hit.rule, set()).add(hit.line)
    explained = next((r.id for r in explaining if r.id in applied and applied[r.id] & failing), None)
    explained = explained or next((r.id for r in explaining if r.id in applied), None)
    return HealResult(
        script=new,
        applied=[AppliedRule(rule=rid, title=BY_ID[rid].title, lines=sorted(lines)) for rid, lines in applied.items()],
        diff=unified_diff(script, new, name),
        changed=new != script,
        explained=explained,
    )


def progress_point(report: RunReport) -> tuple[int, ...] | None:
    """How far a failed run got: the script's frame lines, outermost first (None when unknown)."""
    if report.exception is None:
        return None
    frames = _FRAME.findall(report.exception.traceback or "")
    if frames:
        script = frames[0][0]
        lines = tuple(int(line) for name, line in frames if name == script)
        if lines:
            return lines
    return (report.exception.line,) if report.exception.line else None


_RANK = {"ok": 3, "error": 2, "timeout": 1, "crash": 1, "rejected": 0}


def compare_runs(old_script: str, old: RunReport, new_script: str, new: RunReport) -> str:
    """'better', 'same' or 'worse': a failure earlier in the script, or crash/timeout instead of an error, is worse."""
    if _RANK[new.status] != _RANK[old.status]:
        return "better" if _RANK[new.status] > _RANK[old.status] else "worse"
    if new.ok:
        return "better"
    before, after = progress_point(old), progress_point(new)
    if before is not None and after is not None:
        back = {b: a for a, b in line_map(old_script, new_script).items()}
        after = tuple(map_line(line, back) for line in after)
        if after < before:
            return "worse"
        if after > before:
            return "better"
    return "same" if old.failure == new.failure else "better"


def heal(
    script: str,
    *,
    target: str = "4.5",
    max_rounds: int = 5,
    run: Callable[[str], RunReport],
    lint: Callable[[str], LintReport] | None = None,
    slow: Slow[str] | None = None,
) -> HealOutcome:
    """Run → fix → re-run until the script passes or no rule makes progress; a round that makes it worse is reverted.

    A fix after which the script runs past the time limit instead of raising its error is kept (slow: run once more
    with a longer budget first); the heal stops there, with the note saying so.
    """
    original = script
    report = first = run(script)
    rounds: list[HealRound] = []
    excluded: set[str] = set()
    while not report.ok and len(rounds) < max_rounds:
        result = heal_once(script, report, lint(script) if lint else None, target, frozenset(excluded))
        if not result.changed:
            break
        new_report, past = past_the_limit(report, run(result.script), result.script, slow)
        verdict = "past" if past and past.kept else compare_runs(script, report, result.script, new_report)
        ids = [a.rule for a in result.applied]
        entry = HealRound(
            round=len(rounds) + 1,
            applied=result.applied,
            diff=result.diff,
            explained=result.explained,
            status=new_report.status,
            failure=new_report.failure or None,
            line=new_report.exception.line if new_report.exception else None,
            note=past.note if past else "",
        )
        if verdict == "worse":
            # Keep the rule that explains the failure for one more try on its own; drop the others (or it, if alone).
            keep = result.explained if result.explained and len(ids) > 1 else None
            excluded.update(i for i in ids if i != keep)
            entry.reverted = True
            entry.note = join_notes(
                entry.note, f"reverted: the fixed script failed earlier or worse; excluded {', '.join(i for i in ids if i != keep)}"
            )
            rounds.append(entry)
            continue
        if verdict == "same" and result.explained:
            excluded.add(result.explained)  # it changed the script but not the failure: do not loop on it
            entry.note = join_notes(entry.note, f"no progress on the failure from {result.explained}")
        script, report = result.script, new_report
        rounds.append(entry)
        if past and past.kept:
            entry.ran_past = past.seconds
            break  # no error left to match a rule to
    return HealOutcome(
        target=target,
        healed=report.ok,
        status_before=first.status,
        failure_before=first.failure or None,
        status_after=report.status,
        failure_after=report.failure or None,
        rounds=rounds,
        script=script,
        diff=unified_diff(original, script),
        explained=any(r.explained for r in rounds if not r.reverted),
        ran_past=rounds[-1].ran_past if rounds and report.status == "timeout" else None,
        stopped=stop_reason(
            report,
            rounds,
            max_rounds,
            target,
            excluded,
            f"line {report.exception.line}" if report.exception and report.exception.line else "",
        ),
    )
