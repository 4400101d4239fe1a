"""The critic's objections read against the scene: the reasons are the local model's own, from the fidelity benchmark's rows
(bench/results/fidelity); the loop tests run real Blender, real lint and the FAKE critic on loopback."""

from __future__ import annotations

import pytest

from bpywright.graph.loop.nodes.critic import salvage
from bpywright.graph.loop.run import generate
from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.graph.review.grounding import overruled, read
from bpywright.harness.report import BoundingBox, ObjectSummary, SceneSummary

from .samples import fenced
from .test_structure import BURGER, BURGER_PARTS, CLEAR

DRUMS = "Please create a 3D model of a drum set. Include a bass drum, snare drum, and a couple of tom-toms."
DRUMS_REASON = (
    "The scene does not match the request as it does not include a bass drum, snare drum, tom-toms, hi-hat, crash "
    "cymbals, or a ground plane."
)


def scene(*names: str) -> SceneSummary:
    box = BoundingBox(min=(0.0, 0.0, 0.0), max=(1.0, 1.0, 1.0))
    objects = [ObjectSummary(name=n, type="MESH", vertices=8, faces=6, visible=True, bbox=box) for n in names]
    objects.append(ObjectSummary(name="bpywright_camera", type="CAMERA"))
    return SceneSummary(object_count=len(objects), objects=objects, bbox=box, camera=True, light=False)


def test_a_part_called_missing_that_is_built_is_disproved() -> None:
    drums = scene("BassDrum", "SnareDrum", "TomTom_1", "TomTom_2")
    o = read(DRUMS_REASON, DRUMS, drums)
    assert o.claimed_missing == ["drum", "tom", "hat", "cymbal", "plane"] and o.present == ["drum", "tom"]
    # hi-hat and cymbals were never asked for, the ground plane is staging: nothing the request wants is missing
    assert not o.stands, o
    gone, notes = overruled([DRUMS_REASON], DRUMS, drums)
    assert gone and "built: drum" in notes[0] and "not asked for" in notes[0]


def test_an_objection_stands_when_a_part_it_names_is_not_built() -> None:
    o = read(DRUMS_REASON, DRUMS, scene("BassDrum", "Stool"))
    assert o.stands  # tom-toms are asked for and nothing is named for them
    assert overruled([DRUMS_REASON], DRUMS, scene("BassDrum", "Stool")) == (False, [])


def test_specific_objections_about_what_is_built_stand() -> None:
    chair = scene("Seat", "Leg_1", "Leg_2", "Leg_3", "Leg_4", "Backrest")
    prompt = "a wooden dining chair with four legs and a backrest"
    for reason in ("the backrest lies flat on the seat", "the legs are red, not wooden", "the seat is far too large"):
        assert read(reason, prompt, chair).stands, reason
    # one reason standing keeps the rejection, however many others are disproved
    assert overruled(["the chair does not include a backrest", "the legs are floating"], prompt, chair)[0] is False


def test_reasons_that_name_nothing_do_not_overrule_on_their_own() -> None:
    chair = scene("Seat", "Leg_1", "Backrest")
    prompt = "a chair with a backrest"
    assert read("The scene does not match the request.", prompt, chair).vague
    assert overruled(["The scene does not match the request.", "still"], prompt, chair) == (False, [])
    # beside a disproved one, they do not hold the rejection up
    gone, notes = overruled(["The scene does not match the request.", "The chair does not have a backrest."], prompt, chair)
    assert gone and len(notes) == 2


def test_the_whole_object_called_missing_stands_even_when_a_part_bears_its_name() -> None:
    """Whether the parts make the object is the critic's to judge: a wallpaper of two coincident planes, one of them named
    wallpaper, was accepted when such a reason counted as disproved."""
    wallpaper = scene("wallpaper_pattern", "background")
    prompt = "Design a wallpaper pattern that features a repeating geometric design."
    reason = "The script does not create a wallpaper pattern, but rather a simple scene with two planes."
    assert read(reason, prompt, wallpaper).stands and not overruled([reason], prompt, wallpaper)[0]
    wallet = scene("Outer_Cover", "Card_Slot_1", "Card_Slot_2", "Zipper")
    reason = "The scene does not match the request as it does not include a travel wallet, only a set of parts for a travel wallet"
    assert not overruled([reason], "Can you create a travel wallet?", wallet)[0]


def test_objecting_only_to_staging_is_disproved() -> None:
    sandwich = scene("Bread_Bottom", "Cheese", "Bread_Top")
    reason = "The scene contains objects that are not part of a sandwich, such as a camera and a sun."
    assert read(reason, "Create a sandwich.", sandwich).staging
    assert overruled([reason], "Create a sandwich.", sandwich)[0]
    assert read("The scene contains objects that are not part of a sandwich, such as Cheese.", "Create a sandwich.", sandwich).stands


def test_a_rubric_cut_off_in_its_reasons_keeps_its_score() -> None:
    kept = salvage('{"score": 0.4, "reasons": ["the lid is missing", "The scene does not match the request. The scene does not')
    assert kept is not None and kept.score == 0.4 and kept.reasons == ["the lid is missing"]
    assert salvage('{"score": 0.4, "reasons": [') is not None
    assert salvage('{"reasons": ["a"], "score": 0.4') is None and salvage("no json") is None
    assert salvage('{"score": 7, "reasons": ["x"]') is None  # out of range: no verdict


@pytest.mark.blender
def test_the_loop_accepts_a_built_burger_the_critic_calls_partless(settings, fake: FakeLLM, render_pool) -> None:
    import dataclasses

    reason = "The scene does not match the request as it does not include a bun, a beef patty, cheese, lettuce or tomato."
    fake.script("generate", fenced(BURGER_PARTS)).script("critic", critic_json(0.2, reason))
    result = generate(BURGER, settings=dataclasses.replace(settings, review="grounded"), pool=render_pool)
    assert result.outcome == "accepted", result.message
    assert result.score == 0.2 and fake.roles_asked() == ["generate", "critic"]  # no round spent on a disproved objection
    assert "overruled" in result.message and "built: bun, patty, cheese, lettuce, tomato" in result.message


@pytest.mark.blender
def test_the_loop_keeps_a_rejection_whose_reason_the_scene_cannot_disprove(settings, fake: FakeLLM, render_pool) -> None:
    import dataclasses

    no_tomato = BURGER_PARTS.replace('disc("Tomato", 0.6, 0.05, 0.9)\n', "")
    assert no_tomato != BURGER_PARTS and CLEAR in no_tomato
    reason = "The scene does not match the request as it does not include a tomato."
    fake.script("generate", fenced(no_tomato)).script("critic", critic_json(0.2, reason), critic_json(0.2, reason))
    fake.script("generate", fenced(no_tomato)).script("heal", fenced(no_tomato))
    result = generate(BURGER, settings=dataclasses.replace(settings, review="grounded"), pool=render_pool)
    assert result.outcome != "accepted", result.message


@pytest.mark.blender
def test_by_default_the_critic_models_verdict_stands_whatever_its_reasons(settings, fake: FakeLLM, render_pool) -> None:
    """BPYWRIGHT_REVIEW=model (the default): on the fidelity benchmark the local model's rejections were right, on the contact
    sheet, more often than its reasons; overruling them accepted a drum set of three boxes. Grounding is opt-in."""
    reason = "The scene does not match the request as it does not include a bun, a beef patty, cheese, lettuce or tomato."
    fake.script("generate", fenced(BURGER_PARTS), fenced(BURGER_PARTS)).script("critic", critic_json(0.2, reason), critic_json(0.2, reason))
    fake.script("heal", fenced(BURGER_PARTS))
    result = generate(BURGER, settings=settings, pool=render_pool)
    assert settings.review == "auto" and result.outcome != "accepted", result.message


@pytest.mark.blender
def test_review_by_checks_accepts_what_passes_them_without_asking_the_critic(settings, fake: FakeLLM, render_pool) -> None:
    """BPYWRIGHT_REVIEW=checks: the objective and structural checks decide; the critic model is never asked."""
    import dataclasses

    checks = dataclasses.replace(settings, review="checks")
    fake.script("generate", fenced(BURGER_PARTS))
    result = generate(BURGER, settings=checks, pool=render_pool)
    assert result.outcome == "accepted" and fake.roles_asked() == ["generate"], result.message
    assert result.cost is not None and result.cost.critic_calls == 0


@pytest.mark.blender
def test_review_none_asks_no_critic_and_accepts_nothing(settings, fake: FakeLLM, render_pool) -> None:
    """BPYWRIGHT_REVIEW=none (no model asked, nothing accepted): the checks still run, a
    script that passes them is returned unaccepted, with no critic call, and the message says how to get a review."""
    import dataclasses

    fake.script("generate", fenced(BURGER_PARTS))
    result = generate(BURGER, settings=dataclasses.replace(settings, review="none", max_critic_rounds=0), pool=render_pool)
    assert result.outcome == "best_attempt" and fake.roles_asked() == ["generate"], result.message
    assert "not reviewed, so not accepted" in result.message and "=model asks it" in result.message
    assert result.cost is not None and result.cost.critic_calls == 0


@pytest.mark.blender
def test_review_none_still_repairs_a_burger_of_one_cube(settings, fake: FakeLLM, render_pool) -> None:
    """The checks, not the model, find a script that builds nothing asked for: it gets its repair round either way."""
    import dataclasses

    from .test_structure import ONE_CUBE_BURGER

    fake.script("generate", fenced(ONE_CUBE_BURGER), fenced(ONE_CUBE_BURGER))
    result = generate(BURGER, settings=dataclasses.replace(settings, review="none", max_heal_rounds=1), pool=render_pool)
    asked = fake.roles_asked()
    assert asked[0] == "generate" and len(asked) >= 2, asked  # the one cube was sent back for repair
    assert "critic" not in asked and result.outcome != "accepted", result.message


@pytest.mark.blender
def test_review_by_checks_still_rejects_a_burger_of_one_cube(settings, fake: FakeLLM, render_pool) -> None:
    import dataclasses

    from .test_structure import ONE_CUBE_BURGER

    checks = dataclasses.replace(settings, review="checks", max_heal_rounds=1)
    fake.script("generate", fenced(ONE_CUBE_BURGER), fenced(ONE_CUBE_BURGER))
    result = generate(BURGER, settings=checks, pool=render_pool)
    assert result.outcome != "accepted" and "critic" not in fake.roles_asked(), result.message


def test_a_claim_about_how_a_part_is_built_stands_beside_a_part_of_that_name() -> None:
    blender = scene("Base", "Pitcher", "Lid")
    prompt = "Model a blender with a transparent pitcher and a lid."
    reason = "The script does not create a transparent pitcher and lid, but a regular box, cylinder, and cone."
    o = read(reason, prompt, blender)
    assert o.claimed_missing == ["pitcher", "lid"] and o.present == ["lid"] and o.stands  # transparency: no name shows it
    assert read("The script does not create a pitcher and a lid.", prompt, blender).stands is False
    chair = scene("Seat", "Backrest", "Leg_1")
    assert read("The armchair does not have a wide seat or a high backrest.", "an armchair with a wide seat and a backrest", chair).stands


def test_a_part_is_found_by_the_word_that_tells_it_from_its_kin() -> None:
    """The benchmark's drum set named its drums Bass and Snare: "no bass drum, snare drum or tom-toms" is disproved."""
    drums = scene("Bass", "Snare", "Tom-Tom 1", "Tom-Tom 2", "Hi-hat Stand", "Crash Cymbal Stand")
    reason = "The scene does not match the request as it does not include a bass drum, snare drum, or a couple of tom-toms."
    assert overruled([reason], DRUMS, drums)[0]
    assert not overruled([reason], DRUMS, scene("Bass", "Stool"))[0]  # no snare, no toms
