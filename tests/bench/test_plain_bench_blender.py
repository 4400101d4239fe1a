"""The plain-request benchmark on real Blender: a plan-built mug with its handle on a saucer holds its relations, the
same plan with the handle on the rim does not, and the answer's shape is held against the archetype of its kind."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import plain as bench  # noqa: E402

from bpywright.graph.plans.plan import build_script, parse_plan  # noqa: E402
from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402

pytestmark = pytest.mark.blender

MUG_ON_SAUCER = """{"object": "mug", "parts": [
{"name": "saucer", "shape": "cylinder", "size": [0.16, 0.16, 0.015], "on": "ground", "side": "top", "at": "center", "rotation": [0, 0, 0], "color": "white"},
{"name": "mug_body", "shape": "cylinder", "size": [0.08, 0.08, 0.1], "on": "saucer", "side": "top", "at": "center", "rotation": [0, 0, 0], "color": "white"},
{"name": "mug_handle", "shape": "torus", "size": [0.06, 0.06, 0.012], "on": "mug_body", "side": "right", "at": "center", "rotation": [90, 0, 0], "color": "white"}
]}"""


def test_a_plan_built_mug_on_a_saucer_holds_its_relations_and_is_held_against_its_kind(tmp_path: Path) -> None:
    request = {r["id"]: r for r in bench.load_requests()}["mug-on-saucer"]
    good = build_script(parse_plan(MUG_ON_SAUCER), "4.5")
    rim = build_script(parse_plan(MUG_ON_SAUCER.replace('"side": "right"', '"side": "top"')), "4.5")
    rows: dict[str, list[dict[str, Any]]] = {
        "loop": [{"id": "mug-on-saucer", "generated": True, "ran": True, "script": good, "seconds": 1.0}],
        "one-shot": [{"id": "mug-on-saucer", "generated": True, "ran": True, "script": rim, "seconds": 1.0}],
    }
    bench.judged(rows, {"mug-on-saucer": request}, tmp_path, lambda: WorkerPool(1, RunOptions(render=False, timeout=60)))
    loop = {c["kind"]: c for c in rows["loop"][0]["checks"] if c["kind"] != "part"} | {
        c["label"]: c for c in rows["loop"][0]["checks"] if c["kind"] == "relation"
    }
    assert rows["loop"][0]["placed"], rows["loop"][0]["checks"]
    assert loop["handle beside mug"]["ok"] and loop["mug on saucer"]["ok"] and loop["saucer wider_than mug"]["ok"]
    assert loop["shape"]["label"] == "plan:4" and "archetype" in loop["shape"]["message"]  # measured, either way
    assert not rows["one-shot"][0]["placed"]
    failed = [c["message"] for c in rows["one-shot"][0]["checks"] if not c["ok"] and c["kind"] == "relation"]
    assert failed == ["handle: not at the mug's side (above it: its middle is outside the mug's height)"]
    assert (tmp_path / "loop" / "mug-on-saucer.plain.json").is_file()
