"""llama-cpp-python's OpenAI-compatible server behind a guard: bpywright's own API key, a loopback Host, no browser Origin.

Run by path (`python llama_serve.py ARGS`: llama_cpp.server's own arguments), never imported by bpywright. The key
comes in the environment (BPYWRIGHT_LLAMA_KEY, removed at once), not on the command line other users can read.
Requests whose Host is not this server's loopback address (DNS rebinding) or that carry an Origin (a web page)
get 403 before llama.cpp sees them; every route then wants the key (llama_cpp's own bearer check).

The listening socket is bpywright's: it binds the port before starting this server and passes the socket (--bpywright-fd),
so another local user cannot take the port while the model loads. GET /bpywright/proof?nonce=N answers
HMAC-SHA256(key, N): bpywright sends the key and uses answers only once the server has proved it holds it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import socket
import sys
import urllib.parse

KEY_ENV = "BPYWRIGHT_LLAMA_KEY"
FD_FLAG = "--bpywright-fd"
PROOF_PATH = "/bpywright/proof"


class Guard:
    """ASGI middleware: 403 for a Host other than ours or any Origin header."""

    def __init__(self, app, hosts: set[str], key: str = ""):
        self.app = app
        self.hosts = hosts
        self.key = key

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers") or [])
            host = headers.get(b"host", b"").decode("latin-1").lower()
            if host not in self.hosts or b"origin" in headers:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = b"forbidden: only bpywright on this machine may use this server\n"
                await send({"type": "http.response.start", "status": 403, "headers": [(b"content-type", b"text/plain")]})
                await send({"type": "http.response.body", "body": body})
                return
            if scope["type"] == "http" and scope.get("path") == PROOF_PATH:
                await self._prove(scope, send)
                return
        await self.app(scope, receive, send)

    async def _prove(self, scope, send) -> None:
        """{"proof": HMAC-SHA256(key, nonce)}: shows the caller this server holds the key, without sending it."""
        nonce = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1")).get("nonce", [""])[0][:128]
        digest = hmac.new(self.key.encode(), nonce.encode(), hashlib.sha256).hexdigest() if nonce else ""
        body = json.dumps({"proof": digest}).encode()
        await send({"type": "http.response.start", "status": 200 if nonce else 400, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})


def _take_fd(argv: list[str]) -> int:
    """The listening socket's descriptor from FD_FLAG N (removed from argv, which llama_cpp parses next)."""
    if FD_FLAG not in argv:
        sys.exit(f"{FD_FLAG} is not given: this server is started by bpywright, which binds its socket")
    at = argv.index(FD_FLAG)
    fd = int(argv[at + 1])
    del argv[at : at + 2]
    return fd


class _OnSocket:
    """Stands in for the uvicorn module in llama_cpp's main: run(app) serves on the inherited socket, never binds one."""

    def __init__(self, fd: int):
        self.sock = socket.socket(fileno=fd)

    def run(self, app, **_ignored) -> None:
        import uvicorn

        uvicorn.Server(uvicorn.Config(app, log_level="info")).run(sockets=[self.sock])


def main() -> None:
    key = os.environ.pop(KEY_ENV, "")
    if not key:
        sys.exit(f"{KEY_ENV} is not set: this server is started by bpywright")
    fd = _take_fd(sys.argv)
    import llama_cpp.server.__main__ as server_main

    real_create_app = server_main.create_app

    def guarded_create_app(server_settings, model_settings):
        server_settings.api_key = key
        port = server_settings.port
        app = real_create_app(server_settings=server_settings, model_settings=model_settings)
        return Guard(app, {f"127.0.0.1:{port}", f"localhost:{port}"}, key)

    server_main.create_app = guarded_create_app  # type: ignore[assignment]
    server_main.uvicorn = _OnSocket(fd)  # type: ignore[assignment]
    server_main.main()


if __name__ == "__main__":
    main()
