"""FAKE OpenAI-compatible server on loopback, for tests: scripted chat answers, hash-derived (not semantic) embeddings."""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_REPLY = "FAKE reply: nothing enqueued (FakeOpenAIServer.enqueue sets the next answer)."


def fake_embedding(text: str, dim: int) -> list[float]:
    """A unit vector derived from a hash of text: deterministic, equal for equal texts, NOT semantic."""
    values: list[float] = []
    counter = 0
    while len(values) < dim:
        block = hashlib.sha256(f"{counter}:{text}".encode()).digest()
        values.extend(b / 127.5 - 1.0 for b in block)
        counter += 1
    values = values[:dim]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    return [v / norm for v in values]


class FakeOpenAIServer:
    """A FAKE `/v1` endpoint (models, embeddings, chat/completions) in a thread: `with FakeOpenAIServer() as s: s.base_url`."""

    def __init__(self, *, model: str = "fake-model", embedding_dim: int = 32) -> None:
        self.model = model
        self.embedding_dim = embedding_dim
        self.replies: deque[str] = deque()
        self.requests: list[dict[str, Any]] = []  # every JSON body received, with its path, for assertions
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:PORT/v1` once started."""
        if self._httpd is None:
            raise RuntimeError("FakeOpenAIServer is not running: use it as a context manager or call start()")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def enqueue(self, *texts: str) -> None:
        """Queue chat answers, served first in, first out; an empty queue answers DEFAULT_REPLY."""
        with self._lock:
            self.replies.extend(texts)

    def start(self) -> FakeOpenAIServer:
        """Listen on an ephemeral loopback port, serving from a daemon thread."""
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answer(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """The (status, JSON) for one request; the handler only does HTTP."""
        with self._lock:
            self.requests.append({"path": path, **body})
        if path == "/v1/models":
            return 200, {"object": "list", "data": [{"id": self.model, "object": "model", "owned_by": "fake"}]}
        if path == "/v1/embeddings":
            inputs = body.get("input")
            texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
            data = [{"object": "embedding", "index": i, "embedding": fake_embedding(t, self.embedding_dim)} for i, t in enumerate(texts)]
            return 200, {"object": "list", "model": body.get("model", self.model), "data": data,
                         "usage": {"prompt_tokens": sum(len(t.split()) for t in texts), "total_tokens": 0}}  # fmt: skip
        if path == "/v1/chat/completions":
            with self._lock:
                text = self.replies.popleft() if self.replies else DEFAULT_REPLY
            message = {"role": "assistant", "content": text}
            return 200, {"id": f"fake-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
                         "model": body.get("model", self.model), "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                         "usage": {"prompt_tokens": 0, "completion_tokens": len(text.split()), "total_tokens": 0}}  # fmt: skip
        return 404, {"error": {"message": f"FAKE server has no {path}", "type": "not_found"}}


def _handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    """A request handler class bound to one FakeOpenAIServer."""

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            self._send(*server.answer(self.path.split("?")[0], {}))

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                self._send(400, {"error": {"message": "FAKE server: body is not JSON", "type": "invalid_request_error"}})
                return
            self._send(*server.answer(self.path.split("?")[0], body))

        def log_message(self, format: str, *args: Any) -> None:  # quiet in tests
            pass

    return Handler
