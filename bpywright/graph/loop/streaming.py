"""Live progress while the LLM writes: a token callback that emits a ProgressEvent every few seconds, and a closing summary."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..model.llm import CallStats
from .context import RunContext

EVERY_S = 2.0  # one progress line per this many seconds of streaming (CLI lines and SSE events stay readable)


def token_progress(ctx: RunContext, node: str, attempt: int) -> Callable[[str, CallStats], None]:
    """An on_token callback for LLMClient.chat: 'writing' events with tokens so far, tokens/s and time to first token."""
    last = [time.monotonic()]  # a slow model's first line comes with its first token; a fast answer shows no partial lines

    def on_token(piece: str, stats: CallStats) -> None:
        now = time.monotonic()
        if now - last[0] < EVERY_S:
            return
        last[0] = now
        ctx.emit(node, attempt=attempt, status="writing", seconds=stats.seconds, detail=speed(stats))

    return on_token


def speed(stats: CallStats) -> str:
    """'412 tokens, 9.8 tok/s, first token 3.1 s, prompt 40% shared with the last call'."""
    first = f", first token {stats.first_token_s:.1f} s" if stats.first_token_s is not None else ""
    shared = f", prompt {stats.reused_chars / stats.prompt_chars:.0%} shared with the last call" if stats.prompt_chars else ""
    return f"{stats.tokens} tokens, {stats.tokens_per_s:.1f} tok/s{first}{shared}"
