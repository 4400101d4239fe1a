"""The read-only endpoints of /api/v1: status, symbol search, exemplars (list, search, detail) and their files."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from fastapi import APIRouter, HTTPException, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse

from ..harness.sandbox import sandbox_status
from .context import ServiceContext
from .jobs_api import Ctx
from .schemas import VERSION_PATTERN, ExemplarDetail, ExemplarList, ServiceStatus, SymbolHit, SymbolResults, card, file_url

router = APIRouter(prefix="/api/v1", tags=["browse"])
MAX_SEARCH = 1000  # search results paginate over at most this many hits
StatusFilter = Literal["ok", "error", "timeout", "crash", "rejected"]
SourceFilter = Literal["recipe", "generated", "imported", "user"]


def service_status(ctx: ServiceContext) -> ServiceStatus:
    """Everything /status reports (blocking: probes Blender once and the LLM endpoint every 30 s)."""
    from ..harness.backend import BackendError

    try:
        blender = ctx.pool.backend.version()
    except BackendError as exc:
        blender = f"unavailable: {exc}"
    reachable, llm_detail = ctx.llm_status()
    store = ctx.store.status()
    versions = ctx.index_versions()
    index_detail = f"indexes: {', '.join(versions)}" if versions else "no symbol index: run `bpywright ingest` (symbol search answers 503)"
    return ServiceStatus(
        blender_version=blender,
        backend=ctx.pool.backend.name,
        sandbox=sandbox_status(ctx.settings.sandbox),
        llm_configured=bool(ctx.settings.llm_base_url),
        llm_reachable=reachable,
        llm_detail=llm_detail,
        llm_model=ctx.settings.llm_model,
        clip_enabled=store.clip_enabled,
        clip_reason=store.clip_reason,
        index_versions=versions,
        index_detail=index_detail,
        pool_size=ctx.pool.size,
        running=ctx.jobs.running,
        queue_depth=ctx.jobs.depth,
        queue_capacity=ctx.jobs.waiting,
        exemplar_count=store.count,
        exemplar_groups=store.groups,
    )


@router.get("/status", response_model=ServiceStatus)
async def get_status(ctx: Ctx) -> ServiceStatus:
    """Blender version, backend, sandbox, LLM, CLIP, symbol indexes, pool and queue, exemplar count."""
    return await run_in_threadpool(service_status, ctx)


@router.get("/search/symbols", response_model=SymbolResults, responses={503: {"description": "No symbol index: run `bpywright ingest`."}})
async def search_symbols(
    ctx: Ctx,
    q: str = Query(min_length=1, max_length=500),
    k: int = Query(10, ge=1, le=100),
    version: str | None = Query(None, pattern=VERSION_PATTERN, description="Blender version of the index (default: the service's target)"),
    usage: bool = Query(False, description="also rank by what verified scripts for similar prompts use (what the generator sees)"),
) -> SymbolResults:
    """Hybrid search over the bpy symbols of one Blender version."""
    from ..ingest.search import IndexMissing

    target = ctx.target(version)

    def search() -> SymbolResults:
        hits = ctx.symbol_index(target).search(q, k, mode="hybrid+usage" if usage else "hybrid")
        return SymbolResults(
            version=target,
            query=q,
            hits=[
                SymbolHit(
                    name=h.symbol.name,
                    kind=h.symbol.kind,
                    score=h.score,
                    signature=h.symbol.signature,
                    type=h.symbol.type,
                    description=h.symbol.description or "",
                    uri=h.symbol.uri,
                )
                for h in hits
            ],
        )

    try:
        return await run_in_threadpool(search)
    except IndexMissing as exc:
        raise HTTPException(503, str(exc)) from exc


def make_filters(status: str | None, version: str | None, source: str | None, symbol: str | None):
    """Store filters from query parameters (None when nothing filters)."""
    from ..exemplars.store import Filters

    if not any((status, version, source, symbol)):
        return None
    return Filters(status=status, blender_version=version, source=source, symbol=symbol)


def list_exemplars(ctx: ServiceContext, q: str | None, filters, offset: int, limit: int) -> ExemplarList:
    """One page of the store, or of its search results for q."""
    if q:
        # one hit past the page says whether another page exists; total is then a lower bound
        hits = ctx.store.search(q, filters=filters, k=min(MAX_SEARCH, offset + limit + 1))
        items = [card(h.exemplar, h) for h in hits[offset : offset + limit]]
        return ExemplarList(items=items, total=len(hits), offset=offset, limit=limit, q=q)
    page = ctx.store.list(filters=filters, offset=offset, limit=limit)
    return ExemplarList(items=[card(e) for e in page.items], total=page.total, offset=page.offset, limit=page.limit)


@router.get("/exemplars", response_model=ExemplarList)
async def get_exemplars(
    ctx: Ctx,
    q: str | None = Query(None, max_length=500, description="Text (and CLIP, when on) search over prompts, symbols and scripts."),
    status: StatusFilter | None = None,
    version: str | None = Query(None, pattern=VERSION_PATTERN),
    source: SourceFilter | None = None,
    symbol: str | None = Query(None, max_length=200, description="Only exemplars whose script uses this bpy name."),
    offset: int = Query(0, ge=0, le=1_000_000),
    limit: int = Query(50, ge=1, le=200),
) -> ExemplarList:
    """Exemplars, newest first, filtered and paginated; with q, search results in rank order."""
    filters = make_filters(status, version, source, symbol)
    return await run_in_threadpool(list_exemplars, ctx, (q or "").strip() or None, filters, offset, limit)


def exemplar_detail(ctx: ServiceContext, exemplar_id: str, k: int = 8) -> ExemplarDetail | None:
    """An exemplar with its near-duplicate group and similar renders (None when unknown)."""
    exemplar = ctx.store.get(exemplar_id)
    if exemplar is None:
        return None
    similar = [h for h in ctx.store.similar(exemplar.id, k=k) if h.exemplar.id != exemplar.id]
    members = [e for e in ctx.store.members(exemplar.id) if e.id != exemplar.id]
    return ExemplarDetail(
        exemplar=exemplar,
        render_url=file_url(exemplar.render_path),
        thumbnail_url=file_url(exemplar.thumbnail_path),
        group=[card(e) for e in members],
        similar=[card(h.exemplar, h) for h in similar],
    )


@router.get("/exemplars/{exemplar_id}", response_model=ExemplarDetail)
async def get_exemplar(exemplar_id: str, ctx: Ctx) -> ExemplarDetail:
    """One exemplar with its script, reports, group members and similar renders."""
    detail = await run_in_threadpool(exemplar_detail, ctx, exemplar_id)
    if detail is None:
        raise HTTPException(404, f"no exemplar {exemplar_id!r}")
    return detail


def store_file(ctx: ServiceContext, relpath: str) -> Path:
    """A file of the store's files dir, or 404 (also for any path that leaves it)."""
    try:
        path = ctx.store.file(relpath)
    except (ValueError, OSError) as exc:
        raise HTTPException(404, f"no such file: {relpath!r}") from exc
    if not path.is_file():
        raise HTTPException(404, f"no such file: {relpath!r}")
    return path


@router.get("/files/{relpath:path}", response_class=FileResponse)
async def get_file(relpath: str, ctx: Ctx) -> FileResponse:
    """A render or thumbnail by its content-addressed path (immutable: cached for a year)."""
    path = store_file(ctx, relpath)
    return FileResponse(path, headers={"Cache-Control": "public, max-age=31536000, immutable"})


@router.get("/exemplars/{exemplar_id}/{which}", response_class=FileResponse)
async def get_exemplar_image(exemplar_id: str, which: Literal["render", "thumbnail"], ctx: Ctx) -> FileResponse:
    """An exemplar's render or thumbnail PNG."""
    exemplar = await run_in_threadpool(ctx.store.get, exemplar_id)
    relpath = None if exemplar is None else exemplar.render_path if which == "render" else exemplar.thumbnail_path or exemplar.render_path
    if relpath is None:
        raise HTTPException(404, f"exemplar {exemplar_id!r} has no {which}")
    return FileResponse(store_file(ctx, relpath))
