"""Lint and run one attempt on the worker pool (a plan-built script skips the lint: its code is the fixed builder)."""

from __future__ import annotations

from ...harness.diagnostics import LintReport, ToolStatus
from ...harness.lint import ALL_TOOLS
from ...harness.options import RunOptions
from ..plans.plan import fixed_builder
from .context import RunContext
from .state import Attempt


def validate_one(attempt: Attempt, ctx: RunContext, options: RunOptions | None = None) -> Attempt:
    """Lint and run one attempt (nothing to run when no script was extracted or it is not Python)."""
    if attempt.failure is not None or attempt.script is None:
        return attempt.model_copy(update={"checked": True})
    render_to = ctx.run_dir / "attempts" / f"{attempt.index:02d}.png"
    render_to.parent.mkdir(parents=True, exist_ok=True)
    report = ctx.worker_pool().run(source=attempt.script, options=options or ctx.job_options(), render_to=render_to)
    lint = plan_lint(ctx.version) if fixed_builder(attempt.script, ctx.version) else ctx.version_linter().lint(attempt.script)
    rendered = str(render_to) if report.render is not None and render_to.is_file() else None
    return attempt.model_copy(update={"run": report, "lint": lint, "render_path": rendered, "checked": True})


PLAN_LINT = "plan-built: its code is the fixed builder (lint-clean, tests/graph/test_plan.py), its PARTS table data"


def plan_lint(version: str) -> LintReport:
    """The lint report of a plan-built script: no checker runs (each listed as skipped, saying why). On a CPU the
    first lint of a request starts mypy's daemon and pyright's server: 10 to 15 s that found nothing in any plan."""
    return LintReport(blender_version=version, tools=[ToolStatus(tool=t, status="skipped", detail=PLAN_LINT) for t in ALL_TOOLS])
