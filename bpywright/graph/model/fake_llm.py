"""FAKE LLM for tests and demos: the loopback OpenAI-compatible server, answering per role (generate, heal, critic)."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from ...fakes.openai_server import DEFAULT_REPLY, FakeOpenAIServer, Reply, structured_output_problem

__all__ = ["DEFAULT_REPLY", "FakeLLM", "FakeOpenAIServer", "Reply", "critic_json", "role_of", "structured_output_problem"]

ROLES = ("generate", "heal", "critic", "plan")


def role_of(body: dict[str, Any]) -> str:
    """Which node asked: a JSON-schema response_format is the critic, or the generator's part plan (its schema has
    parts); the healer's system prompt names itself."""
    response_format = body.get("response_format")
    if isinstance(response_format, dict):
        named = (response_format.get("json_schema") or {}).get("name")
        schema = response_format.get("schema") or (response_format.get("json_schema") or {}).get("schema") or {}
        is_plan = named == "plan" or "parts" in (schema.get("properties") or {})
        return "plan" if is_plan else "critic"
    system = next((m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "system"), "")
    return "heal" if "You repair" in system else "generate"


def critic_json(score: float, *reasons: str, suggested_fix: str | None = None) -> str:
    """A well-formed critic answer."""
    return json.dumps({"score": score, "reasons": list(reasons), "suggested_fix": suggested_fix})


class FakeLLM(FakeOpenAIServer):
    """A FAKE endpoint with one reply queue per role; `structured` records the response_format of every critic request."""

    def __init__(self, *, model: str = "fake-coder", embedding_dim: int = 32) -> None:
        super().__init__(model=model, embedding_dim=embedding_dim)
        self.queues: dict[str, deque[Reply]] = {role: deque() for role in ROLES}
        self.structured: list[dict[str, Any]] = []
        self.responder = self._by_role

    def script(self, role: str, *replies: Reply) -> FakeLLM:
        """Queue replies for one role (texts, or callables that see the request body)."""
        if role not in self.queues:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        with self._lock:
            self.queues[role].extend(replies)
        return self

    def roles_asked(self) -> list[str]:
        """The role of every chat request so far, in order."""
        return [role_of(body) for body in self.chat_requests]

    def _by_role(self, body: dict[str, Any]) -> str | None:
        role = role_of(body)
        if role == "critic":
            self.structured.append(body["response_format"])
        with self._lock:
            queue = self.queues[role]
            reply = queue.popleft() if queue else None
        if reply is None:
            return None  # falls through to the shared queue, then DEFAULT_REPLY
        return reply(body) if callable(reply) else reply
