"""The gallery pages (server-rendered Jinja2): the grid with search and filters, an exemplar's detail, the submit page."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, PlainTextResponse

from .browse_api import exemplar_detail, list_exemplars, make_filters
from .context import ServiceContext
from .jobs_api import Ctx

router = APIRouter(include_in_schema=False)
PER_PAGE = 48
STATUSES = ("ok", "error", "timeout", "crash", "rejected")
SOURCES = ("recipe", "generated", "imported", "user")


def banners(ctx: ServiceContext) -> list[str]:
    """What is switched off, and the setting that switches it on (shown on every page)."""
    out = []
    if not ctx.settings.llm_base_url:
        why = f" ({ctx.llm_note})" if ctx.llm_note else ""
        out.append(
            f"No LLM configured{why}: generation returns the nearest verified exemplar. `bpywright model install qwen2.5-coder-1.5b` "
            "serves one on this machine, or set BPYWRIGHT_LLM_BASE_URL (e.g. a `vllm serve` /v1)."
        )
    else:
        out.append(f"Scripts are written by {ctx.answerer()}.")
    store = ctx.store.status()
    if not store.clip_enabled:
        why = store.clip_reason.removeprefix("CLIP off: ").removeprefix("CLIP off")
        out.append(f"CLIP is off: search and similar renders use text and perceptual hashes. Why: {why}")
    return out


def _page(request: Request, name: str, **values) -> HTMLResponse:
    templates = request.app.state.templates
    return templates.TemplateResponse(request, name, values)


def _choice(value: str | None, allowed: tuple[str, ...]) -> str | None:
    return value if value in allowed else None


@router.get("/", response_class=HTMLResponse)
async def gallery(
    ctx: Ctx,
    request: Request,
    q: str = "",
    status: str = "",
    version: str = "",
    source: str = "",
    symbol: str = "",
    page: str = "1",
) -> HTMLResponse:
    """The grid of exemplars: search box, filters, pagination (bad parameters are ignored, not refused)."""
    q, symbol = q.strip()[:500], symbol.strip()[:200]
    version = version.strip() if re.fullmatch(r"\d+\.\d+", version.strip()) else ""
    number = int(page) if page.isdigit() and 0 < int(page) < 100_000 else 1
    filters = make_filters(_choice(status, STATUSES), version or None, _choice(source, SOURCES), symbol or None)
    listing = await run_in_threadpool(list_exemplars, ctx, q or None, filters, (number - 1) * PER_PAGE, PER_PAGE)
    pages = max(1, -(-listing.total // PER_PAGE))
    params = {
        "q": q,
        "status": _choice(status, STATUSES) or "",
        "version": version,
        "source": _choice(source, SOURCES) or "",
        "symbol": symbol,
    }
    return _page(
        request,
        "gallery.html",
        listing=listing,
        page=number,
        query=urlencode({k: v for k, v in params.items() if v}),
        pages=pages,
        params=params,
        statuses=STATUSES,
        sources=SOURCES,
        banners=await run_in_threadpool(banners, ctx),
    )


@router.get("/exemplars/{exemplar_id}", response_class=HTMLResponse)
async def exemplar_page(request: Request, exemplar_id: str, ctx: Ctx) -> HTMLResponse:
    """One exemplar: render, highlighted script (copy, download), lint and run reports, timings, similar renders."""
    detail = await run_in_threadpool(exemplar_detail, ctx, exemplar_id)
    if detail is None:
        return _page(request, "missing.html", what=f"exemplar {exemplar_id}", banners=[])
    return _page(
        request, "exemplar.html", d=detail, e=detail.exemplar, report=detail.exemplar.report, banners=await run_in_threadpool(banners, ctx)
    )


@router.get("/exemplars/{exemplar_id}/script.py", response_class=PlainTextResponse)
async def exemplar_script(exemplar_id: str, ctx: Ctx) -> PlainTextResponse:
    """The exemplar's script as a download."""
    exemplar = await run_in_threadpool(ctx.store.get, exemplar_id)
    if exemplar is None:
        raise HTTPException(404, f"no exemplar {exemplar_id!r}")
    headers = {"Content-Disposition": f'attachment; filename="bpywright-{exemplar.id}.py"'}
    return PlainTextResponse(exemplar.script, media_type="text/x-python; charset=utf-8", headers=headers)


@router.get("/submit", response_class=HTMLResponse)
async def submit_page(request: Request, ctx: Ctx) -> HTMLResponse:
    """Submit a prompt (generate) or a script (validate) and watch it progress live."""
    return _page(request, "submit.html", banners=await run_in_threadpool(banners, ctx))
