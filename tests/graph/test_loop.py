"""The generation loop end to end: FAKE LLM on loopback, real lint, real Blender (one warm worker), real SQLite checkpoints."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bpywright.graph.loop.run import generate
from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.graph.model.llm import reply_budget
from bpywright.rules.healer import unified_diff

from .samples import (
    BOUNCING_BALL,
    DRIFT_CUBES,
    EARLY_BUG,
    HELPER_BUG,
    INDEX_BUG,
    INDEX_FIXED,
    LINK_UNDEFINED,
    LOOKING_AWAY,
    PROMPT,
    STACKED_CUBES,
    STILL_BALL,
    THREE_CUBES,
    TWO_CUBES,
    fenced,
)

pytestmark = pytest.mark.blender


def test_success_first_try_writes_script_report_and_render(settings, fake: FakeLLM, render_pool, events) -> None:
    fake.script("generate", fenced(THREE_CUBES)).script("critic", critic_json(0.9, "three red cubes in a row"))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.attempts == 1 and result.score == 0.9, result.message
    assert result.script == THREE_CUBES and result.run_report is not None and result.run_report.ok
    run_dir = settings.runs_dir / result.thread_id
    assert result.script_path == str(run_dir / "script.py") and Path(result.script_path).read_text() == THREE_CUBES
    report = json.loads(Path(result.report_path or "").read_text())
    assert report["status"] == "ok" and report["lint"]["diagnostics"] is not None
    assert Path(result.render_path or "").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert events.nodes() == ["retrieve", "generate", "lint", "run", "critic", "accept", "done"]
    assert all(e.thread_id == result.thread_id for e in events)
    assert "no symbols" in events[0].detail and "bpywright ingest" in events[0].detail  # CI builds no index: said, not fatal
    # the critic asked with vLLM's structured-output form, and its rubric saw the scene summary
    assert fake.roles_asked() == ["generate", "critic"]
    schema = fake.structured[0]["json_schema"]["schema"]
    assert fake.structured[0]["type"] == "json_schema" and schema["required"] == ["score", "reasons", "suggested_fix"]
    critic_prompt = fake.chat_requests[1]["messages"][1]["content"]
    assert "Cube2 (MESH" in critic_prompt and "scene: 3 cube: pass" in critic_prompt
    # the generator prompt carries the headless rules and verified exemplars
    generator = fake.chat_requests[0]["messages"]
    assert "headless" in generator[0]["content"] and "Verified scripts" in generator[1]["content"]


def test_n_candidates_are_validated_and_the_best_kept(settings, fake: FakeLLM, render_pool) -> None:
    fake.script("generate", fenced(INDEX_BUG), fenced(THREE_CUBES)).script("critic", critic_json(0.95))
    result = generate(PROMPT, settings=settings, pool=render_pool, n=2)
    assert result.outcome == "accepted" and result.script == THREE_CUBES and result.attempts == 2
    assert fake.chat_requests[0]["n"] == 2  # one request for both samples


def test_runtime_drift_is_healed_by_the_rules_without_asking_the_llm(settings, fake: FakeLLM, render_pool, events) -> None:
    """A sure fix (scene.objects.link, 2.7x) comes before the first run: no failed run, no heal step, no LLM patch."""
    fake.script("generate", fenced(DRIFT_CUBES)).script("critic", critic_json(0.85))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted", result.message
    assert "collection.objects.link(cube)" in (result.script or "") and "scene.objects.link" not in (result.script or "")
    rules = next(e for e in events if e.node == "rules")
    assert "scene-objects-link" in rules.detail and "heal" not in events.nodes()
    assert fake.roles_asked() == ["generate", "critic"]  # rules healed it: no LLM patch


def test_runtime_error_healed_by_an_llm_diff(settings, fake: FakeLLM, render_pool, events) -> None:
    diff = unified_diff(INDEX_BUG, INDEX_FIXED)
    fake.script("generate", fenced(INDEX_BUG)).script("heal", f"The list is one short.\n\n```diff\n{diff}```\n").script(
        "critic", critic_json(0.9)
    )
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == INDEX_FIXED, result.message
    heal_prompt = fake.chat_requests[1]["messages"][1]["content"]
    assert "| offsets = [0.0, 2.0]" in heal_prompt and "IndexError: list index out of range" in heal_prompt
    assert next(e for e in events if e.node == "heal").detail == "LLM patch: unified diff"


def test_runtime_error_healed_by_an_llm_replacement(settings, fake: FakeLLM, render_pool) -> None:
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced(INDEX_FIXED, before="Fixed:")).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool)
    assert result.outcome == "accepted" and result.script == INDEX_FIXED
    heal_request = fake.chat_requests[1]
    assert heal_request["max_tokens"] == reply_budget(INDEX_BUG)  # room for the whole script again


def test_a_reply_that_gives_the_script_back_unchanged_gets_the_follow_up_in_the_same_round(
    settings, fake: FakeLLM, render_pool, events
) -> None:
    """The local model's syringe: three rounds, three times the failing script back. Now the round asks once more, saying so."""
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced(INDEX_BUG + "\n"), fenced(INDEX_FIXED)).script(
        "critic", critic_json(0.9)
    )
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == INDEX_FIXED
    assert fake.roles_asked() == ["generate", "heal", "heal", "critic"]  # one round: the follow-up, not a second round
    follow_up = fake.chat_requests[2]["messages"][-1]["content"]
    assert "unchanged" in follow_up and "IndexError" in follow_up


UNFIXABLE = "import bpy\n\nraise ValueError('the model got the dimensions wrong')\n"  # no rule explains it


def test_repair_regenerate_writes_a_fresh_script_told_how_the_last_one_failed(settings, fake: FakeLLM, render_pool, events) -> None:
    """The local model's heal patches of failing scripts ran 4 times in 45 in the benchmark; its fresh scripts 21 times in 39."""
    settings = dataclasses.replace(settings, repair="regenerate")
    fake.script("generate", fenced(UNFIXABLE), fenced(THREE_CUBES)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES
    assert fake.roles_asked() == ["generate", "generate", "critic"]  # no patch asked for
    first, again = (r["messages"] for r in fake.chat_requests[:2])
    assert first[0] == again[0]  # the same system prompt: the server's prompt cache holds
    told = again[-1]["content"]
    assert "An earlier script for this request failed" in told and "ValueError: the model got the dimensions wrong" in told
    assert "raise ValueError" in told  # the failing line itself
    assert any(e.node == "heal" and e.status == "regenerated" for e in events)


def test_repair_auto_patches_first_then_regenerates(settings, fake: FakeLLM, render_pool) -> None:
    fake.script("generate", fenced(UNFIXABLE), fenced(THREE_CUBES)).script("heal", fenced(UNFIXABLE.replace("wrong", "wrong again")))
    fake.script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=dataclasses.replace(settings, repair="auto"), pool=render_pool)
    assert result.outcome == "accepted" and fake.roles_asked() == ["generate", "heal", "generate", "critic"]
    patch_only = dataclasses.replace(settings, repair="patch", max_heal_rounds=2)
    fake.script("generate", fenced(UNFIXABLE)).script("heal", fenced(UNFIXABLE.replace("wrong", "off")), fenced(THREE_CUBES))
    fake.script("critic", critic_json(0.9))
    assert generate(PROMPT, settings=patch_only, pool=render_pool).outcome == "accepted"
    assert fake.roles_asked()[4:] == ["generate", "heal", "heal", "critic"]


def test_a_diff_that_does_not_apply_falls_back_to_a_replacement(settings, fake: FakeLLM, render_pool, events) -> None:
    stale = unified_diff(INDEX_BUG.replace("offsets", "positions"), INDEX_FIXED.replace("offsets", "positions"))
    fake.script("generate", fenced(INDEX_BUG)).script("heal", f"```diff\n{stale}```", fenced(INDEX_FIXED)).script(
        "critic", critic_json(0.9)
    )
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == INDEX_FIXED
    follow_up = fake.chat_requests[2]["messages"]
    assert follow_up[-2]["role"] == "assistant" and "could not be applied" in follow_up[-1]["content"]
    assert "diff did not apply" in next(e for e in events if e.node == "heal").detail


def test_a_patch_that_makes_things_worse_is_discarded(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced(EARLY_BUG))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    discarded = next(e for e in events if e.status == "discarded")
    assert discarded.node == "validate" and discarded.attempt == 1 and "fails earlier or worse" in discarded.detail
    assert result.outcome == "best_attempt" and result.script == INDEX_BUG  # the earlier failure is kept as the best
    assert result.run_report is not None and result.run_report.exception is not None
    assert result.run_report.exception.type == "IndexError"


def test_malformed_llm_output_is_a_failed_attempt_then_regenerated(settings, fake: FakeLLM, render_pool, events) -> None:
    fake.script("generate", "Sorry, I can only describe the scene: three red cubes.", fenced(THREE_CUBES))
    fake.script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.attempts == 2 and result.script == THREE_CUBES
    first = next(e for e in events if e.node == "generate")
    assert "1 unusable" in first.status and "no Python code" in first.detail
    assert fake.roles_asked() == ["generate", "generate", "critic"]


def test_a_first_script_cut_off_at_the_token_limit_runs_what_it_wrote(settings, fake: FakeLLM, render_pool, events) -> None:
    cut = "```python\n" + THREE_CUBES + "bpy.ops.mesh.primitive_cone_add(location=(0.0, 0.0,"
    fake.script("generate", cut).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES and result.attempts == 1
    assert fake.roles_asked() == ["generate", "critic"]  # no heal round spent on the cut line
    assert "cut off at the token limit" in next(e for e in events if e.node == "generate").detail


def test_a_first_script_caught_in_a_loop_is_stopped_early_and_runs_what_came_before(settings, fake: FakeLLM, render_pool, events) -> None:
    cone = "bpy.ops.mesh.primitive_cone_add(location=(0.0, 0.0, 3.0))\n"
    fake.script("generate", "```python\n" + THREE_CUBES + cone * 200 + "```\n").script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.script is not None and result.script.startswith(THREE_CUBES) and result.script.count(cone) < 40
    assert "kept repeating itself" in next(e for e in events if e.node == "generate").detail
    assert result.run_report is not None and result.run_report.ok


def test_code_that_is_not_python_gets_a_patch(settings, fake: FakeLLM, render_pool, events) -> None:
    fake.script("generate", fenced("import bpy\nfor i in range(3)\n    pass\n")).script("heal", fenced(THREE_CUBES)).script(
        "critic", critic_json(0.9)
    )
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES
    assert any(e.node == "validate" and "not valid Python" in e.detail for e in events)
    assert "not valid Python" in fake.chat_requests[1]["messages"][1]["content"]


def test_critic_rejection_then_improvement(settings, fake: FakeLLM, render_pool, events) -> None:
    fake.script("generate", fenced(STACKED_CUBES))
    fake.script("critic", critic_json(0.3, "the cubes are stacked, not in a row", suggested_fix="offset them along X"), critic_json(0.9))
    fake.script("heal", fenced(THREE_CUBES))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES and result.score == 0.9
    heal_prompt = fake.chat_requests[2]["messages"][1]["content"]
    assert "the cubes are stacked, not in a row" in heal_prompt and "offset them along X" in heal_prompt
    assert [e.status for e in events if e.node == "critic"] == ["score 0.30 rejected", "score 0.90 accepted"]


def test_objective_checks_reject_before_the_llm_critic(settings, fake: FakeLLM, render_pool, events) -> None:
    fake.script("generate", fenced(TWO_CUBES)).script("heal", fenced(THREE_CUBES)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES
    first = next(e for e in events if e.node == "critic")
    assert "rejected" in first.status and "asks for 3 cube(s); the scene has 2" in first.detail
    assert fake.roles_asked() == ["generate", "heal", "critic"]  # no rubric for a scene that misses the count


def test_a_camera_looking_away_from_what_was_built_is_aimed_at_it_without_the_llm(settings, fake: FakeLLM, render_pool, events) -> None:
    fake.script("generate", fenced(LOOKING_AWAY)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.attempts == 2, result.message
    assert result.script is not None and result.script.startswith(LOOKING_AWAY) and result.script.endswith("frame_scene_camera()\n")
    assert result.run_report is not None and (result.run_report.render.nonblank_fraction or 0) >= 0.01
    first = next(e for e in events if e.node == "critic")
    assert "the render is blank" in first.detail
    heal = next(e for e in events if e.node == "heal")
    assert heal.status == "camera" and "render was blank" in heal.detail
    assert fake.roles_asked() == ["generate", "critic"]  # no heal turn: the camera is aimed by a free step


def test_the_framing_aims_a_parented_orthographic_camera_and_keeps_what_was_built(render_pool) -> None:
    from bpywright.graph.repair.framing import framed

    ortho = LOOKING_AWAY.replace(
        "camera.location = (2.0, -8.0, 1.0)",
        "camera.data.type = 'ORTHO'\npivot = bpy.data.objects.new('Pivot', None)\nbpy.context.scene.collection.objects.link(pivot)\n"
        "pivot.location = (0.0, 0.0, 40.0)\ncamera.parent = pivot\ncamera.location = (2.0, -8.0, 1.0)",
    )
    before = render_pool.run(source=ortho)
    assert before.ok and before.render is not None and (before.render.nonblank_fraction or 0) < 0.01
    fixed = framed(ortho, before)
    assert fixed is not None and framed(fixed, before) is None  # framed once, never twice
    after = render_pool.run(source=fixed + "assert bpy.context.scene.camera.name == 'Camera' and bpy.context.scene.camera.parent is None\n")
    assert after.ok, after.exception
    assert after.render is not None and (after.render.nonblank_fraction or 0) >= 0.01
    assert sorted(o.name for o in after.scene.objects if o.type == "MESH") == ["Cube0", "Cube1", "Cube2"]


def test_a_builder_defined_and_never_called_is_called_without_the_llm(settings, fake: FakeLLM, render_pool, events) -> None:
    """The local model's emblem: build() defined and never called, so the run is clean and the render shows the default cube.
    Calling it is a sure, free fix: no heal round, no LLM patch."""
    never_called = "import bpy\n\n\ndef build():\n" + "".join(f"    {line}\n" if line else "\n" for line in THREE_CUBES.splitlines()[1:])
    fake.script("generate", fenced(never_called)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script is not None and result.script.rstrip().endswith("build()")
    first = next(e for e in events if e.node == "critic")
    assert "rejected" in first.status and "the script built nothing" in first.detail
    assert any(e.node == "heal" and e.detail.startswith("builders: build called") for e in events)
    assert fake.roles_asked() == ["generate", "critic"]


def test_a_script_that_builds_nothing_gets_repair_rounds_not_the_critic_round(settings, fake: FakeLLM, render_pool, events) -> None:
    """A builder that needs arguments is not guessed: the heal is told the script built nothing, and a script that built
    nothing has failed like one that raised: it is repaired even with no round left for the critic's findings."""
    needs_args = "import bpy\n\n\ndef build(n):\n" + "".join(f"    {line}\n" if line else "\n" for line in THREE_CUBES.splitlines()[1:])
    settings = dataclasses.replace(settings, repair="patch", max_critic_rounds=0)
    fake.script("generate", fenced(needs_args)).script("heal", fenced(THREE_CUBES)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES
    assert "the script built nothing" in fake.chat_requests[1]["messages"][-1]["content"]  # the heal is told why
    assert fake.roles_asked() == ["generate", "heal", "critic"]


def test_malformed_critic_json_is_no_review_and_nothing_is_accepted(settings, fake: FakeLLM, render_pool) -> None:
    """An accepted script becomes an exemplar: passing the objective checks is not enough without the critic's verdict.
    Nothing is left for a heal to act on, so the loop ends with the script, not accepted, saying why."""
    fake.script("generate", fenced(THREE_CUBES)).script("critic", "{'score': high")
    result = generate(PROMPT, settings=settings, pool=render_pool)
    assert result.outcome == "best_attempt" and result.run_report is not None and result.run_report.ok
    assert any("not valid rubric JSON" in r and "without the critic's review" in r for r in result.reasons)
    assert "the critic model could not review it" in result.message
    assert fake.roles_asked() == ["generate", "critic"]


def test_rounds_exhausted_returns_the_best_attempt_with_its_status(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    fake.script("generate", fenced(STACKED_CUBES)).script("critic", critic_json(0.2, "stacked"), critic_json(0.4, "still stacked"))
    fake.script("heal", fenced(STACKED_CUBES.replace("i * 1.0", "i * 1.1")))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "best_attempt" and result.score == 0.4 and result.attempts == 2
    assert "1 heal round(s)" in result.message and "--max-rounds" in result.message
    assert result.run_report is not None and result.run_report.ok and Path(result.script_path or "").is_file()
    assert events.nodes()[-2:] == ["give_up", "done"]


def test_a_script_that_runs_gets_one_round_for_the_critics_findings(settings, fake: FakeLLM, render_pool, events) -> None:
    """Rounds left after the critic's round are for repairing failures: a rejected script that runs stops after one."""
    fake.script("generate", fenced(STACKED_CUBES)).script("critic", critic_json(0.2, "stacked"), critic_json(0.3, "still stacked"))
    fake.script("heal", fenced(STACKED_CUBES.replace("i * 1.0", "i * 1.1")))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert settings.max_heal_rounds > 1 and settings.max_critic_rounds is None and settings.critic_rounds == 1
    assert result.outcome == "best_attempt" and result.attempts == 2 and result.score == 0.3
    assert "BPYWRIGHT_MAX_CRITIC_ROUNDS" in result.message
    assert fake.roles_asked() == ["generate", "critic", "heal", "critic"]


def test_no_critic_round_when_none_is_given(settings, fake: FakeLLM, render_pool, events) -> None:
    """max_critic_rounds 0 (the local model's catalogue entry): a rejected script that runs is returned with the critic's verdict,
    no round is started for its findings, and the message says how to get one."""
    settings = dataclasses.replace(settings, max_critic_rounds=0)
    fake.script("generate", fenced(STACKED_CUBES)).script("critic", critic_json(0.2, "stacked"))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "best_attempt" and result.attempts == 1 and result.score == 0.2
    assert "no round is given to the critic's findings" in result.message and "BPYWRIGHT_MAX_CRITIC_ROUNDS=1" in result.message
    assert fake.roles_asked() == ["generate", "critic"]


def test_more_critic_rounds_when_asked(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, max_critic_rounds=2)
    fake.script("generate", fenced(STACKED_CUBES)).script(
        "critic", critic_json(0.2, "stacked"), critic_json(0.3, "still"), critic_json(0.9)
    )
    fake.script("heal", fenced(STACKED_CUBES.replace("i * 1.0", "i * 1.1")), fenced(THREE_CUBES))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES
    assert fake.roles_asked() == ["generate", "critic", "heal", "critic", "heal", "critic"]


def test_budget_exhausted_stops_before_healing(settings, fake: FakeLLM, render_pool, events) -> None:
    """The budget is spent while the first script runs (it sleeps past it): the request returns that script, not healed.
    (A budget spent before the first answer is written ends with none: test_budget.py.)"""
    settings = dataclasses.replace(settings, budget_s=5.0)
    slow = INDEX_BUG.replace("import bpy\n", "import time\n\nimport bpy\n\ntime.sleep(6)\n", 1)
    assert slow != INDEX_BUG
    fake.script("generate", fenced(slow))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "best_attempt" and "budget" in result.message and "BPYWRIGHT_BUDGET_S" in result.message
    assert "heal" not in events.nodes() and result.run_report is not None and result.run_report.status == "error"


def test_unreachable_llm_fails_with_the_fix(offline_settings, render_pool) -> None:
    with FakeLLM() as gone:
        url = gone.base_url
    settings = dataclasses.replace(offline_settings, llm_base_url=url, llm_model="m")
    result = generate(PROMPT, settings=settings, pool=render_pool)
    assert result.outcome == "failed" and "cannot reach the LLM endpoint" in result.message
    assert "vllm serve" in result.message and "BPYWRIGHT_LLM_BASE_URL" in result.message


DRIFT_THEN_INDEX = DRIFT_CUBES.replace("cube.location = (i * 2.0, 0.0, 0.0)", "cube.location = ([0.0, 2.0][i], 0.0, 0.0)")


def test_rule_heals_are_free_steps_a_round_is_an_llm_patch(settings, fake: FakeLLM, render_pool, events) -> None:
    """Rules first (no round used: the sure one before the first run), then the one LLM round fixes what no rule explains."""
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    fake.script("generate", fenced(DRIFT_THEN_INDEX)).script("heal", fenced(THREE_CUBES)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == THREE_CUBES, result.message
    assert [e.status for e in events if e.node in ("rules", "heal")] == ["sure fixes before the run", "LLM patch"]
    assert fake.roles_asked() == ["generate", "heal", "critic"]


def test_with_the_rounds_used_a_rule_step_is_still_taken(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced(DRIFT_CUBES)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted", result.message
    assert [e.status for e in events if e.node == "heal"] == ["LLM patch", "rules"]
    assert "scene.objects.link" not in (result.script or "")


def test_with_the_rounds_used_and_no_rule_the_loop_gives_up(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced(INDEX_BUG.replace("2.0]", "2.5]")))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "best_attempt" and "1 heal round(s)" in result.message
    assert [e.status for e in events if e.node == "heal"] == ["LLM patch", "nothing left"]
    assert fake.roles_asked() == ["generate", "heal"]


def test_a_helper_the_prompt_showed_is_borrowed_then_its_scene_bound(settings, fake: FakeLLM, render_pool, events) -> None:
    """`link` from the system prompt's example, then `scene` by the missing-import rule: two free steps, no LLM patch."""
    fake.script("generate", fenced(LINK_UNDEFINED)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted", result.message
    heals = [e for e in events if e.node == "heal"]
    assert [e.status for e in heals] == ["helpers", "rules"] and "link" in heals[0].detail and "missing-import" in heals[1].detail
    assert "def link(obj):" in (result.script or "") and "scene = bpy.context.scene" in (result.script or "")
    assert fake.roles_asked() == ["generate", "critic"]


def test_a_reply_holding_only_the_fixed_function_is_merged(settings, fake: FakeLLM, render_pool, events) -> None:
    reply = "The list is short. Fixed:\n\n```python\n    def place(i):\n        return (i * 2.0, 0.0, 0.0)\n```\n"
    fake.script("generate", fenced(HELPER_BUG)).script("heal", reply).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted", result.message
    assert next(e for e in events if e.node == "heal").detail == "LLM patch: corrected definitions merged into the script"
    assert "return (i * 2.0, 0.0, 0.0)" in (result.script or "") and "for i in range(3):" in (result.script or "")


def test_a_heal_reply_without_a_script_gets_one_follow_up_in_the_same_round(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    fake.script("generate", fenced(INDEX_BUG)).script("heal", "The offsets list needs a third entry.", fenced(INDEX_FIXED))
    fake.script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == INDEX_FIXED, result.message
    follow_up = fake.chat_requests[2]["messages"]
    assert follow_up[-2]["role"] == "assistant" and "held no usable script" in follow_up[-1]["content"]
    assert next(e for e in events if e.node == "heal").detail.startswith("LLM patch: reply unusable (")
    kept = settings.runs_dir / result.thread_id / "attempts"  # both replies, as the model wrote them, for reading why
    assert (kept / "01-heal.txt").read_text() == "The offsets list needs a third entry."
    assert (kept / "01-heal-followup.txt").read_text() == fenced(INDEX_FIXED)


def test_after_a_discarded_patch_the_next_heal_works_on_the_attempt_it_came_from(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, repair="patch")  # (auto would write a fresh script after the failed patch)
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced(EARLY_BUG), fenced(INDEX_FIXED)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == INDEX_FIXED, result.message
    second_heal = [r for r in fake.chat_requests if "repair" in r["messages"][0]["content"]][1]["messages"][1]["content"]
    assert 'materials.new("Red")' in second_heal and 'materials["Red"]' not in second_heal  # the parent, not the discarded
    assert [e.attempt for e in events if e.node == "heal"] == [1, 2]


def test_a_reply_with_only_the_changed_value_is_merged_not_taken_for_the_script(settings, fake: FakeLLM, render_pool, events) -> None:
    """A small model answers with the one line it changed: run alone it would fail at once (or build a fraction of the
    scene), so it replaces the script's one assignment of that name; no follow-up turn is needed."""
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced("offsets = [0.0, 2.0, 4.0]\n"))
    fake.script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == INDEX_FIXED, result.message
    assert fake.roles_asked() == ["generate", "heal", "critic"]
    assert any("the reply's new offsets" in e.detail for e in events if e.node == "heal")


def test_a_reply_with_the_failing_line_rewritten_takes_its_place(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    failing = "    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(offsets[i], 0.0, 0.0))"
    rewritten = "bpy.ops.mesh.primitive_cube_add(size=1.0, location=(i * 2.0, 0.0, 0.0))"
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced(rewritten + "\n")).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == INDEX_BUG.replace(failing, "    " + rewritten), result.message
    assert fake.roles_asked() == ["generate", "heal", "critic"]


def test_a_whole_script_that_forgot_import_bpy_is_a_replacement_not_a_fragment(settings, fake: FakeLLM, render_pool, events) -> None:
    """The local model's drum kit: its first script did not parse; both heal replies rewrote all of it without `import bpy`."""
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    unparsable = INDEX_BUG.replace("offsets = [0.0, 2.0]", "offsets = [0.0, 2.0))")
    no_import = INDEX_FIXED.replace("import bpy\n", "", 1)
    fake.script("generate", fenced(unparsable)).script("heal", fenced(no_import)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted", result.message
    assert "import bpy" in (result.script or "") and "offsets = [0.0, 2.0, 4.0]" in (result.script or "")  # the rules added it
    assert fake.roles_asked() == ["generate", "heal", "critic"]  # no follow-up turn asking for the whole script


def test_a_rewrite_that_forgot_its_imports_gets_them_before_it_is_judged(settings, fake: FakeLLM, render_pool, events) -> None:
    """The local model's chair: the critic's round rewrote the script without `import bpy`; judged as written, its 26 undefined-name
    findings made it 'worse' than the script it patched, and it was discarded before the import could be added."""
    fake.script("generate", fenced(STACKED_CUBES)).script("heal", fenced(THREE_CUBES.replace("import bpy\n", "", 1)))
    fake.script("critic", critic_json(0.3, "the cubes are stacked, not in a row"), critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script is not None, result.message
    assert result.script.startswith("import bpy\n") and result.script.count("import bpy") == 1
    heal = next(e for e in events if e.node == "heal")
    assert "the imports it forgot added" in heal.detail
    assert not any(e.node == "validate" and "discarded" in e.status for e in events)


def test_a_fragment_that_fits_nowhere_gets_the_follow_up(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, max_heal_rounds=1)
    fake.script("generate", fenced(INDEX_BUG)).script("heal", fenced("print('three cubes')\n"), fenced(INDEX_FIXED))
    fake.script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and result.script == INDEX_FIXED, result.message
    assert "a fragment without `import bpy`" in fake.chat_requests[2]["messages"][-1]["content"]


def test_a_rejected_copy_of_an_exemplar_is_regenerated_without_it(settings, fake: FakeLLM, render_pool, events) -> None:
    """The Check's red chair: the local model returned the wooden-table recipe it was shown, 98 % of its lines unchanged. The critic
    said it was a table; the patch of that copy built nothing. A copy is replaced by a fresh script, told what it copied and
    shown the exemplars it did not copy."""
    from bpywright.recipes import RECIPES_DIR

    table = (RECIPES_DIR / "wooden_table.py").read_text(encoding="utf-8")
    # the fresh answer: three red blocks stacked into one object (three cubes in a row would float apart: no chair)
    fake.script("generate", fenced(table), fenced(STACKED_CUBES)).script("critic", critic_json(0.9, "a red chair"))
    result = generate("a red chair with four legs", settings=settings, pool=render_pool, on_event=events)
    asked = zip(fake.chat_requests, fake.roles_asked(), strict=True)
    first, again = (r["messages"][-1]["content"] for r, role in asked if role == "generate")
    assert "def build_table(" in first  # the exemplar was shown
    assert "def build_table(" not in again, again
    assert 'was a copy of the recipe written for "A simple wooden table' in again
    assert fake.roles_asked() == ["generate", "generate", "critic"]  # no review and no patch of the copy: it is no answer
    heal = next(e for e in events if e.node == "heal")
    assert heal.status == "regenerated" and "is a copy of the recipe written for" in heal.detail
    assert result.outcome == "accepted" and result.script == STACKED_CUBES, result.message


def test_a_rejected_copy_ranks_below_a_script_written_for_the_request_and_is_named_when_returned(
    settings, fake: FakeLLM, render_pool
) -> None:
    """The Check's red chair again: the copied table (score 0.70, a fuller render) was returned over the chair written after
    it (score 0.70). A copy comes after any script that got as far; returned for want of another, the message says so."""
    from bpywright.recipes import RECIPES_DIR

    table = (RECIPES_DIR / "wooden_table.py").read_text(encoding="utf-8")
    fake.script("generate", fenced(table), fenced(THREE_CUBES))
    fake.script("critic", critic_json(0.7, "a brown table, not a red chair"), critic_json(0.7, "cubes, not a chair"))
    result = generate("a red chair with four legs", settings=settings, pool=render_pool)
    assert result.outcome == "best_attempt" and result.script == THREE_CUBES, result.message

    fake.script("generate", fenced(table), "I cannot write that script.").script("critic", critic_json(0.7, "a table"))
    result = generate("a red chair with four legs", settings=dataclasses.replace(settings, max_heal_rounds=1), pool=render_pool)
    assert result.outcome == "best_attempt" and result.script == table
    assert 'a copy of the recipe written for "A simple wooden table' in result.message


def test_parts_in_one_place_get_a_repair_round_even_with_no_critic_round(settings, fake: FakeLLM, render_pool, events) -> None:
    """max_critic_rounds 0: a script whose parts occupy the same space (one hides the other) has not built what was
    asked, like one that built nothing: it gets a repair round, and the repaired script is what is returned."""
    settings = dataclasses.replace(settings, max_critic_rounds=0)
    hidden = STACKED_CUBES.replace("i * 1.0", "0.0")
    fake.script("generate", fenced(hidden), fenced(THREE_CUBES)).script("heal", fenced(THREE_CUBES)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.attempts == 2 and result.script == THREE_CUBES, result.message
    assert fake.roles_asked() == ["generate", "heal", "critic"], fake.roles_asked()
    assert result.outcome == "accepted"


@pytest.mark.blender
def test_a_bounce_without_keyframes_is_repaired_with_the_exact_message_and_the_keyed_one_returned(
    settings, fake: FakeLLM, render_pool, events
) -> None:
    """A technique the request names is checked in the scene the script built: a ball that never moves is rejected
    without asking the critic model, the repair is told exactly what is missing, and it gets its round even with no
    round for the critic's findings (max_critic_rounds 0): a missing technique is a fact, not the model's opinion."""
    settings = dataclasses.replace(settings, repair="patch", max_critic_rounds=0)
    fake.script("generate", fenced(STILL_BALL)).script("heal", fenced(BOUNCING_BALL)).script("critic", critic_json(0.9))
    result = generate("a red ball bouncing up and down over 24 frames", settings=settings, pool=render_pool, on_event=events)
    first = next(e for e in events if e.node == "critic")
    assert "rejected" in first.status and "no keyframe on Ball.location[2] (z)" in first.detail, first.detail
    assert "no keyframe on Ball.location[2] (z)" in fake.chat_requests[1]["messages"][-1]["content"]  # the repair is told
    assert result.outcome == "accepted" and result.script == BOUNCING_BALL, result.message
    assert fake.roles_asked() == ["generate", "heal", "critic"]
