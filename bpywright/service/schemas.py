"""Request and response models of the HTTP API (/api/v1): typed at the boundary, documented in /docs."""

from __future__ import annotations

from datetime import datetime

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator

from ..exemplars.models import Exemplar, ExemplarHit, VerifiedBy
from ..graph.loop.events import GenerationResult, ProgressEvent
from ..harness.diagnostics import LintReport
from ..harness.options import Engine
from ..harness.report import RunReport
from ..rules.healer import HealOutcome
from .jobs import JobKind, JobState

VERSION_PATTERN = r"^\d+\.\d+$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("prompt", check_fields=False)
    @classmethod
    def _text_only(cls, value: str) -> str:
        """A prompt is UTF-8 text without NUL bytes (it ends up in SQLite, files and LLM requests)."""
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"not valid UTF-8 text ({exc.reason} at character {exc.start})") from exc
        if "\x00" in value:
            raise ValueError("contains a NUL byte")
        return value


class GenerateRequest(_Strict):
    """A prompt to turn into a validated script."""

    prompt: str = Field(min_length=1, max_length=4000)
    blender_version: str | None = Field(
        None, pattern=VERSION_PATTERN, description="Target Blender, an installed runtime (default: the service's)."
    )
    n: int = Field(1, ge=1, le=4, description="Candidates per round.")
    max_rounds: int | None = Field(None, ge=0, le=10, description="Heal rounds (default: settings.max_heal_rounds).")


class ValidateRequest(_Strict):
    """A script to lint, run and render; wait=false returns a job id at once (watch it at /jobs/{id}/events)."""

    script: str = Field(description="Python source (UTF-8, no NUL bytes, at most settings.max_request_bytes).")
    prompt: str = Field("", max_length=4000, description="What the script should build (kept with it in the gallery).")
    blender_version: str | None = Field(
        None, pattern=VERSION_PATTERN, description="Target Blender: its runtime, stubs and rules (default: the service's)."
    )
    lint: bool = True
    render: bool = True
    resolution: int = Field(256, ge=16, le=1024)
    engine: Engine = Field("workbench", description="Render engine (workbench is fast on CPU).")
    timeout: float | None = Field(None, gt=0, le=300, description="Seconds the script may run (default: the operator's timeout, 60 s).")
    add_to_gallery: bool = Field(False, description="Add the script to the exemplar store when it runs cleanly.")
    wait: bool = True


class HealRequest(_Strict):
    """A script to heal with the deterministic rule pack: run, fix, re-run."""

    script: str
    target: str | None = Field(
        None,
        pattern=VERSION_PATTERN,
        validation_alias=AliasChoices("blender_version", "target"),
        description="Blender version to heal for, run on its runtime (also `blender_version`; default: the service's).",
    )
    max_rounds: int = Field(3, ge=1, le=5)
    timeout: float | None = Field(None, gt=0, le=300, description="Seconds the script may run (default: the operator's timeout, 60 s).")
    wait: bool = True


class JobAccepted(BaseModel):
    """A queued job and where to follow it."""

    job_id: str
    kind: JobKind
    state: JobState
    job_url: str
    events_url: str


class ValidateResult(BaseModel):
    """How a script linted and ran, with the URL of its render."""

    ok: bool
    lint: LintReport | None = None
    run: RunReport
    render_url: str | None = None
    exemplar_id: str | None = None
    duplicate_of: str | None = None


class JobView(BaseModel):
    """A job's state, the number of progress events so far, and its result when done."""

    id: str
    kind: JobKind
    state: JobState
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    events: int = 0
    error: str | None = None
    render_url: str | None = None
    result: GenerationResult | ValidateResult | HealOutcome | None = None
    last_event: ProgressEvent | None = None


class SymbolHit(BaseModel):
    """One symbol search result."""

    name: str
    kind: str
    score: float
    signature: str | None = None
    type: str | None = None
    description: str = ""
    uri: str | None = None


class SymbolResults(BaseModel):
    """Symbol search results for one Blender version."""

    version: str
    query: str
    hits: list[SymbolHit]


class ExemplarCard(BaseModel):
    """An exemplar as the gallery lists it (no script, no report)."""

    id: str
    prompt: str
    status: str
    blender_version: str
    source: str
    verified_by: VerifiedBy | None = Field(
        None, description="'person': a person vouches for it; 'machine': accepted by the loop's checks alone (ranked below)."
    )
    group_id: str | None = None
    thumbnail_url: str | None = None
    render_url: str | None = None
    detail_url: str
    score: float | None = None
    why: str | None = None


class ExemplarList(BaseModel):
    """One page of exemplars (or of search results when `q` was given)."""

    items: list[ExemplarCard]
    total: int
    offset: int
    limit: int
    q: str | None = None


class ExemplarDetail(BaseModel):
    """An exemplar, the other members of its near-duplicate group, and similar renders."""

    exemplar: Exemplar
    render_url: str | None = None
    thumbnail_url: str | None = None
    group: list[ExemplarCard] = []
    similar: list[ExemplarCard] = []


class ServiceStatus(BaseModel):
    """What the service runs on and what is switched off, with the setting or command that fixes it."""

    blender_version: str | None
    backend: str
    sandbox: str
    llm_configured: bool
    llm_reachable: bool | None
    llm_detail: str
    llm_model: str | None = None  # the model that answers generate requests (a local one is served by llama.cpp on loopback)
    clip_enabled: bool
    clip_reason: str
    index_versions: list[str]
    index_detail: str
    pool_size: int
    running: int
    queue_depth: int
    queue_capacity: int
    exemplar_count: int
    exemplar_groups: int


def card(exemplar: Exemplar, hit: ExemplarHit | None = None) -> ExemplarCard:
    """The gallery card of an exemplar (file URLs go through /api/v1/files)."""
    return ExemplarCard(
        id=exemplar.id,
        prompt=exemplar.prompt,
        status=exemplar.status,
        blender_version=exemplar.blender_version,
        source=exemplar.source,
        verified_by=exemplar.verified_by,
        group_id=exemplar.group_id,
        thumbnail_url=file_url(exemplar.thumbnail_path or exemplar.render_path),
        render_url=file_url(exemplar.render_path),
        detail_url=f"/exemplars/{exemplar.id}",
        score=hit.score if hit else None,
        why=hit.why if hit else None,
    )


def file_url(relpath: str | None) -> str | None:
    """The URL of a store file, or None."""
    return f"/api/v1/files/{relpath}" if relpath else None
