"""One client for any OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp): retries, streaming, timing, actionable errors."""

from __future__ import annotations

import collections
import contextlib
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ...config import Settings

if TYPE_CHECKING:
    from openai import Stream
    from openai.types.chat import ChatCompletion, ChatCompletionChunk

HOW_TO_CONFIGURE = (
    "install a local model (`bpywright model install qwen2.5-coder-1.5b`), or start a server with `vllm serve MODEL` "
    "and set BPYWRIGHT_LLM_BASE_URL=http://HOST:8000/v1 BPYWRIGHT_LLM_MODEL=MODEL"
)
TRANSIENT_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
MAX_TOKENS = 1536  # a whole script fits; a small model stuck repeating itself is cut off here instead of at the context's end
VARIANT_TEMPERATURE = 0.8  # the 2nd … nth of several structured candidates: diverse, still on the schema
MAX_REPLY_TOKENS = 4096  # the most a reply that rewrites a long script may take (reply_budget)


def reply_budget(script: str) -> int:
    """max_tokens for a reply that writes `script` again, changed: the script's own length (about 3 characters a token
    for Python) with room to spare, never below MAX_TOKENS. A 125-line script came back cut off mid-line at 1536."""
    return min(MAX_REPLY_TOKENS, max(MAX_TOKENS, int(len(script) / 3 * 1.25) + 128))


# How each endpoint takes a JSON-schema constraint, learnt on first use: vLLM (and OpenAI) take response_format json_schema;
# llama.cpp's server rejects it (HTTP 500, "Input should be 'text' or 'json_object'") and takes {"type": "json_object", "schema": …}.
_SCHEMA_FORM: dict[str, str] = {}
_SCHEMA_FORM_LOCK = threading.Lock()


class LLMError(RuntimeError):
    """The endpoint could not answer (unreachable, retries exhausted, or refused the request): the message says what to fix."""


class OutOfTime(LLMError):
    """The request's budget ran out while the model was still answering: the call was abandoned, not retried."""


# When the current request's budget runs out (time.monotonic()), for the model calls made in this context: each node sets
# it from the budget left (nodes.timed), so one slow call cannot run the request past its budget. A benchmark sofa took
# 2384 s of a 1200 s budget: a plan call on a busy CPU streamed for half an hour, and the budget was only checked between
# steps. A context variable, not a client attribute: one client may serve several requests at once.
_DEADLINE: ContextVar[float | None] = ContextVar("bpywright_llm_deadline", default=None)


@contextlib.contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Model calls made inside this block stop at `at` (time.monotonic(); None: no limit) with OutOfTime."""
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def time_left() -> float | None:
    """Seconds until the current deadline (negative once past), or None when there is none."""
    at = _DEADLINE.get()
    return None if at is None else at - time.monotonic()


def out_of_time(what: str) -> OutOfTime:
    return OutOfTime(f"the request's time budget ran out during {what} (BPYWRIGHT_BUDGET_S raises it)")


class CallStats(BaseModel):
    """One completion's cost: tokens out (stream chunks, or the server's count), seconds, time to first token."""

    kind: str  # chat | stream | structured
    name: str = ""  # a structured call's schema name (critique, plan)
    tokens: int = 0
    prompt_tokens: int | None = None
    seconds: float = 0.0
    first_token_s: float | None = None
    looped: bool = False  # the stream was stopped: the answer kept repeating itself (see looping)
    prompt_chars: int = 0  # the conversation's characters, as sent
    reused_chars: int = 0  # of them, the prefix shared with what the server held: the last call's prompt and its answer
    cached_tokens: int | None = None  # prompt tokens the server said it took from its cache (vLLM, OpenAI); None: not said

    @property
    def tokens_per_s(self) -> float:
        """Output tokens per second of this call."""
        return self.tokens / self.seconds if self.seconds > 0 else 0.0


def conversation_text(messages: list[dict[str, str]]) -> str:
    """The messages as one text in order, each behind a role marker: what a server's chat template lays out as the prompt,
    as far as a shared prefix goes (two conversations share a prefix of this text where their templated prompts do)."""
    return "".join(f"<|{m.get('role', '')}|>\n{m.get('content') or ''}\n" for m in messages)


def answered(text: str) -> str:
    """The answer as it follows its prompt in the server's context: after the assistant's role marker."""
    return f"<|assistant|>\n{text}"


def shared_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of two texts."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # binary search on slice equality: fast in C for long prompts
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def cached_tokens(usage: Any) -> int | None:
    """usage.prompt_tokens_details.cached_tokens where the server reports it (vLLM with prefix caching, OpenAI)."""
    details = getattr(usage, "prompt_tokens_details", None)
    value = getattr(details, "cached_tokens", None) if details is not None else None
    return value if isinstance(value, int) else None


class _Rejected(Exception):
    """The server refused response_format json_schema in the way llama.cpp does."""


_LOOP = re.compile(r"(.{20,240}?)\1{7,}", re.DOTALL)
LOOP_CHECK_EVERY = 32  # pieces between two looks at the answer's tail


def looping(text: str, tail: int = 4000) -> bool:
    """True when the answer ends in one stretch of 20+ characters written 8 times or more in a row: a small model caught
    in a loop (the local model wrote one sentence 64 times, until max_tokens, about 13 minutes on this CPU). Ordinary code does
    not repeat a long line eight times over; a list of coordinates differs from item to item."""
    end = text[-tail:]
    return any(m.end() >= len(end) - 2 * len(m.group(1)) for m in _LOOP.finditer(end))


class StreamCut(Exception):
    """A streamed answer ended without a finish reason (the server stopped it: llama.cpp does when another request waits,
    unless started with --interrupt_requests false). Retried like a dropped connection."""


def rejects_json_schema(status: int, message: str) -> bool:
    """True for llama.cpp's refusal of response_format json_schema (it names json_object as what it accepts)."""
    return status in (400, 422, 500) and "json_object" in message


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
        max_tokens: int | None = MAX_TOKENS,
        sampling: dict[str, float] | None = None,
        prompt_states: int = 1,
    ) -> None:
        import openai

        self.base_url = base_url.rstrip("/")
        self._model = model
        self.critic_model = critic_model
        self.retries = retries
        self.backoff_s = backoff_s
        self.max_tokens = max_tokens
        # Sampling fields sent with every request beside the OpenAI ones (e.g. llama.cpp's repeat_penalty); a field the
        # call sets itself (temperature) wins.
        self.sampling = dict(sampling or {})
        self.stats: list[CallStats] = []  # every completion this client made, for progress lines and the benchmark
        # What the server's prompt cache holds: the last `prompt_states` conversations with their answers (1: llama.cpp's
        # one slot; the local server keeps several: models/local.py SERVER_OPTIONS). Reuse is estimated against them.
        self._held: collections.deque[str] = collections.deque(maxlen=max(1, prompt_states))
        # Our own retry loop (below) decides what is transient; the SDK's would double the attempts. With streaming the
        # timeout bounds the wait for each chunk, not the whole answer (a long script on a CPU takes minutes).
        self.timeout = timeout
        self._client = openai.OpenAI(base_url=self.base_url, api_key=api_key or "EMPTY", timeout=timeout, max_retries=0)

    @classmethod
    def from_settings(cls, settings: Settings) -> LLMClient | None:
        """The configured client, or None when BPYWRIGHT_LLM_BASE_URL is unset (callers start a local model first: models.local)."""
        if not settings.llm_base_url:
            return None
        return cls(
            settings.llm_base_url,
            settings.llm_model,
            api_key=settings.llm_api_key,
            timeout=settings.llm_timeout,
            critic_model=settings.llm_critic_model,
            sampling=dict(settings.llm_sampling),
            prompt_states=settings.llm_prompt_states,
        )

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

    def _limits(self, max_tokens: int | None = None, temperature: float | None = None) -> dict[str, Any]:
        """The request's reply limit, temperature and extra sampling fields (as the SDK's extra_body)."""
        limit = max_tokens or self.max_tokens
        params: dict[str, Any] = {"max_tokens": limit} if limit else {}
        if temperature is not None:
            params["temperature"] = temperature
        if extra := {k: v for k, v in self.sampling.items() if k not in params}:
            params["extra_body"] = extra
        return params

    def _bounded(self, params: dict[str, Any]) -> dict[str, Any]:
        """params with the request's timeout cut to the time left before the deadline (see `deadline`), when there is one:
        a prompt the server takes minutes to read must not outlast the budget either."""
        left = time_left()
        if left is None:
            return params
        if left <= 0:
            raise out_of_time("a model call")
        return {**params, "timeout": min(self.timeout, left)}

    def _create(self, **params: Any) -> ChatCompletion:
        """One chat completion (our messages are plain dicts, not the SDK's TypedDicts: the server checks them)."""
        return self._client.chat.completions.create(**self._bounded(params))

    def _create_stream(self, **params: Any) -> Stream[ChatCompletionChunk]:
        """One streamed chat completion."""
        return self._client.chat.completions.create(stream=True, **self._bounded(params))

    def chat(
        self,
        messages: list[dict[str, str]],
        *,
        n: int = 1,
        temperature: float | None = None,
        on_token: Callable[[str, CallStats], None] | None = None,
        max_tokens: int | None = None,
    ) -> list[str]:
        """n completions of the conversation (one request; topped up if the server returns fewer); one is streamed when
        on_token is given. max_tokens: this call's reply limit (default: the client's)."""
        if on_token is not None and n == 1:
            return [self._stream(messages, temperature, on_token, max_tokens)]
        texts: list[str] = []
        while len(texts) < n:
            want = n - len(texts)
            extra: dict[str, Any] = (
                {"n": want, **self._limits(max_tokens, temperature)} if want > 1 else self._limits(max_tokens, temperature)
            )
            start = time.monotonic()
            response = self._call(lambda extra=extra: self._create(model=self.model, messages=messages, **extra))
            got = [choice.message.content or "" for choice in response.choices]
            if not got:
                raise LLMError(f"the LLM endpoint {self.base_url} returned no choices for model {self.model}")
            usage = getattr(response, "usage", None)
            sent = conversation_text(messages)
            self.stats.append(
                CallStats(
                    kind="chat",
                    tokens=getattr(usage, "completion_tokens", 0) or 0,
                    seconds=time.monotonic() - start,
                    prompt_tokens=getattr(usage, "prompt_tokens", None),
                    prompt_chars=len(sent),
                    reused_chars=self._reusable(sent),
                    cached_tokens=cached_tokens(usage),
                )
            )
            self._held.append(sent + answered(got[0]))
            texts.extend(got[:want])
        return texts

    def _reusable(self, sent: str) -> int:
        """Characters of `sent` the server can take from its prompt cache: the longest prefix it shares with a held state."""
        return max((shared_prefix(sent, h) for h in self._held), default=0)

    def _stream(
        self,
        messages: list[dict[str, str]],
        temperature: float | None,
        on_token: Callable[[str, CallStats], None] | None,
        max_tokens: int | None = None,
        *,
        model: str | None = None,
        response_format: dict[str, Any] | None = None,
        name: str = "",
        variant: int = 0,
    ) -> str:
        """One streamed completion: on_token(piece, stats so far) per chunk; retried whole on a transient failure.
        name: the structured call's schema name, recorded in its stats; variant k > 0: the configured seed + k."""
        extra: dict[str, Any] = self._limits(max_tokens, temperature)
        if variant and "seed" in extra.get("extra_body", {}):
            extra["extra_body"] = extra["extra_body"] | {"seed": int(extra["extra_body"]["seed"]) + variant}
        if response_format is not None:
            extra["response_format"] = response_format
        sent = conversation_text(messages)

        def request() -> tuple[str, CallStats]:
            start = time.monotonic()
            stats = CallStats(
                kind="stream" if response_format is None else "structured",
                name=name,
                prompt_chars=len(sent),
                reused_chars=self._reusable(sent),
            )
            parts: list[str] = []
            stream = self._create_stream(model=model or self.model, messages=messages, **extra)
            # At the deadline the stream is closed under the reader: a server may send its first (empty) piece early and
            # then nothing for minutes while it reads the prompt, which no read timeout set at the start can bound.
            left = time_left()
            watchdog = threading.Timer(max(0.0, left), stream.close) if left is not None else None
            if watchdog is not None:
                watchdog.daemon = True
                watchdog.start()

            def spent() -> OutOfTime | None:
                left = time_left()
                if left is None or left > 0:
                    return None
                return out_of_time(f"a model's answer ({stats.tokens} piece(s) in {time.monotonic() - start:.0f} s)")

            try:
                finish = self._read(stream, parts, stats, start, on_token)
            except Exception as exc:
                if (cut := spent()) is not None:  # the watchdog closed the stream under the reader
                    raise cut from exc
                raise
            finally:
                if watchdog is not None:
                    watchdog.cancel()
            if finish is None and (cut := spent()) is not None:
                raise cut
            if finish is None:  # the server closed the stream mid-answer: a truncated reply must not pass for a whole one
                raise StreamCut(f"the answer stream ended after {stats.tokens} piece(s) without a finish reason")
            stats.seconds = time.monotonic() - start
            return "".join(parts), stats

        text, stats = self._call(request, structured=response_format is not None and response_format["type"] == "json_schema")
        self.stats.append(stats)
        self._held.append(sent + answered(text))
        return text

    @staticmethod
    def _read(
        stream: Any, parts: list[str], stats: CallStats, start: float, on_token: Callable[[str, CallStats], None] | None
    ) -> str | None:
        """Read a streamed answer into parts (stats kept up to date); its finish reason, None when it ended without one."""
        finish = None
        for chunk in stream:
            finish = (chunk.choices[0].finish_reason if chunk.choices else None) or finish
            piece = chunk.choices[0].delta.content if chunk.choices else None
            usage = getattr(chunk, "usage", None)
            if usage is not None:
                stats.prompt_tokens = getattr(usage, "prompt_tokens", None)
                stats.cached_tokens = cached_tokens(usage)
            if not piece:
                continue
            stats.tokens += 1
            stats.seconds = time.monotonic() - start
            if stats.first_token_s is None:
                stats.first_token_s = stats.seconds
            parts.append(piece)
            if on_token is not None:
                on_token(piece, stats)
            if (left := time_left()) is not None and left <= 0:  # the budget is spent mid-answer: a part is no answer
                stream.close()
                return None
            if stats.tokens % LOOP_CHECK_EVERY == 0 and looping("".join(parts[-400:])):
                stats.looped, finish = True, "length"  # as if cut at max_tokens: what came before is kept
                stream.close()
                break
        return finish

    def structured(
        self, messages: list[dict[str, str]], name: str, schema: dict[str, Any], *, generator: bool = False, variant: int = 0
    ) -> str:
        """One completion constrained to a JSON schema, from the critic model (generator: the generator's, for a part
        plan); the raw text. Greedy, except a variant k > 0 (the k-th of several candidates): sampled at
        VARIANT_TEMPERATURE with the configured seed + k, so n candidates are n answers, not one answer n times.

        vLLM takes OpenAI's json_schema form; llama.cpp refuses it and takes json_object with a schema. The first refusal
        switches this endpoint to the second form for the rest of the process.
        """
        model = self.model if generator else (self.critic_model or self.model)
        with _SCHEMA_FORM_LOCK:
            form = _SCHEMA_FORM.get(self.base_url, "json_schema")
        if form == "json_schema":
            try:
                strict = {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}
                return self._structured(model, messages, strict, name, variant)
            except _Rejected:
                with _SCHEMA_FORM_LOCK:
                    _SCHEMA_FORM[self.base_url] = "json_object"
        return self._structured(model, messages, {"type": "json_object", "schema": schema}, name, variant)

    def _structured(self, model: str, messages: list[dict[str, str]], response_format: dict[str, Any], name: str, variant: int) -> str:
        # Streamed, though nobody watches the pieces: the client's timeout then bounds each wait for the next piece, not
        # the whole answer. Unstreamed, a rubric on a busy CPU timed out at 120 s, and each retry queued behind the
        # abandoned answer the server was still writing (the benchmark's syringe: four timeouts, no review).
        temperature = VARIANT_TEMPERATURE if variant else 0.0
        return self._stream(messages, temperature, None, model=model, response_format=response_format, name=name, variant=variant)

    def _call(self, request, *, structured: bool = False):
        """Run one request, retrying transient failures (connection, timeout, 429, 5xx) with exponential backoff."""
        import openai

        last: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                return request()
            except (openai.APIConnectionError, StreamCut) as exc:  # includes APITimeoutError
                if (left := time_left()) is not None and left <= 0:  # cut by the deadline (_bounded), not a transient fault
                    raise out_of_time("a model call") from exc
                last = exc
            except openai.APIStatusError as exc:
                if structured and rejects_json_schema(exc.status_code, _message(exc)):
                    raise _Rejected() from exc
                if exc.status_code not in TRANSIENT_STATUS:
                    hint = " (is BPYWRIGHT_LLM_MODEL a model this server serves?)" if exc.status_code in (400, 404) else ""
                    raise LLMError(
                        f"the LLM endpoint {self.base_url} refused the request: HTTP {exc.status_code} {_message(exc)}{hint}"
                    ) from exc
                last = exc
            if attempt < self.retries:
                wait = self.backoff_s * 2**attempt
                if (left := time_left()) is not None:  # never back off past the deadline
                    wait = max(0.0, min(wait, left))
                time.sleep(wait)
        kind = type(last).__name__
        raise LLMError(
            f"cannot reach the LLM endpoint {self.base_url} after {self.retries + 1} tries ({kind}: {last}); "
            f"is the server running? {HOW_TO_CONFIGURE}"
        )


def _message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error", body)
        return str(error.get("message", error) if isinstance(error, dict) else error)[:300]
    return str(exc)[:300]
