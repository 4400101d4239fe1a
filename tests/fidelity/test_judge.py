"""The checklist judge against the FAKE OpenAI-compatible server: CADBench criteria, 0/1 scores, replies it cannot read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bpywright.fakes.openai_server import FakeOpenAIServer
from bpywright.fidelity.judge import criteria_of, judge, parse_scores, scene_text, table
from bpywright.graph.model.llm import LLMClient
from bpywright.harness.report import BoundingBox, ObjectSummary, SceneSummary

ROW = {
    "instruction": "Create a cylindrical candle.",
    "criteria": {
        "Object Attributes": {"Shape accuracy": ["It is a cylinder.", "It is uniform."], "Color representation": ["Colour is fine."]},
        "Spatial Understanding and Structure": {"Object distance and contact": ["It stands on a surface."]},
        "User Instruction Understanding and Execution": {"Instruction execution accuracy": ["It is a candle."]},
        "Something else": {"x": ["ignored"]},
    },
}
SCENE = SceneSummary(
    object_count=1,
    objects=[ObjectSummary(name="Candle", type="MESH", vertices=64, faces=34, materials=["Wax"])],
    bbox=BoundingBox(min=(-0.5, -0.5, 0.0), max=(0.5, 0.5, 2.0)),
    camera=False,
    light=False,
)
SCRIPT = "import bpy\nbpy.ops.mesh.primitive_cylinder_add(radius=0.5, depth=2)\n"


def test_criteria_flatten_in_order_by_section() -> None:
    found = criteria_of(ROW)
    assert [c.section for c in found] == ["Attr", "Attr", "Attr", "Spat", "Inst"]
    assert found[0].aspect == "Shape accuracy" and found[-1].text == "It is a candle."
    assert criteria_of({"criteria": "nonsense"}) == [] and criteria_of({}) == []


def test_the_judge_scores_each_criterion_through_the_endpoint() -> None:
    with FakeOpenAIServer(model="fake-judge") as server:
        server.enqueue(json.dumps({"scores": [1, 0, 1, 1, 0]}))
        llm = LLMClient(server.base_url, "fake-judge", retries=0)
        verdict = judge(llm, ROW["instruction"], SCRIPT, SCENE, criteria_of(ROW))
        asked = server.requests[-1]
    assert verdict.scores == [1, 0, 1, 1, 0] and verdict.problem == ""
    assert verdict.section_scores() == {"Attr": 2 / 3, "Spat": 1.0, "Inst": 0.0}
    prompt = asked["messages"][1]["content"]
    assert "primitive_cylinder_add" in prompt and "Candle (MESH) 64 verts 34 faces materials Wax" in prompt
    assert "5. [Inst / Instruction execution accuracy] It is a candle." in prompt
    schema = asked["response_format"]["json_schema"]["schema"]["properties"]["scores"]
    assert schema["minItems"] == schema["maxItems"] == 5  # the grammar holds the model to one score per criterion
    figures = table([verdict, verdict])
    assert figures["Attr"] == 2 / 3 and figures["Avg"] == (2 / 3 + 1 + 0) / 3


def test_a_reply_the_judge_gets_wrong_scores_zero_and_says_why() -> None:
    with FakeOpenAIServer(model="fake-judge") as server:
        llm = LLMClient(server.base_url, "fake-judge", retries=0)
        server.enqueue(json.dumps({"scores": [1, 1]}))
        short = judge(llm, ROW["instruction"], SCRIPT, SCENE, criteria_of(ROW))
        server.enqueue("all good!")
        prose = judge(llm, ROW["instruction"], SCRIPT, SCENE, criteria_of(ROW))
        asked = len(server.requests)
        nothing = judge(llm, ROW["instruction"], None, None, criteria_of(ROW))  # a failed or copied answer: not asked
        assert len(server.requests) == asked
    assert short.scores == [0] * 5 and "scored 2 criteria, not 5" in short.problem
    assert prose.scores == [0] * 5 and "no scores" in prose.problem
    assert nothing.scores == [0] * 5 and nothing.problem == "no answer to judge"


def test_scores_must_be_zero_or_one() -> None:
    assert parse_scores('{"scores": [1, 2]}', 2)[0] == [0, 0]
    assert parse_scores('{"scores": [true, false]}', 2)[0] == [0, 0]
    assert parse_scores('noise {"scores": [1, 0]} noise', 2) == ([1, 0], "")
    assert scene_text(None).startswith("(no scene")


def test_an_image_judge_gets_the_renders(tmp_path: Path) -> None:
    png = tmp_path / "front.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\nfake")
    with FakeOpenAIServer(model="fake-judge") as server:
        server.enqueue(json.dumps({"scores": [1, 1, 1, 1, 1]}))
        llm = LLMClient(server.base_url, "fake-judge", retries=0)
        verdict = judge(llm, ROW["instruction"], SCRIPT, SCENE, criteria_of(ROW), images=[png, png, png, png])
        content = server.requests[-1]["messages"][1]["content"]
    assert verdict.scores == [1] * 5
    assert [part["type"] for part in content] == ["text"] + ["image_url"] * 4
    assert content[1]["image_url"]["url"].startswith("data:image/png;base64,")


@pytest.mark.blender
@pytest.mark.blender
def test_four_views_render_in_blender(tmp_path: Path, pool) -> None:
    from PIL import Image

    from bpywright.fidelity.views import render_views

    report, views = render_views(pool, SCRIPT, tmp_path, size=64)
    assert report.ok and [p.name for p in views] == ["view-front.png", "view-side.png", "view-top.png", "view-iso.png"]
    for p in views:
        with Image.open(p) as img:
            assert img.size == (64, 64) and int(np.ptp(np.asarray(img.convert("L")))) > 0  # the candle is in frame, not blank
    # a script that leaves its own "view" (a link) gets nothing of it back
    _, planted = render_views(pool, "import os\nos.symlink('/etc/passwd', 'view-front.png')\n", tmp_path / "x", size=64)
    assert planted == []
