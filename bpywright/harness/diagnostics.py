"""Diagnostic and LintReport: what static checks found in a script (the lint contract)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

SCHEMA_VERSION = 1

Tool = Literal["syntax", "ruff", "mypy", "pyright", "rules"]
Severity = Literal["blocking", "advisory"]


class Diagnostic(BaseModel):
    """One finding: `blocking` when it would fail at runtime, `advisory` otherwise."""

    tool: Tool
    code: str
    severity: Severity
    line: int
    col: int = 0
    message: str
    fix: str | None = Field(None, description="A concrete replacement or instruction, when one is known.")
    also: list[str] = Field([], description="Other tools that reported the same problem (de-duplicated).")


class ToolStatus(BaseModel):
    """How one checker ran."""

    tool: Tool
    status: Literal["ok", "failed", "skipped"]
    seconds: float = 0.0
    detail: str = ""


class LintReport(BaseModel):
    """All diagnostics for one script, per-tool status and timings."""

    schema_version: int = SCHEMA_VERSION
    blender_version: str = "4.5"
    diagnostics: list[Diagnostic] = []
    tools: list[ToolStatus] = []
    seconds: float = 0.0

    @property
    def blocking(self) -> list[Diagnostic]:
        """The diagnostics that would fail at runtime."""
        return [d for d in self.diagnostics if d.severity == "blocking"]

    @property
    def ok(self) -> bool:
        """True when nothing blocking was found."""
        return not self.blocking
