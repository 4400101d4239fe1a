"""Access control for the service: a Host allow-list (DNS rebinding) and a bearer token for what runs code or writes."""

from __future__ import annotations

import hmac
import json
from collections.abc import Iterable
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

from ..config import LOOPBACK_HOSTS

COOKIE = "bpywright_token"
READ_METHODS = {"GET", "HEAD", "OPTIONS"}
OPEN_PATHS = ("/login", "/static/")  # the page that takes the token, and the stylesheets it needs


def is_loopback(host: str) -> bool:
    """True for names and addresses that only this machine can reach."""
    return host.strip("[]") in LOOPBACK_HOSTS or host.startswith("127.")


def host_of(header: str) -> str:
    """The host part of a Host header ('[::1]:8000' → '::1', 'example.org:80' → 'example.org')."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class AccessControl:
    """Pure ASGI middleware: wrong Host → 400; no or wrong token → 401 (token only when one is configured).

    With a token, every request needs it, except reads (GET/HEAD, not /mcp) when the gallery is public.
    The token comes as `Authorization: Bearer …` or, for browsers, the cookie that /login sets.
    """

    def __init__(self, app: ASGIApp, *, token: str | None, allowed_hosts: Iterable[str], public_reads: bool = False) -> None:
        self.app = app
        self.token = token or None
        self.allowed = {h.strip().lower().strip("[]") for h in allowed_hosts if h.strip()}
        self.public_reads = public_reads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = host_of(headers.get("host", ""))
        if "*" not in self.allowed and host not in self.allowed:
            reason = f"Host {host or '(none)'!r} is not allowed (DNS-rebinding guard): add it to BPYWRIGHT_ALLOWED_HOSTS"
            return await _deny(send, 400, reason, path=scope.get("path", ""))
        if self.token is None or self._open(scope) or self._authorized(headers, scope):
            return await self.app(scope, receive, send)
        return await _deny(
            send,
            401,
            "this endpoint needs the service token: send `Authorization: Bearer $BPYWRIGHT_API_TOKEN` (browsers: open /login)",
            {"www-authenticate": "Bearer"},
            scope.get("path", ""),
        )

    def _open(self, scope: Scope) -> bool:
        path = scope.get("path", "")
        if path.startswith(OPEN_PATHS):
            return True
        return self.public_reads and scope.get("method", "GET") in READ_METHODS and not path.startswith("/mcp")

    def _authorized(self, headers: dict[str, str], scope: Scope) -> bool:
        assert self.token is not None
        offered = ""
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            offered = auth[7:].strip()
        elif "cookie" in headers:
            morsel = SimpleCookie(headers["cookie"]).get(COOKIE)
            offered = morsel.value if morsel is not None else ""
        elif scope.get("path") == "/login":
            offered = parse_qs(scope.get("query_string", b"").decode()).get("token", [""])[0]
        return bool(offered) and hmac.compare_digest(offered.encode(), self.token.encode())


async def _deny(send: Send, status: int, reason: str, extra: dict[str, str] | None = None, path: str = "") -> None:
    # MCP clients show a JSON-RPC error's message; everyone else gets {"detail": reason}
    payload = (
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": reason}} if path.startswith("/mcp") else {"detail": reason}
    )
    body = json.dumps(payload).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    headers += [(k.encode(), v.encode()) for k, v in (extra or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


LOGIN_FORM = """<!doctype html><title>bpywright: sign in</title><link rel="stylesheet" href="/static/style.css">
<main><h1>bpywright</h1><p>{message}</p><form method="post" action="/login">
<label>Service token <input type="password" name="token" autofocus></label> <button>Sign in</button></form></main>"""


def login_page(settings):
    """GET: a form asking for the token; POST: a correct token becomes an HttpOnly, SameSite=Strict cookie."""
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, RedirectResponse

    async def login(request: Request):
        if settings.api_token is None:
            return RedirectResponse("/", status_code=303)
        if request.method == "POST":
            offered = str((await request.form()).get("token", ""))
            if hmac.compare_digest(offered.encode(), settings.api_token.encode()):
                response = RedirectResponse("/", status_code=303)
                response.set_cookie(COOKIE, settings.api_token, httponly=True, samesite="strict", secure=request.url.scheme == "https")
                return response
            return HTMLResponse(LOGIN_FORM.format(message="Wrong token."), status_code=401)
        return HTMLResponse(LOGIN_FORM.format(message="This service needs its token (BPYWRIGHT_API_TOKEN)."))

    return login
