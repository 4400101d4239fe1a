"""FAKE OpenAI-compatible server on loopback, for tests: scripted chat answers, hash-derived (not semantic) embeddings."""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = str | Callable[[dict[str, Any]], str]  # a text, or a function of the request body that returns one
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
        self.replies: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []  # every JSON body received, with its path, for assertions
        self.failures: deque[int] = deque()  # HTTP statuses to answer the next chat requests with (transient-error tests)
        self.responder: Callable[[dict[str, Any]], str | None] | None = None  # consulted before the queue; None = no answer
        self.cut_streams = 0  # > 0: the next streamed answers stop half-way with [DONE] and no finish reason (llama.cpp's interrupt)
        # > 0: a server reading a long prompt: a streamed answer's first word comes this long after its headers, with an
        # SSE comment every 0.2 s meanwhile (keep-alive pings, which reset a client's read timeout)
        self.think_s = 0.0
        self.word_delay_s = 0.0  # > 0: a CPU's writing speed: streamed words come that far apart, an unstreamed answer after all
        self.reject_json_schema = False  # True: answer response_format json_schema with llama.cpp's HTTP 500 (it takes json_object)
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:PORT/v1` once started."""
        if self._httpd is None:
            raise RuntimeError("FakeOpenAIServer is not running: use it as a context manager or call start()")
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def enqueue(self, *texts: Reply) -> None:
        """Queue chat answers (texts, or callables of the request body), first in, first out; empty → DEFAULT_REPLY."""
        with self._lock:
            self.replies.extend(texts)

    def fail_next(self, status: int = 503, count: int = 1) -> None:
        """Answer the next `count` chat requests with this HTTP error status."""
        with self._lock:
            self.failures.extend([status] * count)

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """The chat/completions bodies received so far."""
        return [r for r in self.requests if r["path"] == "/v1/chat/completions"]

    def _next_reply(self, body: dict[str, Any]) -> str:
        if self.responder is not None:
            text = self.responder(body)
            if text is not None:
                return text
        with self._lock:
            reply = self.replies.popleft() if self.replies else DEFAULT_REPLY
        return reply(body) if callable(reply) else reply

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
            return 200, {
                "object": "list",
                "model": body.get("model", self.model),
                "data": data,
                "usage": {"prompt_tokens": sum(len(t.split()) for t in texts), "total_tokens": 0},
            }
        if path == "/v1/chat/completions":
            with self._lock:
                failure = self.failures.popleft() if self.failures else None
            if failure is not None:
                return failure, {"error": {"message": f"FAKE server: scripted HTTP {failure}", "type": "server_error"}}
            if self.reject_json_schema and (body.get("response_format") or {}).get("type") == "json_schema":
                return 500, {
                    "error": {
                        "message": "FAKE server (llama.cpp-like): response_format.type Input should be 'text' or 'json_object'",
                        "type": "internal_server_error",
                    }
                }
            problem = structured_output_problem(body.get("response_format"))
            if problem:
                return 400, {"error": {"message": f"FAKE server: {problem}", "type": "invalid_request_error"}}
            texts = [self._next_reply(body) for _ in range(max(1, int(body.get("n") or 1)))]
            choices = [{"index": i, "message": {"role": "assistant", "content": t}, "finish_reason": "stop"} for i, t in enumerate(texts)]
            return 200, {
                "id": f"fake-{len(self.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", self.model),
                "choices": choices,
                "usage": {"prompt_tokens": 0, "completion_tokens": sum(len(t.split()) for t in texts), "total_tokens": 0},
            }
        return 404, {"error": {"message": f"FAKE server has no {path}", "type": "not_found"}}


def structured_output_problem(response_format: Any) -> str | None:
    """What is wrong with a response_format (vLLM's structured-output request form), or None when absent or well formed."""
    if response_format is None:
        return None
    if not isinstance(response_format, dict) or response_format.get("type") not in ("json_schema", "json_object", "text"):
        return f"response_format must be an object with type json_schema|json_object|text, got {response_format!r}"[:300]
    if response_format["type"] == "json_schema":
        spec = response_format.get("json_schema")
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not isinstance(spec.get("schema"), dict):
            return "response_format.json_schema needs a name (string) and a schema (object)"
        if spec["schema"].get("type") != "object":
            return "response_format.json_schema.schema must describe an object"
    return None


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
            status, payload = server.answer(self.path.split("?")[0], body)
            try:
                if body.get("stream") and status == 200 and payload.get("object") == "chat.completion":
                    self._stream(payload)
                    return
                if server.word_delay_s and payload.get("object") == "chat.completion":
                    words = sum(len((c["message"]["content"] or "").split(" ")) for c in payload["choices"])
                    time.sleep(server.word_delay_s * words)
                self._send(status, payload)
            except (BrokenPipeError, ConnectionResetError):  # the client stopped reading (a loop cut off, a timeout)
                self.close_connection = True

        def _stream(self, payload: dict[str, Any]) -> None:
            """The answer as OpenAI's server-sent chunks: one per word of each choice, then [DONE]."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            base = {"id": payload["id"], "object": "chat.completion.chunk", "created": payload["created"], "model": payload["model"]}
            with server._lock:
                cut, server.cut_streams = server.cut_streams > 0, max(0, server.cut_streams - 1)
            thinking = time.monotonic() + server.think_s
            while time.monotonic() < thinking:
                self.wfile.write(b": ping\n\n")
                self.wfile.flush()
                time.sleep(0.2)
            for choice in payload["choices"]:
                text = choice["message"]["content"]
                pieces = text.split(" ") if text else [""]
                if cut:
                    for piece in pieces[: len(pieces) // 2]:
                        chunk = {**base, "choices": [{"index": choice["index"], "delta": {"content": piece + " "}, "finish_reason": None}]}
                        self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.write(b"data: [DONE]\n\n")
                    return
                for i, piece in enumerate(pieces):
                    time.sleep(server.word_delay_s)
                    delta = {"content": piece if i == 0 else " " + piece}
                    chunk = {**base, "choices": [{"index": choice["index"], "delta": delta, "finish_reason": None}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                done = {**base, "choices": [{"index": choice["index"], "delta": {}, "finish_reason": "stop"}]}
                self.wfile.write(f"data: {json.dumps(done)}\n\n".encode())
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

        def log_message(self, format: str, *args: Any) -> None:  # quiet in tests
            pass

    return Handler
