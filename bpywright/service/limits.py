"""RequestLimits: ASGI middleware that refuses oversized bodies (413) and JSON that is not UTF-8 (400) before any route runs."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
DRAIN_BYTES = 16 * 2**20  # an over-limit body up to this size is read (and dropped) before the 413, so the client sees the answer


async def _drain(receive: Receive, budget: int) -> None:
    """Read and discard the rest of a request body (up to budget bytes): closing on an unread body resets the client."""
    while budget > 0:
        message = await receive()
        if message["type"] != "http.request":
            return
        budget -= len(message.get("body", b""))
        if not message.get("more_body", False):
            return


async def _answer(send: Send, status: int, reason: str, path: str = "") -> None:
    answer: dict = {"detail": reason}
    if path == "/mcp":  # MCP clients surface a JSON-RPC error body as the call's error message (else only "error response")
        answer = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": reason}}
    body = json.dumps(answer).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RequestLimits:
    """Buffer request bodies up to max_bytes (the routes read them again from the buffer); refuse larger or non-UTF-8 JSON ones."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in WITH_BODY:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        too_big = f"request body over {self.max_bytes} bytes (BPYWRIGHT_MAX_REQUEST_BYTES)"
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit():
                await _answer(send, 400, "Content-Length is not a number", scope["path"])
                return
            if int(length) > self.max_bytes:
                if int(length) <= DRAIN_BYTES:
                    await _drain(receive, DRAIN_BYTES)
                await _answer(send, 413, too_big, scope["path"])
                return
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > self.max_bytes:
                if message.get("more_body", False):
                    await _drain(receive, DRAIN_BYTES)
                await _answer(send, 413, too_big, scope["path"])
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if b"json" in headers.get(b"content-type", b""):
            try:
                body.decode("utf-8")
            except UnicodeDecodeError as exc:
                reason = f"request body is not valid UTF-8 (byte 0x{body[exc.start]:02x} at offset {exc.start}): send UTF-8 JSON"
                await _answer(send, 400, reason, scope["path"])
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
