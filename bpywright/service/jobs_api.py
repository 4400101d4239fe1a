"""The job endpoints of /api/v1: generate, validate, heal, job state, job events (Server-Sent Events), job render."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse

from ..rules.healer import HealOutcome
from .context import ServiceContext
from .jobs import Job, JobKind, QueueFull, Work
from .schemas import GenerateRequest, HealRequest, JobAccepted, JobView, ValidateRequest, ValidateResult
from .work import check_script, generate_work, heal_work, validate_work

router = APIRouter(prefix="/api/v1", tags=["jobs"])
KEEPALIVE_S = 15.0
BUSY: dict[int | str, dict[str, Any]] = {429: {"description": "The job queue is full; retry after the Retry-After header's seconds."}}


def context(request: Request) -> ServiceContext:
    """The app's ServiceContext (a FastAPI dependency)."""
    return request.app.state.ctx


Ctx = Annotated[ServiceContext, Depends(context)]


def view(job: Job) -> JobView:
    """The JSON view of a job."""
    return JobView(
        id=job.id,
        kind=job.kind,
        state=job.state,
        created_at=job.created_at,
        started_at=job.started_at,
        finished_at=job.finished_at,
        events=len(job.events),
        error=job.error,
        render_url=f"/api/v1/jobs/{job.id}/render" if job.render_path else None,
        result=job.result,
        last_event=job.events[-1] if job.events else None,
    )


def accepted(job: Job) -> JSONResponse:
    """202 with the job's id and URLs."""
    body = JobAccepted(
        job_id=job.id, kind=job.kind, state=job.state, job_url=f"/api/v1/jobs/{job.id}", events_url=f"/api/v1/jobs/{job.id}/events"
    )
    return JSONResponse(body.model_dump(), status_code=202, headers={"Location": body.job_url})


def submit(ctx: ServiceContext, kind: JobKind, work: Work) -> Job:
    """Queue a job or answer 429 with Retry-After."""
    try:
        return ctx.jobs.submit(kind, work)
    except QueueFull as exc:
        raise HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)}) from exc


async def finished(job: Job) -> Job:
    """Wait for a job without blocking the event loop."""
    delay = 0.02
    while not job.finished:
        await asyncio.sleep(delay)
        delay = min(0.25, delay * 1.5)
    return job


def outcome_of(job: Job):
    """A finished job's result, or 500 with the bpywright error that stopped it."""
    if job.state == "failed" or job.result is None:
        raise HTTPException(500, f"the {job.kind} job failed inside bpywright: {job.error} (job {job.id})")
    return job.result


@router.post("/generate", status_code=202, response_model=JobAccepted, responses=BUSY)
async def post_generate(req: GenerateRequest, ctx: Ctx) -> JSONResponse:
    """Start a generate job; follow it at events_url (SSE) or job_url."""
    return accepted(submit(ctx, "generate", generate_work(ctx, req)))


@router.post("/validate", response_model=ValidateResult, responses={202: {"model": JobAccepted}, **BUSY})
async def post_validate(req: ValidateRequest, ctx: Ctx):
    """Lint, run and render a script; with wait=false, answer 202 with a job id at once."""
    check_script(req.script, ctx.settings.max_request_bytes)
    job = submit(ctx, "validate", validate_work(ctx, req))
    return outcome_of(await finished(job)) if req.wait else accepted(job)


@router.post("/heal", response_model=HealOutcome, responses={202: {"model": JobAccepted}, **BUSY})
async def post_heal(req: HealRequest, ctx: Ctx):
    """Heal a script with the deterministic rules (run, fix, re-run); the answer holds the healed script and each round."""
    check_script(req.script, ctx.settings.max_request_bytes)
    job = submit(ctx, "heal", heal_work(ctx, req))
    return outcome_of(await finished(job)) if req.wait else accepted(job)


def job_or_404(ctx: ServiceContext, job_id: str) -> Job:
    """A job by id, or 404."""
    job = ctx.jobs.get(job_id)
    if job is None:
        raise HTTPException(404, f"no job {job_id!r} (finished jobs are forgotten after 1000 newer ones)")
    return job


@router.get("/jobs/{job_id}", response_model=JobView)
async def get_job(job_id: str, ctx: Ctx) -> JobView:
    """A job's state, and its result once done."""
    return view(job_or_404(ctx, job_id))


@router.get("/jobs/{job_id}/render", response_class=FileResponse)
async def get_job_render(job_id: str, ctx: Ctx) -> FileResponse:
    """The PNG a job rendered."""
    job = job_or_404(ctx, job_id)
    if job.render_path is None or not job.render_path.is_file():
        raise HTTPException(404, f"job {job_id} has no render (yet)")
    return FileResponse(job.render_path, media_type="image/png")


def sse(event: str, data: str, event_id: int | None = None) -> str:
    """One Server-Sent Events message."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n"


async def stream(job: Job, start: int) -> AsyncIterator[str]:
    """Every progress event from `start` on, then one `result` event with the job's final view."""
    sent, last = start, time.monotonic()
    yield "retry: 2000\n\n"
    while True:
        done = job.finished  # read before the events, so none emitted before the end is missed
        while sent < len(job.events):
            yield sse("progress", job.events[sent].model_dump_json(), sent)
            sent, last = sent + 1, time.monotonic()
        if done:
            yield sse("result", view(job).model_dump_json())
            return
        if time.monotonic() - last > KEEPALIVE_S:
            yield ": keepalive\n\n"
            last = time.monotonic()
        await asyncio.sleep(0.1)


@router.get("/jobs/{job_id}/events", response_class=StreamingResponse, responses={200: {"content": {"text/event-stream": {}}}})
async def get_job_events(job_id: str, request: Request, ctx: Ctx) -> StreamingResponse:
    """Server-Sent Events: `progress` (a ProgressEvent each), then `result` (the JobView); resumes after Last-Event-ID."""
    job = job_or_404(ctx, job_id)
    last_id = request.headers.get("last-event-id", "")
    start = int(last_id) + 1 if last_id.isdigit() else 0
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream(job, start), media_type="text/event-stream", headers=headers)
