"""Run a check: lint every script once, run each on every Blender through a warm WorkerPool, judge the cases."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..untrusted_files import refuse_links
from .baseline import compare_to_baseline, render_name
from .discovery import Script
from .models import BlenderTarget, CaseResult
from .project_config import CheckConfig
from .verdict import judge, lint_findings

if TYPE_CHECKING:
    from ..cluster.factory import Pool
    from ..cluster.spec import ClusterSpec
    from ..harness.diagnostics import LintReport
    from ..harness.report import RunReport

# Each target's cases are linted against its own version's stubs (`bpywright typings build --blender-version X`)
# and gated by them; a version without built stubs (an old executable) is linted against these, for information
# only (an API flagged for 4.5 may be right for 3.x).
LINT_VERSION = "4.5"
DEFAULT_TIMEOUT = 60.0
DEFAULT_RESOLUTION = 256


@dataclass(frozen=True)
class CheckPlan:
    """Everything a check run needs, settled from the command line and the config file."""

    scripts: list[Script]
    root: Path
    targets: list[BlenderTarget]
    config: CheckConfig
    artifacts: Path
    lint: bool = True
    jobs: int | None = 1  # None on a cluster: one worker per CPU of it
    sandbox: bool = True
    engine: str = "workbench"
    resolution: int = DEFAULT_RESOLUTION
    timeout: float | None = None  # --timeout: overrides the config's timeout and timeouts table
    baseline: Path | None = None
    threshold: int = 10
    cluster: ClusterSpec | None = None  # --cluster / BPYWRIGHT_CLUSTER: run on Ray instead of this machine
    index_root: Path | None = None  # settings.index_dir: api-check joins the lint for each version indexed there
    limits: tuple[tuple[str, Any], ...] = ()  # the sandbox limits (the config's, capped by the operator's) and the operator's timeout
    allow_expected_failures: bool = False  # --allow-expected-failures: the config's expected failures pass as xfail

    def timeout_for(self, script: Script) -> float:
        """--timeout, else the config's per-script glob or its timeout capped by the operator's, else the operator's (60 s)."""
        if self.timeout is not None:
            return self.timeout
        ceiling = dict(self.limits).get("timeout", DEFAULT_TIMEOUT)
        per_script = self.config.timeout_for(script.config_rel) if script.config_rel is not None else None
        claimed = per_script or self.config.timeout
        return min(claimed, ceiling) if claimed else ceiling

    def args_for(self, script: Script) -> list[str]:
        """The config's arguments for this script (after '--' in its sys.argv)."""
        return self.config.args_for(script.config_rel) if script.config_rel is not None else []

    def expected_failure(self, script: Script) -> bool:
        """On the config's expected-failure list."""
        return script.config_rel is not None and self.config.is_expected_failure(script.config_rel)

    def artifact(self, target: BlenderTarget, script: Script, suffix: str) -> Path:
        """<artifacts>/<target>/<script path with suffix>."""
        return self.artifacts / target.label / Path(render_name(script.rel)).with_suffix(suffix)


def lint_version(target: BlenderTarget) -> str:
    """The stubs a target's cases are linted against: its own version's when built, else LINT_VERSION (for information)."""
    from ..harness.stubs import StubsError, typings_dir

    try:
        typings_dir(target.major_minor)
    except StubsError:
        return LINT_VERSION
    return target.major_minor


def _lint_all(scripts: list[Script], versions: list[str], index_root: Path | None = None) -> dict[str, dict[Path, LintReport]]:
    """Every script linted once per stubs version (with that version's rule pack): version → script → LintReport."""
    from ..harness.lint import ALL_TOOLS, lint_files
    from ..rules import rule_pack

    return {version: lint_files([s.path for s in scripts], ALL_TOOLS, version, rule_pack(version, index_root)) for version in versions}


def _run_target(plan: CheckPlan, target: BlenderTarget, bar) -> list[RunReport]:
    """Every script on one Blender, concurrently on a warm pool; reports in script order."""
    from ..cluster.factory import open_pool
    from ..harness.options import RunOptions
    from ..harness.summary import one_line

    executable = Path(target.executable) if target.executable else None
    python = Path(target.python) if target.python else None

    def one(pool: Pool, script: Script) -> RunReport:
        options = RunOptions(
            **(dict(plan.limits) | {"timeout": plan.timeout_for(script)}),
            render=True,
            engine=plan.engine,
            resolution=plan.resolution,
            sandbox=plan.sandbox,
            blender=executable,
            python=python,
            args=plan.args_for(script),
        )
        render_to = refuse_links(plan.artifact(target, script, ".png"), "render")
        render_to.unlink(missing_ok=True)  # never leave an earlier run's render beside a failed run
        report = pool.run(script.path, options, render_to=render_to)
        bar.write(one_line(report, f"{script.rel} [{target.label}]"), file=sys.stdout)
        bar.update(1)
        return report

    process = RunOptions(**dict(plan.limits), sandbox=plan.sandbox, blender=executable, python=python)
    with open_pool(process, cluster=plan.cluster, jobs=plan.jobs, at_most=len(plan.scripts)) as pool, ThreadPoolExecutor(pool.size) as ex:
        return list(ex.map(lambda s: one(pool, s), plan.scripts))


def _case(plan: CheckPlan, target: BlenderTarget, script: Script, report: RunReport, lint: LintReport | None) -> CaseResult:
    from ..harness.lint import render_fix_block
    from ..harness.summary import render_summary

    applies = lint is not None and lint.blender_version == target.major_minor
    render = Path(report.render.path) if report.render is not None else None
    visual = compare_to_baseline(render, plan.baseline, target, script.rel, plan.threshold) if plan.baseline is not None else None
    expected = plan.expected_failure(script)
    outcome, message, line, reasons, advisory = judge(report, lint, applies, expected, visual)
    text = [render_summary(report, script.rel)]
    if lint is not None and lint.diagnostics:
        gate = "" if applies else f" (stubs {lint.blender_version}: for information on Blender {target.major_minor})"
        source = script.path.read_text(encoding="utf-8", errors="replace")
        text.append(f"lint{gate}:\n" + render_fix_block(source, lint, include_advisory=True))
    if visual is not None:
        text.append(f"visual: {visual.note}")
    hint = _heal_hint(report, script, target) if outcome in ("failed", "error") else None
    if hint:
        text.append(hint)
    report_path = refuse_links(plan.artifact(target, script, ".json"), "report")
    report_path.parent.mkdir(parents=True, exist_ok=True)
    refuse_links(report_path, "report")  # the folder just made, or found
    report.write(report_path)
    return CaseResult(
        script=script.rel,
        target=target.label,
        blender_version=report.blender_version,
        status=report.status,
        outcome=outcome,
        message=message,
        line=line,
        traceback=report.exception.traceback if report.exception else "",
        reasons=reasons,
        advisory=advisory,
        expected_failure=expected,
        expected_failure_allowed=expected and plan.allow_expected_failures,
        lint_applies=applies,
        lint=lint_findings(lint),
        seconds=report.timings.total,
        report=str(report_path),
        render=str(render) if render else None,
        nonblank_fraction=report.render.nonblank_fraction if report.render else None,
        visual=visual,
        summary="\n".join(text),
        heal=hint,
    )


def _heal_hint(report: RunReport, script: Script, target: BlenderTarget) -> str | None:
    """What `bpywright heal` can do for a failed run (a rule explains it, and where in the project), or why it cannot."""
    from ..harness.job import project_root
    from ..rules.project import heal_hint

    return heal_hint(report, script.path, project_root(script.path), target.major_minor)


def run_check(plan: CheckPlan) -> list[CaseResult]:
    """Lint (in the background) and run every script on every target; one CaseResult per pair, targets first."""
    from tqdm import tqdm

    from ..harness.summary import escape_controls

    total = len(plan.scripts) * len(plan.targets)
    with ThreadPoolExecutor(1) as background:
        versions = sorted({lint_version(t) for t in plan.targets})
        linting = background.submit(_lint_all, plan.scripts, versions, plan.index_root) if plan.lint else None
        with tqdm(total=total, unit="run", file=sys.stderr, disable=None, desc="bpywright check") as bar:
            runs = {target.label: _run_target(plan, target, bar) for target in plan.targets}
        by_version = linting.result() if linting is not None else {}
    first = next(iter(by_version.values()), {})
    for status in next(iter(first.values())).tools if first else []:
        if status.status == "failed":  # the check goes on; the findings of that checker are missing
            print(escape_controls(f"warning: lint: {status.tool} failed: {status.detail}"), file=sys.stderr)
    cases = []
    for target in plan.targets:
        for script, report in zip(plan.scripts, runs[target.label]):
            lint = by_version.get(lint_version(target), {}).get(script.path)
            report.lint = lint
            cases.append(_case(plan, target, script, report, lint))
    return cases
