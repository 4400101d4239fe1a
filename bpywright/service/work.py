"""What each kind of job does on its thread: validate (lint + run + render), heal (rules), generate (the graph)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import HTTPException

from ..harness.options import Engine, RunOptions
from ..harness.report import RunReport
from ..rules.healer import HealOutcome, heal
from .context import ServiceContext
from .jobs import Job, Work
from .schemas import GenerateRequest, HealRequest, ValidateRequest, ValidateResult

if TYPE_CHECKING:
    from ..cluster.factory import Pool


def script_problem(script: str, limit: int) -> tuple[int, str] | None:
    """(HTTP status, reason) when a script is not UTF-8 text, holds NUL bytes, or is over the size limit; None when fine."""
    try:
        size = len(script.encode("utf-8"))
    except UnicodeEncodeError as exc:
        return 422, f"script is not valid UTF-8 text ({exc.reason} at character {exc.start}): send the source as UTF-8"
    if size > limit:
        return 413, f"script is {size} bytes; the limit is {limit} (BPYWRIGHT_MAX_REQUEST_BYTES)"
    if "\x00" in script:
        return 422, f"script contains a NUL byte at character {script.index(chr(0))}: not Python source"
    return None


def check_script(script: str, limit: int) -> None:
    """Refuse a script that is not UTF-8 text, holds NUL bytes, or is over the size limit (4xx with the reason)."""
    problem = script_problem(script, limit)
    if problem is not None:
        raise HTTPException(*problem)


def _options(pool: Pool, *, render: bool, timeout: float | None, resolution: int = 256, engine: Engine = "workbench") -> RunOptions:
    """Per-job options on a pool's runtime (the request's timeout, else the operator's: the pool's, from Settings)."""
    seconds = timeout if timeout is not None else pool.options.timeout
    return pool.options.model_copy(update={"render": render, "resolution": resolution, "engine": engine, "timeout": seconds})


def target_of(ctx: ServiceContext, version: str | None) -> tuple[str, Pool]:
    """(MAJOR.MINOR, its pool) of a request's version; 422 with the install command when that runtime is not installed."""
    from ..runtimes import RuntimeMissing, VersionError

    try:
        key = ctx.target(version)
        return key, ctx.pool_for(key)
    except (RuntimeMissing, VersionError) as exc:
        raise HTTPException(422, str(exc)) from exc


def render_file(ctx: ServiceContext, job: Job) -> Path:
    """Where a job's render goes (this process's scratch dir; deleted when the job is forgotten)."""
    return ctx.scratch / f"{job.id}.png"


def validate_work(ctx: ServiceContext, req: ValidateRequest) -> Work:
    """Lint (optional), run and render a script; add it to the gallery when asked and it ran cleanly."""

    version, pool = target_of(ctx, req.blender_version)

    def work(job: Job) -> ValidateResult:
        render_to = render_file(ctx, job) if req.render else None
        if render_to is not None:
            render_to.parent.mkdir(parents=True, exist_ok=True)
        job.emit("run", "started", "lint + run + render" if req.lint else "run + render")
        report = pool.run(
            source=req.script,
            options=_options(pool, render=req.render, timeout=req.timeout, resolution=req.resolution, engine=req.engine),
            render_to=render_to,
        )
        lint = ctx.linter_for(version).lint(req.script) if req.lint else None  # the target version's stubs and rules
        if lint is not None:
            blocking = len(lint.blocking)
            job.emit("lint", "ok" if not blocking else f"{blocking} blocking", seconds=lint.seconds)
        job.emit("run", report.status, report.failure, seconds=report.timings.total)
        rendered = render_to is not None and render_to.is_file()
        job.render_path = render_to if rendered else None
        result = ValidateResult(ok=report.ok, lint=lint, run=report, render_url=f"/api/v1/jobs/{job.id}/render" if rendered else None)
        if req.add_to_gallery and report.ok:
            added = ctx.store.add(
                script=req.script,
                prompt=req.prompt or "(submitted script)",
                report=report,
                render=render_to if rendered else None,
                source="user",
                blender_version=version,  # the store keys exemplars by MAJOR.MINOR: the target that ran it
            )
            result.exemplar_id, result.duplicate_of = added.exemplar.id, added.duplicate_of
            job.emit("accept", "added" if added.created else "already in the gallery", f"exemplar {added.exemplar.id}")
        job.emit("done", report.status)
        return result

    return work


def heal_work(ctx: ServiceContext, req: HealRequest) -> Work:
    """Heal a script with the rule pack, one progress event per run."""

    version, pool = target_of(ctx, req.target)

    def work(job: Job) -> HealOutcome:
        options = _options(pool, render=False, timeout=req.timeout)
        runs = 0

        def run(source: str) -> RunReport:
            nonlocal runs
            runs += 1
            report = pool.run(source=source, options=options)
            job.emit("run" if runs == 1 else "heal", report.status, report.failure, seconds=report.timings.total, attempt=runs - 1)
            return report

        outcome = heal(req.script, target=version, max_rounds=req.max_rounds, run=run)
        job.emit("done", "healed" if outcome.healed else outcome.status_after, f"{len(outcome.rounds)} round(s)")
        return outcome

    return work


def generate_work(ctx: ServiceContext, req: GenerateRequest) -> Work:
    """Run the generation graph, streaming its progress events into the job."""

    version, pool = target_of(ctx, req.blender_version)

    def work(job: Job):
        from ..graph.loop.run import generate
        from ..ingest.search import IndexMissing

        try:
            index = ctx.symbol_index(version)  # loaded once per app, shared by requests
        except IndexMissing:
            index = None  # the retrieve node says so in its progress event
        result = generate(
            req.prompt,
            settings=ctx.settings,
            version=version,
            n=req.n,
            max_rounds=req.max_rounds,
            thread_id=job.id,
            on_event=job.add,
            pool=pool,
            store=ctx.store,
            index=index,
        )
        if result.render_path and Path(result.render_path).is_file():
            job.render_path = Path(result.render_path)
        return result

    return work
