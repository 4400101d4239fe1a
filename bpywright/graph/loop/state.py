"""The graph's state: small, typed and serialisable (scripts, reports, paths and ids; never image bytes)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ...harness.diagnostics import LintReport
from ...harness.report import RunReport

Origin = Literal["generate", "heal-rules", "heal-llm", "retrieved"]
Status = Literal["running", "accepted", "best_attempt", "retrieved", "failed"]


class SymbolBrief(BaseModel):
    """A retrieved API symbol, as much as a prompt needs: name, signature/type, a short description, URL."""

    name: str
    kind: str = ""
    signature: str | None = None
    description: str = ""
    uri: str | None = None


class ExemplarBrief(BaseModel):
    """A verified exemplar shown to the generator (id, the prompt it answers, its script) and, where its validating run
    recorded a scene, that scene as a part plan (graph/scene_plan), which the plan strategy shows instead of code."""

    id: str
    prompt: str
    script: str
    source: str = "recipe"
    plan: str = ""


class Critique(BaseModel):
    """The critic's verdict: objective checks first, then the LLM rubric score."""

    score: float = 0.0
    reasons: list[str] = Field(default_factory=list)
    suggested_fix: str | None = None
    objective_ok: bool = False
    checks: dict[str, bool] = Field(default_factory=dict)  # name → passed (run, lint, render, scene:…)
    llm_scored: bool = False  # False: the score comes from the objective checks only
    overruled: bool = False  # accepted though scored low: every reason the critic gave is disproved by the scene (grounding)
    overruled_because: list[str] = Field(default_factory=list)  # how each of the critic's reasons (kept in reasons) fell
    accepted: bool = False
    # BPYWRIGHT_REVIEW=neighbours: the verified exemplars compared (id, the answer's F-score, a cube's, agrees)
    agreement: list[dict[str, Any]] = Field(default_factory=list)


class PlanDraft(BaseModel):
    """A part plan still being drawn (the plan strategy): the revise_plan node asks the model again while routing finds
    it due (routing.plan_due: its own checks failed or it was unusable and a revision is left, or its script repeats an
    earlier attempt's and it is sampled again). Plans are held as JSON (Plan.model_dump_json)."""

    variant: int = 0  # which sample (LLMClient.structured: 0 greedy, k > 0 sampled with seed + k)
    asked: str = ""  # the feedback the sample was first asked with (a sample drawn again is asked the same)
    asked_previous: str | None = None  # the plan it was first asked to revise (a heal round's), else None
    feedback: str = ""  # what the next revision is told: the findings, or why the last plan was unusable
    previous: str | None = None  # the plan the next revision is shown
    plan: str | None = None  # the plan in hand (None: the last answer was unusable)
    findings: list[str] = Field(default_factory=list)  # the plan in hand's own-check findings (plans.plan_findings)
    drawn: int = 0  # plans drawn for this sample (the first, then its revisions)
    notes: list[str] = Field(default_factory=list)  # one per plan drawn: "plan 1: 3 part(s); …", "plan 2 unusable (…)"
    head: str = ""  # what drew it (a heal's or redraw's account), first in the attempt's note
    repeated: int | None = None  # the earlier attempt whose script this sample repeated (sampled again once, then kept)
    resample: bool = False  # due to be sampled again: its script repeats attempt #repeated's


class Attempt(BaseModel):
    """One candidate script and everything learnt about it."""

    index: int
    origin: Origin
    round: int = 0  # heal round that produced it (0: first generation)
    parent: int | None = None  # the attempt it was healed from
    script: str | None = None  # None: the LLM reply held no usable code
    failure: str | None = None  # why it could not be run (no code, not Python)
    lint: LintReport | None = None
    run: RunReport | None = None
    render_path: str | None = None
    critique: Critique | None = None
    checked: bool = False  # the validate node has seen it (run, or found unrunnable)
    discarded: bool = False  # a heal that made things worse
    note: str = ""  # what produced it (rules applied, patch form)
    rules_applied: list[str] = Field(default_factory=list)  # drift rules the rule healer applied to make it
    rules_excluded: list[str] = Field(default_factory=list)  # rules the healer must not retry on this lineage
    sure_fixes: list[str] = Field(default_factory=list)  # sure rule fixes applied before its first run (validate.sure_fixes)
    draft: PlanDraft | None = None  # a part plan still being drawn: revise_plan asks again before validate (None: settled)

    @property
    def ran_ok(self) -> bool:
        """True when the script ran cleanly in Blender."""
        return self.run is not None and self.run.ok


class GenState(BaseModel):
    """Everything one generate request carries from node to node (checkpointed after each)."""

    prompt: str
    version: str = "4.5"
    n: int = 1
    max_rounds: int = 3
    max_critic_rounds: int = 1  # of max_rounds, those that may patch a script that runs but was rejected by the critic
    max_redraws: int = 0  # fresh answers after a shape that disagreed with verified neighbours (Settings.redraws)
    repair: str = "auto"  # a failing script's heal round: patch | regenerate | auto (Settings.repair)
    strategy: str = "code"  # how scripts are written: code | plan (Settings.strategy; auto resolved to one of them)
    plan_examples: int = 0  # library plans of related objects a plan request shows (Settings.plan_examples)
    plan_shapes: bool = False  # the critic's shape of the kind is shown as a plan example (Settings.plan_shapes)
    budget_s: float = 300.0
    llm: bool = True  # False: no endpoint configured, return the nearest verified exemplar
    model: str | None = None  # the model that wrote the attempts (None: no LLM answered)
    symbols: list[SymbolBrief] = Field(default_factory=list)
    symbols_note: str = ""
    exemplars: list[ExemplarBrief] = Field(default_factory=list)
    attempts: list[Attempt] = Field(default_factory=list)
    current: int | None = None  # the attempt the critic/healer works on
    best: int | None = None
    rounds: int = 0  # heal rounds used: LLM patches and regenerations (what max_rounds bounds)
    critic_rounds: int = 0  # rounds that patched a script which ran (the critic's rejection drove them)
    rule_steps: int = 0  # deterministic rule heals, free of rounds (bounded by MAX_RULE_STEPS)
    redraws: int = 0  # fresh answers drawn after a shape that disagreed with verified neighbours (of max_redraws)
    reviews: int = 0  # critic visits: one per validated attempt batch (bounded by routing.max_reviews: the step budget)
    spent_s: float = 0.0  # time spent in nodes (survives resume; the budget counts this)
    started_at: float = 0.0  # wall-clock time.time() of the request's start
    status: Status = "running"
    message: str = ""
    error: str | None = None  # an infrastructure problem (LLM unreachable) that ends the run
    script_path: str | None = None
    report_path: str | None = None
    render_path: str | None = None

    def attempt(self, index: int | None) -> Attempt | None:
        """The attempt with this index (None for None)."""
        return None if index is None else self.attempts[index]


def brief(symbol: Any) -> SymbolBrief:
    """A Symbol cut down to what a prompt shows: name, signature/type, first sentence, URL."""
    from ...ingest.index import first_sentence

    return SymbolBrief(
        name=symbol.name,
        kind=symbol.kind,
        signature=symbol.signature or (f": {symbol.type}" if symbol.type else None),
        description=first_sentence(symbol.description, 160),
        uri=symbol.uri,
    )
