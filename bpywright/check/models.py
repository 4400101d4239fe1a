"""The `bpywright check` summary contract: one CaseResult per script × Blender version, plus counts (JSON, schema_version)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ..versions import major_minor

SCHEMA_VERSION = 1

FailOn = Literal["blocking", "advisory", "never"]
Outcome = Literal["passed", "failed", "error", "xfail", "xpass"]
# crash/timeout are the harness's or the machine's trouble (JUnit <error>); the script's own faults are <failure>
OUTCOME_OF_STATUS: dict[str, Outcome] = {"ok": "passed", "error": "failed", "rejected": "failed", "timeout": "error", "crash": "error"}


class BlenderTarget(BaseModel):
    """One Blender of the version matrix: the bpy wheel or an executable."""

    label: str = Field(description="Name used in JUnit and artifact paths, e.g. blender-4.5.15.")
    version: str = Field(description="As Blender reports it, e.g. '4.5.15 LTS'.")
    backend: Literal["bpy-module", "blender-exe"]
    executable: str | None = Field(None, description="The Blender binary; None for the bpy wheel.")
    python: str | None = Field(None, description="The interpreter of a wheel runtime (`bpywright blender add X.Y`); None: ours.")

    @property
    def major_minor(self) -> str:
        """'4.5' of '4.5.15 LTS'."""
        return major_minor(self.version)


class VisualCheck(BaseModel):
    """The render compared with the baseline's by perceptual hashes (Hamming distances of 64-bit hashes)."""

    baseline: str | None = Field(None, description="The baseline PNG compared with; None when there is none.")
    phash_distance: int | None = None
    dhash_distance: int | None = None
    threshold: int
    changed: bool = False
    note: str = ""


class LintFinding(BaseModel):
    """A lint finding as it appears in the summary (the full LintReport is in the run report JSON)."""

    tool: str
    code: str
    severity: Literal["blocking", "advisory"]
    line: int
    message: str


class CaseResult(BaseModel):
    """One script on one Blender: the run's status, lint, visual check and the verdict."""

    script: str = Field(description="Path relative to the check's root (stable across runs: baselines use it).")
    target: str = Field(description="BlenderTarget.label")
    blender_version: str | None = None
    status: str = Field(description="RunReport.status: ok | error | timeout | crash | rejected.")
    outcome: Outcome
    message: str = Field("", description="Why it failed: exception type and message, or the blocking lint finding.")
    line: int | None = Field(None, description="Line in the script where it failed.")
    traceback: str = Field("", description="The exception's traceback, when the script raised.")
    reasons: list[str] = Field([], description="Everything that made it fail (blocking) or that is advisory.")
    advisory: list[str] = Field([], description="Advisory problems: advisory lint, a moved render, an unexpected pass.")
    expected_failure: bool = Field(False, description="On the config's expected-failures: the checked repository's own claim.")
    expected_failure_allowed: bool = Field(
        False, description="The operator accepted that claim (--allow-expected-failures): an xfail does not fail the check."
    )
    lint_applies: bool = Field(False, description="True when this Blender matches the stubs' version, so lint gates the case.")
    lint: list[LintFinding] = []
    seconds: float = 0.0
    report: str | None = Field(None, description="The RunReport JSON under the artifacts folder.")
    render: str | None = None
    nonblank_fraction: float | None = None
    visual: VisualCheck | None = None
    summary: str = Field("", description="The human summary of the run (JUnit system-out).")
    heal: str | None = Field(
        None, description="For a failed run: the drift rule that explains it and where (`bpywright heal`), or why not."
    )


class Counts(BaseModel):
    """How many cases ended how."""

    total: int = 0
    passed: int = 0
    failed: int = 0
    error: int = 0
    xfail: int = 0
    xpass: int = 0
    advisory: int = Field(0, description="Cases with at least one advisory problem.")
    visual_changed: int = 0
    baseline_missing: int = 0


class CheckSummary(BaseModel):
    """Everything `bpywright check` found, written as --json and <artifacts>/summary.json."""

    schema_version: int = SCHEMA_VERSION
    root: str = Field(description="Directory the script names are relative to.")
    fail_on: FailOn
    exit_code: int
    lint_stubs: str | None = Field(None, description="Stubs version scripts were linted against; None with --no-lint.")
    targets: list[BlenderTarget]
    counts: Counts
    cases: list[CaseResult]
    artifacts: str
    contact_sheet: str | None = None
    junit: str | None = None
    baseline: str | None = None
    baseline_updated: bool = False
    config: str | None = Field(None, description="The config file read (the checked repository's: its claims are marked as such).")
    expected_failures: Literal["allowed", "refused"] = Field(
        "refused", description="Whether the config's expected failures may pass (--allow-expected-failures) or still fail the check."
    )
    limits: dict[str, float] = Field({}, description="The sandbox limits used: the config's, never above the operator's.")
    seconds: float = 0.0

    def count(self) -> Counts:
        """Recount the cases."""
        c = Counts(total=len(self.cases))
        for case in self.cases:
            setattr(c, case.outcome, getattr(c, case.outcome) + 1)
            c.advisory += bool(case.advisory)
            if case.visual is not None:
                c.visual_changed += case.visual.changed
                c.baseline_missing += case.visual.baseline is None
        return c
