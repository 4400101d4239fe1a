"""One client for any OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp): retries, timeouts, actionable errors."""

from __future__ import annotations

import time
from typing import Any

from ..config import Settings

HOW_TO_CONFIGURE = "start one with `vllm serve MODEL` and set BPYWRIGHT_LLM_BASE_URL=http://HOST:8000/v1 BPYWRIGHT_LLM_MODEL=MODEL"
TRANSIENT_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


class LLMError(RuntimeError):
    """The endpoint could not answer (unreachable, retries exhausted, or refused the request): the message says what to fix."""


class LLMClient:
    """Chat completions against one OpenAI-compatible `/v1` endpoint; an optional separate critic model."""

    def __init__(
        self,
        base_url: str,
        model: str | None = None,
        *,
        api_key: str | None = None,
        timeout: float = 120.0,
        critic_model: str | None = None,
        retries: int = 3,
        backoff_s: float = 0.5,
    ) -> None:
        import openai

        self.base_url = base_url.rstrip("/")
        self._model = model
        self.critic_model = critic_model
        self.retries = retries
        self.backoff_s = backoff_s
        # Our own retry loop (below) decides what is transient; the SDK's would double the attempts.
        self._client = openai.OpenAI(base_url=self.base_url, api_key=api_key or "EMPTY", timeout=timeout, max_retries=0)

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMClient | None:
        """The configured client, or None when BPYWRIGHT_LLM_BASE_URL is unset (offline mode)."""
        if not settings.llm_base_url:
            return None
        return cls(settings.llm_base_url, settings.llm_model, api_key=settings.llm_api_key, timeout=settings.llm_timeout,
                   critic_model=settings.llm_critic_model)  # fmt: skip

    @property
    def model(self) -> str:
        """The generator model: the configured one, else the first the endpoint serves."""
        if self._model is None:
            models = self._call(lambda: self._client.models.list())
            ids = [m.id for m in models.data]
            if not ids:
                raise LLMError(f"the LLM endpoint {self.base_url} serves no model: set BPYWRIGHT_LLM_MODEL")
            self._model = ids[0]
        return self._model

    def chat(self, messages: list[dict[str, str]], *, n: int = 1, temperature: float | None = None) -> list[str]:
        """n completions of the conversation (asked for in one request; topped up if the server returns fewer)."""
        texts: list[str] = []
        while len(texts) < n:
            want = n - len(texts)
            extra: dict[str, Any] = {"n": want} if want > 1 else {}
            if temperature is not None:
                extra["temperature"] = temperature
            response = self._call(lambda extra=extra: self._client.chat.completions.create(model=self.model, messages=messages, **extra))  # type: ignore[arg-type]
            got = [choice.message.content or "" for choice in response.choices]
            if not got:
                raise LLMError(f"the LLM endpoint {self.base_url} returned no choices for model {self.model}")
            texts.extend(got[:want])
        return texts

    def structured(self, messages: list[dict[str, str]], name: str, schema: dict[str, Any]) -> str:
        """One completion constrained to a JSON schema (vLLM structured outputs), from the critic model; the raw text."""
        response_format: Any = {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}
        model = self.critic_model or self.model
        response = self._call(
            lambda: self._client.chat.completions.create(model=model, messages=messages, response_format=response_format, temperature=0.0)  # type: ignore[arg-type]
        )
        return (response.choices[0].message.content or "") if response.choices else ""

    def _call(self, request):
        """Run one request, retrying transient failures (connection, timeout, 429, 5xx) with exponential backoff."""
        import openai

        last: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                return request()
            except openai.APIConnectionError as exc:  # includes APITimeoutError
                last = exc
            except openai.APIStatusError as exc:
                if exc.status_code not in TRANSIENT_STATUS:
                    hint = " (is BPYWRIGHT_LLM_MODEL a model this server serves?)" if exc.status_code in (400, 404) else ""
                    raise LLMError(
                        f"the LLM endpoint {self.base_url} refused the request: HTTP {exc.status_code} {_message(exc)}{hint}"
                    ) from exc
                last = exc
            if attempt < self.retries:
                time.sleep(self.backoff_s * 2**attempt)
        kind = type(last).__name__
        raise LLMError(f"cannot reach the LLM endpoint {self.base_url} after {self.retries + 1} tries ({kind}: {last}); "
                       f"is the server running? {HOW_TO_CONFIGURE}")  # fmt: skip


def _message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        return str(error.get("message", error) if isinstance(error, dict) else error)[:300]
    return str(exc)[:300]
