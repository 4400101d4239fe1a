"""Technique plans built and run in real Blender: each scene has its technique (checked inside Blender after the built
script), lint blocks nothing, a seeded scatter builds the same scene twice, and a technique request goes through the
loop as a plan."""

from __future__ import annotations

import json

import pytest

from bpywright.graph.plans.library import TECHNIQUES
from bpywright.graph.plans.plan import build_script, grounded, parse_plan
from bpywright.harness.pool import WorkerPool

from .test_plan_techniques import CASES, CHECKS_PRELUDE, part, plan


@pytest.mark.blender
def test_each_technique_builds_a_script_whose_scene_has_it(render_pool: WorkerPool, warm_linter) -> None:
    for technique in TECHNIQUES:  # the library's technique plans, shown to the model: each runs, lint blocks nothing
        report = render_pool.run(source=build_script(grounded(parse_plan(technique.plan), technique.request), "4.5"), linter=warm_linter)
        assert report.ok and report.lint is not None and report.lint.blocking == [], (technique.request, report.lint)
    for prompt, (text, checks) in CASES.items():
        script = build_script(grounded(parse_plan(text), prompt), "4.5")
        lint = warm_linter.lint(script)  # what pool.run attaches: lint finds nothing to block in the built script …
        assert lint.blocking == [], (prompt, lint)
        report = render_pool.run(source=script + CHECKS_PRELUDE + checks)  # … which runs, its checks after it in one job
        assert report.ok, (prompt, report.exception)
        assert report.scene is not None
        types = {o.type for o in report.scene.objects}
        modifiers = {m for o in report.scene.objects for m in o.modifiers}
        materials = {m for o in report.scene.objects for m in o.materials}
        if "gold" in prompt:
            assert "SUBSURF" in modifiers and "gold" in materials
        if "bounces" in prompt:
            assert tuple(report.scene.frame_range or ()) == (1, 48)
        if "grid" in prompt:
            assert sum(o.type == "MESH" for o in report.scene.objects) == 100
        if "HELLO" in prompt:
            assert "FONT" in types
        if "vase" in prompt:
            assert "SCREW" in modifiers and "ceramic" in materials
        if "staircase" in prompt:
            assert sum(o.name.startswith("step") for o in report.scene.objects) == 20
        if "helix" in prompt:
            assert "CURVE" in types and {"BEVEL", "ARRAY"} <= modifiers
        if "35 mm camera" in prompt:
            assert {"LIGHT", "CAMERA"} <= types and "glowing" in materials
        if "orthographic" in prompt:
            cameras = [o.camera for o in report.scene.objects if o.camera is not None]
            assert [c.type for c in cameras] == ["ORTHO"]


@pytest.mark.blender
def test_a_seeded_scatter_builds_the_same_scene_twice(render_pool: WorkerPool) -> None:
    text = plan(
        "rocks", part("rock", "sphere", [0.3, 0.3, 0.2], color="grey", repeat=30, pattern="scatter", spacing=4, vary="size", seed=11)
    )
    script = build_script(grounded(parse_plan(text), "rocks scattered at random"), "4.5")
    assert "random.seed(seed)" in script and "('rock', 30, 'scatter', 1, 4.0, 0.0, 1.0, 'size', 11)," in script
    boxes = []
    for _ in range(2):
        report = render_pool.run(source=script)
        assert report.ok and report.scene is not None, report.exception
        rocks = [o for o in report.scene.objects if o.name.startswith("rock")]
        assert len(rocks) == 30
        boxes.append(sorted((o.name, tuple(o.bbox.min), tuple(o.bbox.max)) for o in rocks if o.bbox is not None))
    assert boxes[0] == boxes[1] and len({b[1] for b in boxes[0]}) == 30


@pytest.mark.blender
def test_a_request_that_names_a_technique_is_planned_and_built_through_the_loop(settings, fake, render_pool) -> None:
    """Under the plan strategy a bouncing ball is planned (no longer sent to code): the plan request shows the technique
    example and sends the technique keys in its schema; the plan's keyframes reach the scene the loop validated."""
    import dataclasses

    from bpywright.graph.loop.run import generate
    from bpywright.graph.model.fake_llm import critic_json, role_of

    prompt = "a ball that bounces up and down over 48 frames, keyframed"
    fake.script("plan", CASES[prompt][0]).script("critic", *[critic_json(0.9)] * 4)
    result = generate(prompt, settings=dataclasses.replace(settings, strategy="plan"), pool=render_pool)
    asked = [r for r in fake.chat_requests if role_of(r) == "plan"]
    assert asked, "the request went to code"
    user = asked[0]["messages"][-1]["content"]
    assert "a rubber ball that bounces twice over 60 frames" in user and '"animate": "location_z"' in user
    assert "animate" in json.dumps(asked[0]["response_format"])
    assert result.script is not None and "KEYFRAMES = [" in result.script and "('ball', 'location', 2, [(1, 0.0)," in result.script
    assert result.run_report is not None and result.run_report.scene is not None
    assert tuple(result.run_report.scene.frame_range or ()) == (1, 48)
