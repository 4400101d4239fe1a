"""What the generation loop reports: progress events while it runs, a result when it ends."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..harness.diagnostics import LintReport
from ..harness.report import RunReport

SCHEMA_VERSION = 1

Outcome = Literal["accepted", "best_attempt", "retrieved", "failed"]


class ProgressEvent(BaseModel):
    """One step of a run, emitted by every node: shown live by the CLI, streamed by the service (SSE)."""

    schema_version: int = SCHEMA_VERSION
    thread_id: str
    node: str  # retrieve | generate | lint | run | critic | heal | accept | give_up | done
    attempt: int = 0
    status: str = ""  # e.g. "ok", "error", "3 blocking", "score 0.82"
    elapsed_s: float = 0.0  # since the request started
    seconds: float = 0.0  # this node
    detail: str = ""


class RequestCost(BaseModel):
    """Where one request's time went: the LLM's tokens and waits, heal rounds and free steps, Blender's runs."""

    llm_calls: int = 0
    tokens_written: int = 0  # output tokens over every LLM call
    prompt_tokens: int | None = None  # prompt tokens the server reported over every call (None: it reported none)
    first_token_s: float | None = None  # the first call's wait for its first token (prompt processing, on a CPU)
    llm_s: float = 0.0  # seconds spent waiting on the LLM
    critic_s: float = 0.0  # of llm_s, the critic's rubric calls
    rounds: int = 0  # heal rounds (LLM patches and regenerations)
    rule_steps: int = 0  # free deterministic steps
    blender_s: float = 0.0  # seconds of the attempts' runs in Blender (the report's total per attempt)
    wall_s: float = 0.0  # the request, start to end


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
