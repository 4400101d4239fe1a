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


def test_a_report_of_the_previous_version_loads_with_empty_scene_facts() -> None:
    old = {
        "schema_version": 1,
        "status": "ok",
        "backend": "bpy-module",
        "sandbox": "bwrap",
        "scene": {
            "object_count": 1,
            "objects": [{"name": "Cube", "type": "MESH", "vertices": 8, "faces": 6, "materials": ["Material"], "modifiers": ["BEVEL"]}],
            "bbox": {"min": [-1, -1, -1], "max": [1, 1, 1]},
            "camera": True,
            "light": True,
            "frame_range": [1, 250],
        },
    }
    report = RunReport.model_validate_json(json.dumps(old))
    assert report.scene is not None and report.scene.materials == [] and report.scene.instance_count == 0
    cube = report.scene.objects[0]
    assert cube.modifiers == ["BEVEL"] and cube.modifier_settings == [] and cube.fcurves == [] and cube.location is None


def test_modifier_settings_keep_their_types_through_json() -> None:
    settings = {"levels": 2, "use_creases": True, "width": 0.1, "fit_type": "FIXED_COUNT", "relative_offset_displace": [1.0, 0.0, 0.0]}
    scene = {"object_count": 1, "bbox": None, "camera": False, "light": False}
    scene["objects"] = [{"name": "Cube", "type": "MESH", "modifier_settings": [{"name": "Sub", "type": "SUBSURF", "settings": settings}]}]
    report = RunReport(status="ok", backend="bpy-module", sandbox="bwrap", scene=scene)
    again = RunReport.model_validate_json(report.model_dump_json()).scene.objects[0].modifier_settings[0].settings
    assert again == settings and type(again["levels"]) is int and type(again["use_creases"]) is bool
    with pytest.raises(ValidationError):
        RunReport(status="ok", backend="bpy-module", sandbox="bwrap", scene={**scene, "materials": [{"name": "M"}]})
