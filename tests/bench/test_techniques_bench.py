"""The technique benchmark: its requests load and validate, and a request is satisfied only by a scene that has what
it names (real Blender runs the answer's script again)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import techniques as bench  # noqa: E402

from bpywright.harness.options import RunOptions  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402

BOUNCE = """
import bpy
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(0, 0, 0.5))
ball = bpy.context.active_object
ball.name = "Ball"
scene = bpy.context.scene
scene.frame_start, scene.frame_end = 1, 48
for frame, z in ((1, 0.5), (12, 3.0), (24, 0.5), (36, 3.0), (48, 0.5)):
    ball.location.z = z
    ball.keyframe_insert(data_path="location", index=2, frame=frame)
"""
NO_KEYS = """
import bpy
bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(0, 0, 0.5))
ball = bpy.context.active_object
for frame in range(1, 49):
    bpy.context.scene.frame_set(frame)
    ball.location.z = 0.5 + abs(24 - frame) / 10
"""


def test_the_requests_load_with_a_held_out_set_and_every_area() -> None:
    everything = bench.load_requests()
    dev, holdout = bench.load_requests(which="dev"), bench.load_requests(which="holdout")
    assert len(everything) == len(dev) + len(holdout) and len(dev) >= 60 and len(holdout) >= 15
    assert len({r["id"] for r in everything}) == len(everything)
    areas = {r["area"] for r in everything}
    assert {"materials", "modifiers", "arrays", "curves", "text", "animation", "lighting", "camera"} <= areas
    assert all(r["checks"] and all(t.source == r["prompt"] for t in r["checks"]) for r in everything)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[[request]]\nid = "a"\nset = "dev"\narea = "x"\nprompt = "p"\nchecks = [{ kind = "glitter" }]\n', "request a"),
        ('[[request]]\nid = "a"\nset = "dev"\narea = "x"\nprompt = "p"\nchecks = [{ kind = "material", colour = "teal-ish" }]\n', "colour"),
        ('[[request]]\nid = "a"\nset = "later"\narea = "x"\nprompt = "p"\nchecks = [{ kind = "curve" }]\n', "set 'later'"),
        ('[[request]]\nid = "a"\narea = "x"\nprompt = "p"\nchecks = []\n', "lacks"),
    ],
)
def test_a_malformed_request_is_refused_with_its_id(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "requests.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(bench.RequestsError, match=message):
        bench.load_requests(path)


def test_a_copy_or_a_failed_run_satisfies_nothing() -> None:
    request = next(r for r in bench.load_requests() if r["id"] == "bouncing-ball")
    copy = {"id": "bouncing-ball", "generated": False, "copy_of": "the bouncing ball recipe", "script": BOUNCE}
    assert [c["ok"] for c in bench.check_row(copy, request, pool=None)] == [False]
    assert "a copy: the bouncing ball recipe" in bench.check_row(copy, request, pool=None)[0]["message"]


@pytest.mark.blender
def test_a_request_is_satisfied_only_by_a_scene_that_has_its_technique(tmp_path: Path) -> None:
    requests = {r["id"]: r for r in bench.load_requests() if r["id"] == "bouncing-ball"}
    rows = {
        "loop": [{"id": "bouncing-ball", "generated": True, "script": BOUNCE, "ran": True}],
        "one-shot": [{"id": "bouncing-ball", "generated": True, "script": NO_KEYS, "ran": True}],
    }
    bench.judged(rows, requests, tmp_path, lambda: WorkerPool(1, RunOptions(render=False, timeout=60)))
    assert rows["loop"][0]["satisfied"] and all(c["ok"] for c in rows["loop"][0]["checks"])
    assert not rows["one-shot"][0]["satisfied"]
    assert "no keyframe" in rows["one-shot"][0]["checks"][0]["message"]
    assert (tmp_path / "loop" / "bouncing-ball.checks.json").is_file()  # cached beside the row
    bench.judged(rows, requests, tmp_path, lambda: pytest.fail("a cached verdict is not measured again"))
