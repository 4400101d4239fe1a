"""What the generation loop reports: progress events while it runs, a result when it ends."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ...harness.diagnostics import LintReport
from ...harness.report import RunReport

SCHEMA_VERSION = 1

Outcome = Literal["accepted", "best_attempt", "retrieved", "failed"]


class ProgressEvent(BaseModel):
    """One step of a run, emitted by every node: shown live by the CLI, streamed by the service (SSE)."""

    schema_version: int = SCHEMA_VERSION
    thread_id: str
    node: str  # retrieve | generate | revise_plan | rules | lint | run | critic | heal | redraw | accept | give_up | done
    attempt: int = 0
    status: str = ""  # e.g. "ok", "error", "3 blocking", "score 0.82"
    elapsed_s: float = 0.0  # since the request started
    seconds: float = 0.0  # this node
    detail: str = ""


class CallCost(BaseModel):
    """One LLM call of a request: what it was, its prompt (tokens, of them reusable), its wait and its answer."""

    kind: str  # chat | stream | structured
    name: str = ""  # a structured call's schema (critique, plan)
    prompt_tokens: int  # the server's count, else estimated (RequestCost.prompt_source)
    reused_tokens: int  # of them, the prefix shared with what the server held (or the server's cached_tokens)
    first_token_s: float | None = None
    tokens: int = 0
    seconds: float = 0.0


class RequestCost(BaseModel):
    """Where one request's time went: the LLM's tokens and waits, heal rounds and free steps, Blender's runs.

    Prompt tokens: the server's counts where it reports them (non-streamed answers; vLLM's cached_tokens for reuse). A
    streamed llama.cpp answer reports none: then they are estimated from the characters sent (CHARS_PER_TOKEN), and
    reuse from the prefix each call shares with the conversation the server last held (its one-slot prompt cache keeps
    the last prompt and answer); `prompt_source` says which. processed + reused = prompt_tokens.
    """

    llm_calls: int = 0
    tokens_written: int = 0  # output tokens over every LLM call
    prompt_tokens: int | None = None  # prompt tokens over every call (None: no call)
    prompt_tokens_processed: int | None = None  # of them, those the server had to evaluate
    prompt_tokens_reused: int | None = None  # of them, those a prompt cache could serve (the shared prefix)
    prompt_source: str = ""  # server | estimated (characters / CHARS_PER_TOKEN; reuse from prefix sharing)
    first_token_s: float | None = None  # the first call's wait for its first token (prompt processing, on a CPU)
    first_token_total_s: float | None = None  # every streamed call's wait for its first token, summed
    llm_s: float = 0.0  # seconds spent waiting on the LLM
    critic_s: float = 0.0  # of llm_s, the critic's rubric calls
    critic_calls: int = 0  # rubric calls made
    critic_skipped: int = 0  # reviews decided by the objective checks alone: no rubric call (it could not change the verdict)
    rounds: int = 0  # heal rounds (LLM patches and regenerations)
    rule_steps: int = 0  # free deterministic steps
    sure_fixes: int = 0  # attempts given sure rule fixes before their first run (a Blender run saved each)
    blender_runs: int = 0  # attempts run in Blender
    blender_s: float = 0.0  # seconds of the attempts' runs in Blender (the report's total per attempt)
    wall_s: float = 0.0  # the request, start to end
    calls: list[CallCost] = Field(default_factory=list)  # per call, in order


class GenerationResult(BaseModel):
    """The end of a generate request: the best script with its reports and files."""

    schema_version: int = SCHEMA_VERSION
    thread_id: str
    outcome: Outcome  # accepted | best_attempt (budget/rounds exhausted) | retrieved (no LLM) | failed
    message: str = ""  # human-readable, e.g. "retrieved, no LLM configured — set BPYWRIGHT_LLM_BASE_URL=…"
    prompt: str
    blender_version: str
    script: str | None = None
    run_report: RunReport | None = None
    lint_report: LintReport | None = None
    score: float | None = None
    reasons: list[str] = Field(default_factory=list)
    attempts: int = 0
    script_path: str | None = None
    report_path: str | None = None
    render_path: str | None = None
    symbols: list[str] = Field(default_factory=list)
    model: str | None = None  # the LLM that wrote the script (None: retrieved, or no LLM answered)
    cost: RequestCost | None = None  # where the request's time went (this process's share of a resumed run)
