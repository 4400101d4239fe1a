"""doctor's exemplar-store and CLIP lines: what they report and the fix they name."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bpywright.config import Settings
from bpywright.doctor import check_clip, check_exemplars
from bpywright.exemplars.store import ExemplarStore
from bpywright.harness.report import RunReport


def test_exemplars_line_counts_the_store_and_names_the_fix(tmp_path: Path) -> None:
    settings = replace(Settings(), artifacts=tmp_path)
    missing = check_exemplars(settings)
    assert missing.state == "warn" and "exemplars seed" in (missing.fix)
    report = RunReport(status="ok", backend="bpy-module", sandbox="rlimits-only", blender_version="4.5.0")  # type: ignore[arg-type]
    with ExemplarStore.open(settings, clip=False) as store:
        store.add(script="import bpy\n", prompt="nothing", report=report, render=None, source="user", blender_version="4.5")
    found = check_exemplars(settings)
    assert found.state == "ok" and found.detail.startswith("1 exemplars")
    settings.exemplar_db.write_bytes(b"not a database" * 100)
    assert check_exemplars(settings).state == "fail"


def test_clip_line(tmp_path: Path) -> None:
    assert check_clip(Settings()).state == "warn"
    assert check_clip(Settings(clip_weights=tmp_path / "nope.bin")).state == "fail"
    weights = tmp_path / "w.bin"
    weights.write_bytes(b"x")
    assert check_clip(Settings(clip_weights=weights)).state == "ok"
    assert "local cache" in check_clip(Settings(clip_pretrained="openai")).detail
