"""create_app: the FastAPI application (JSON API under /api/v1, gallery pages, OpenAPI at /docs), built per call."""

from __future__ import annotations

import logging
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ..config import Settings
from ..harness.options import RunOptions
from .access import AccessControl, LoginSessions, login_page
from .context import ServiceContext, start_local_llm
from .highlight import highlight
from .jobs import JobQueue
from .limits import RequestLimits

HERE = Path(__file__).parent
log = logging.getLogger(__name__)


def open_context(settings: Settings, pool: Any = None, store: Any = None) -> ServiceContext:
    """The app's context: the given pool/store, or ones opened here (and closed with the app). Nothing heavy is loaded yet."""
    owns_pool, owns_store = pool is None, store is None
    if pool is None:
        from ..cluster.factory import open_pool
        from ..cluster.spec import parse_cluster

        # local workers start on first job; on a cluster (BPYWRIGHT_CLUSTER) one actor per CPU starts now
        pool = open_pool(
            RunOptions(
                **settings.run_limits(), sandbox=settings.sandbox, blender=settings.blender, max_script_bytes=settings.max_request_bytes
            ),
            cluster=parse_cluster(settings.cluster),
            default_jobs=settings.workers,
        )
    if store is None:
        from ..exemplars.store import ExemplarStore

        store = ExemplarStore.open(settings, clip=True)  # CLIP itself loads on first use
    (settings.artifacts / "service").mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="renders-", dir=settings.artifacts / "service"))
    jobs = JobQueue(concurrency=pool.size, waiting=settings.queue_size, scratch=scratch)
    served, local_llm, note = start_local_llm(settings)  # no endpoint configured: the installed local model, stopped with the app
    return ServiceContext(
        settings=served,
        pool=pool,
        store=store,
        jobs=jobs,
        scratch=scratch,
        owns_pool=owns_pool,
        owns_store=owns_store,
        local_llm=local_llm,
        llm_note=note,
    )


def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    """422 with each problem's location and message (never echoing the request's input back)."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in errors]
    reason = "; ".join(f"{'.'.join(map(str, d['loc']))}: {d['msg']}" for d in detail[:5]) or "invalid request"
    return JSONResponse({"detail": detail, "reason": reason}, status_code=422)


def _internal_error(request: Request, exc: Exception) -> JSONResponse:
    """500 that names the failure; the server keeps serving."""
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return JSONResponse(
        {"detail": f"internal error: {type(exc).__name__}: {exc} (a bpywright bug; the server log has the traceback)"}, status_code=500
    )


def create_app(settings: Settings, *, pool: Any = None, store: Any = None) -> FastAPI:
    """A new app for these settings; a given pool/store is used as is and left open at shutdown."""
    from ..mcp.http import McpEndpoint
    from . import browse_api, jobs_api, pages

    mcp = McpEndpoint(lambda: app.state.ctx, settings.max_request_bytes)  # MCP tools over the same context, built on first use

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        ctx = open_context(settings, pool, store)
        app.state.ctx = ctx
        try:
            async with mcp.running():
                yield
        finally:
            ctx.close()

    app = FastAPI(
        title="bpywright", version="1", lifespan=lifespan, description="Prompt → validated Blender Python script; the exemplar gallery."
    )
    templates = Jinja2Templates(directory=HERE / "templates")
    templates.env.filters["highlight"] = highlight
    app.state.templates = templates
    app.add_middleware(RequestLimits, max_bytes=settings.max_request_bytes)
    sessions = LoginSessions()
    app.add_middleware(
        AccessControl,
        token=settings.api_token,
        allowed_hosts=settings.allowed_hosts,
        public_reads=settings.public_gallery,
        sessions=sessions,
    )
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _internal_error)
    app.include_router(jobs_api.router)
    app.include_router(browse_api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.add_route("/login", login_page(settings, sessions), methods=["GET", "POST"], include_in_schema=False)
    # An ASGI app on the exact path (a Mount would redirect /mcp to /mcp/): Starlette's Route runs an endpoint that is not
    # a function as an ASGI app, but its annotation names only request handlers.
    app.add_route("/mcp", mcp, include_in_schema=False)  # type: ignore[arg-type]
    return app
