"""llama-cpp-python's OpenAI-compatible server behind a guard: bpywright's own API key, a loopback Host, no browser Origin.

Run by path (`python llama_serve.py ARGS`: llama_cpp.server's own arguments), never imported by bpywright. The key
comes in the environment (BPYWRIGHT_LLAMA_KEY, removed at once), not on the command line other users can read.
Requests whose Host is not this server's loopback address (DNS rebinding) or that carry an Origin (a web page)
get 403 before llama.cpp sees them; every route then wants the key (llama_cpp's own bearer check).
"""

from __future__ import annotations

import os
import sys

KEY_ENV = "BPYWRIGHT_LLAMA_KEY"


class Guard:
    """ASGI middleware: 403 for a Host other than ours or any Origin header."""

    def __init__(self, app, hosts: set[str]):
        self.app = app
        self.hosts = hosts

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
        await self.app(scope, receive, send)


def main() -> None:
    key = os.environ.pop(KEY_ENV, "")
    if not key:
        sys.exit(f"{KEY_ENV} is not set: this server is started by bpywright")
    import llama_cpp.server.__main__ as server_main

    real_create_app = server_main.create_app

    def guarded_create_app(server_settings, model_settings):
        server_settings.api_key = key
        port = server_settings.port
        app = real_create_app(server_settings=server_settings, model_settings=model_settings)
        return Guard(app, {f"127.0.0.1:{port}", f"localhost:{port}"})

    server_main.create_app = guarded_create_app  # type: ignore[assignment]
    server_main.main()


if __name__ == "__main__":
    main()
