"""Access control for the service: a Host allow-list (DNS rebinding), a bearer token for what runs code or writes,
browser sessions (a random cookie mapped to a server-side session, never the token) with an Origin check on what they
change, and the proof the Blender add-on asks for before it sends the token (a challenge answered with the token's
HMAC) with replies signed for it."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import re
import secrets
import threading
import time
from collections.abc import Iterable
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs, urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..config import LOOPBACK_HOSTS

COOKIE = "bpywright_session"
READ_METHODS = {"GET", "HEAD", "OPTIONS"}
OPEN_PATHS = ("/login", "/static/")  # the page that takes the token, and the stylesheets it needs
PROOF_PATH = "/api/v1/proof"
# Domain separation: a proof answer can never be replayed as a reply signature, nor the other way round.
PROOF_CONTEXT = b"bpywright service proof v1\n"
REPLY_CONTEXT = b"bpywright reply v1\n"
NONCE = re.compile(r"[0-9a-f]{32,128}")
SESSION_SECONDS = 12 * 3600
MAX_SESSIONS = 1000
_NAME = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?")


def is_loopback(host: str) -> bool:
    """True for names and addresses that only this machine can reach."""
    return host.strip("[]") in LOOPBACK_HOSTS or host.startswith("127.")


def host_of(header: str) -> str | None:
    """The host part of a Host header ('[::1]:8000' → '::1', 'example.org:80' → 'example.org'); None when malformed.

    A bracketed host must be an IPv6 address, followed by nothing or ':PORT' ('[::1]evil.com' is malformed); an
    unbracketed one is a DNS name or IPv4 address with at most one ':PORT'."""
    header = header.strip().lower()
    if header.startswith("["):
        close = header.find("]")
        inner, rest = header[1:close], header[close + 1 :]
        if close < 0 or (rest and not re.fullmatch(r":\d{1,5}", rest)):
            return None
        try:
            ipaddress.IPv6Address(inner)
        except ValueError:
            return None
        return inner
    name, colon, port = header.partition(":")
    if (colon and not re.fullmatch(r"\d{1,5}", port)) or not _NAME.fullmatch(name):
        return None
    return name


def proof(token: str, nonce: str, port: int) -> str:
    """The service's answer to a challenge: HMAC-SHA256(token, context, nonce, the port it listens on)."""
    return hmac.new(token.encode(), PROOF_CONTEXT + f"{nonce}\n{port}".encode(), hashlib.sha256).hexdigest()


def reply_signature(token: str, nonce: str, method: str, path: str, status: int, body: bytes) -> str:
    """The signature of one reply: HMAC-SHA256(token, context, the request's nonce, method, path, status, body)."""
    head = REPLY_CONTEXT + f"{nonce}\n{method} {path}\n{status}\n".encode()
    return hmac.new(token.encode(), head + body, hashlib.sha256).hexdigest()


class LoginSessions:
    """Browser sessions: a random id per sign-in, mapped here to its expiry; the cookie never holds the token."""

    def __init__(self, seconds: float = SESSION_SECONDS, limit: int = MAX_SESSIONS) -> None:
        self.seconds, self.limit = seconds, limit
        self._expiry: dict[str, float] = {}
        self._lock = threading.Lock()

    def start(self) -> str:
        """A new session's id (the oldest session ends when there are `limit` of them)."""
        sid = secrets.token_urlsafe(32)
        with self._lock:
            self._drop_expired()
            while len(self._expiry) >= self.limit:
                self._expiry.pop(min(self._expiry, key=self._expiry.__getitem__))
            self._expiry[sid] = time.monotonic() + self.seconds
        return sid

    def valid(self, sid: str) -> bool:
        """True for the id of a session that has not expired or ended."""
        with self._lock:
            expiry = self._expiry.get(sid)
            if expiry is None:
                return False
            if expiry <= time.monotonic():
                del self._expiry[sid]
                return False
            return True

    def end(self, sid: str) -> None:
        with self._lock:
            self._expiry.pop(sid, None)

    def _drop_expired(self) -> None:
        now = time.monotonic()
        for sid in [s for s, t in self._expiry.items() if t <= now]:
            del self._expiry[sid]


class AccessControl:
    """Pure ASGI middleware: malformed or wrong Host → 400; no or wrong token → 401 (token only when one is configured);
    a cookie-authenticated change from another origin → 403.

    With a token, every request needs it, except reads (GET/HEAD, not /mcp) when the gallery is public.
    The token comes as `Authorization: Bearer …`; browsers sign in at /login and send a session cookie instead.
    A request with `X-Bpywright-Nonce` gets its reply signed (`X-Bpywright-Signature`); /api/v1/proof answers a
    challenge with the token's HMAC, so a client can tell this service from whatever else answers on its port.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str | None,
        allowed_hosts: Iterable[str],
        public_reads: bool = False,
        sessions: LoginSessions | None = None,
    ) -> None:
        self.app = app
        self.token = token or None
        self.allowed = {h.strip().lower().strip("[]") for h in allowed_hosts if h.strip()}
        self.public_reads = public_reads
        self.sessions = sessions if sessions is not None else LoginSessions()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        path = scope.get("path", "")
        host = host_of(headers.get("host", ""))
        if host is None:
            return await _deny(send, 400, f"malformed Host header {headers.get('host', '')[:100]!r}", path=path)
        if "*" not in self.allowed and host not in self.allowed:
            reason = f"Host {host or '(none)'!r} is not allowed (DNS-rebinding guard): add it to BPYWRIGHT_ALLOWED_HOSTS"
            return await _deny(send, 400, reason, path=path)
        if path == PROOF_PATH:
            return await self._prove(scope, send)
        how = self._authorized(headers, scope) if self.token is not None else "open"
        if self.token is not None and not how and not self._open(scope):
            return await _deny(
                send,
                401,
                "this endpoint needs the service token: send `Authorization: Bearer $BPYWRIGHT_API_TOKEN` (browsers: open /login)",
                {"www-authenticate": "Bearer"},
                path,
            )
        if scope.get("method", "GET") not in READ_METHODS and how != "bearer":
            # A browser's session (or, with no token, its mere reach of loopback) is an ambient credential: a change
            # must come from this site's own pages. Clients that are not browsers send no Origin and carry the token.
            if (how == "cookie" and not _same_origin(headers, scope)) or _cross_origin(headers):
                reason = "a browser's change must come from this site's own pages (Origin does not match the Host)"
                return await _deny(send, 403, reason, path=path)
        nonce = headers.get("x-bpywright-nonce", "")
        if self.token is not None and NONCE.fullmatch(nonce):
            send = _Signer(send, self.token, nonce, scope.get("method", "GET"), path).send
        return await self.app(scope, receive, send)

    def _open(self, scope: Scope) -> bool:
        path = scope.get("path", "")
        if path.startswith(OPEN_PATHS):
            return True
        return self.public_reads and scope.get("method", "GET") in READ_METHODS and not path.startswith("/mcp")

    def _authorized(self, headers: dict[str, str], scope: Scope) -> str:
        """'bearer' or 'cookie' for a request that carries the token or a live session, '' otherwise."""
        assert self.token is not None
        auth = headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            offered = auth[7:].strip()
            return "bearer" if offered and hmac.compare_digest(offered.encode(), self.token.encode()) else ""
        if "cookie" in headers:
            try:
                morsel = SimpleCookie(headers["cookie"]).get(COOKIE)
            except CookieError:
                return ""
            return "cookie" if morsel is not None and self.sessions.valid(morsel.value) else ""
        return ""

    async def _prove(self, scope: Scope, send: Send) -> None:
        """Answer a challenge: {'proof': HMAC(token, nonce, port), 'port': the port this server listens on}."""
        if self.token is None:
            reason = "this service has no token, so it cannot prove who it is: create one with `bpywright addon token` and restart serve"
            return await _deny(send, 409, reason, path=PROOF_PATH)
        nonce = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("nonce", [""])[0]
        if not NONCE.fullmatch(nonce):
            return await _deny(send, 422, "nonce: 32 to 128 lowercase hex digits", path=PROOF_PATH)
        port = int((scope.get("server") or ("", 0))[1] or 0)
        body = json.dumps({"proof": proof(self.token, nonce, port), "port": port}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _same_origin(headers: dict[str, str], scope: Scope) -> bool:
    """True when the browser says the request comes from this site: Origin's host:port is the Host header's (or, with no
    Origin, Sec-Fetch-Site says same-origin). Browsers set both; a page elsewhere cannot forge them."""
    origin = headers.get("origin", "")
    if origin and origin != "null":
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == headers.get("host", "").strip().lower()
    return headers.get("sec-fetch-site", "") == "same-origin"


def _cross_origin(headers: dict[str, str]) -> bool:
    """True when a browser says the request comes from another site (an Origin that is not the Host, or Sec-Fetch-Site)."""
    origin = headers.get("origin", "")
    if origin:
        parts = urlsplit(origin)
        return origin == "null" or parts.netloc.lower() != headers.get("host", "").strip().lower()
    return headers.get("sec-fetch-site", "") in ("cross-site", "same-site")


class _Signer:
    """Wraps `send`: holds a reply's start until its body is complete, then adds X-Bpywright-Signature over it.
    A streamed reply (text/event-stream) goes out unsigned and unbuffered: clients act only on signed JSON."""

    def __init__(self, send: Send, token: str, nonce: str, method: str, path: str) -> None:
        self._send, self.token, self.nonce, self.method, self.path = send, token, nonce, method, path
        self.start: Message | None = None
        self.body: list[bytes] = []
        self.passthrough = False

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            kind = dict(message.get("headers", [])).get(b"content-type", b"")
            if kind.startswith(b"text/event-stream"):
                self.passthrough = True
                return await self._send(message)
            self.start = message
            return None
        if message["type"] != "http.response.body" or self.passthrough or self.start is None:
            return await self._send(message)
        self.body.append(message.get("body", b""))
        if message.get("more_body", False):
            return None
        body = b"".join(self.body)
        signature = reply_signature(self.token, self.nonce, self.method, self.path, self.start["status"], body)
        headers = [(k, v) for k, v in self.start.get("headers", []) if k.lower() != b"content-length"]
        headers += [(b"content-length", str(len(body)).encode()), (b"x-bpywright-signature", signature.encode())]
        await self._send({**self.start, "headers": headers})
        await self._send({"type": "http.response.body", "body": body})


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


def login_page(settings, sessions: LoginSessions):
    """GET: a form asking for the token; POST: a correct token starts a session whose random id becomes an HttpOnly,
    SameSite=Strict cookie (the token itself never goes into a cookie, which a browser would send to every port)."""
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, RedirectResponse

    async def login(request: Request):
        if settings.api_token is None:
            return RedirectResponse("/", status_code=303)
        if request.method == "POST":
            offered = str((await request.form()).get("token", ""))
            if hmac.compare_digest(offered.encode(), settings.api_token.encode()):
                response = RedirectResponse("/", status_code=303)
                response.set_cookie(
                    COOKIE,
                    sessions.start(),
                    max_age=int(sessions.seconds),
                    httponly=True,
                    samesite="strict",
                    secure=request.url.scheme == "https",
                )
                return response
            return HTMLResponse(LOGIN_FORM.format(message="Wrong token."), status_code=401)
        return HTMLResponse(LOGIN_FORM.format(message="This service needs its token (BPYWRIGHT_API_TOKEN)."))

    return login
