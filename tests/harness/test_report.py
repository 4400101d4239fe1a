"""The RunReport contract: the committed JSON Schema is current and reports round-trip."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from bpywright.harness.report import SCHEMA_PATH, RunReport, json_schema


def test_committed_schema_matches_the_model() -> None:
    committed = json.loads(SCHEMA_PATH.read_text())
    assert committed == json.loads(json.dumps(json_schema(), sort_keys=True)), "run `bpywright schema --write`"


def test_schema_names_every_status_and_backend() -> None:
    props = json_schema()["properties"]
    assert set(props["status"]["enum"]) == {"ok", "error", "timeout", "crash", "rejected"}
    assert set(props["backend"]["enum"]) == {"bpy-module", "blender-exe"}
    assert set(props["sandbox"]["enum"]) == {"bwrap", "rlimits-only"}
    assert "schema_version" in props


def test_round_trip_and_validation() -> None:
    report = RunReport(status="error", backend="bpy-module", sandbox="bwrap", exception={"type": "KeyError", "message": "x", "line": 4})
    again = RunReport.model_validate_json(report.model_dump_json())
    assert again == report and again.exception.line == 4 and not again.ok
    with pytest.raises(ValidationError):
        RunReport(status="exploded", backend="bpy-module", sandbox="bwrap")
