"""BPYWRIGHT_REVIEW=neighbours: an answer is accepted when its measured shape agrees with its nearest verified exemplars of
the same kind. Real Blender measures every scene, the store is real SQLite, the generator is the FAKE LLM on loopback."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bpywright.exemplars.store import ExemplarStore
from bpywright.fidelity.compare import compare
from bpywright.graph.loop.build import build_graph, checkpoint_db, sqlite_checkpointer
from bpywright.graph.loop.events import GenerationResult
from bpywright.graph.loop.run import generate
from bpywright.graph.loop.state import Attempt, GenState
from bpywright.graph.model.fake_llm import FakeLLM
from bpywright.graph.model.llm import VARIANT_TEMPERATURE
from bpywright.graph.review.agreement import (
    AGREE_WITH,
    MARGIN,
    PLAIN,
    PROPORTION,
    REPEAT_F,
    STRUCTURED,
    WRONG_MARGIN,
    Agreement,
    Floor,
    GeometryCache,
    Neighbour,
    against_archetype,
    agree,
    archetype_of,
    known_archetypes,
    neighbours_of,
    pool_measure,
    redraw_hint,
    shipped_floors,
    summary,
)
from bpywright.harness.options import RunOptions
from bpywright.harness.report import RunReport

from .samples import fenced
from .test_structure import BURGER, BURGER_PARTS, CLEAR

# Two verified burgers of other people's making: stacked discs, sized unlike the answer's.
STACK = (
    CLEAR
    + """
def disc(name, z, h, r):
    bpy.ops.mesh.primitive_cylinder_add(radius=r, depth=h, location=(0, 0, z))
    bpy.context.active_object.name = name

disc("BottomBun", 0.2, 0.4, {r})
disc("Patty", 0.5, 0.2, {r})
disc("TopBun", 0.85, 0.5, {r})
"""
)
NEIGHBOURS = {
    "a burger with two buns and a patty": STACK.format(r=1.2),
    "a simple burger: a bun, a beef patty, another bun": STACK.format(r=0.9),
}
# Two "burgers" a stack of discs is no closer to than a cube is: takeaway boxes.
BOX = CLEAR + "bpy.ops.mesh.primitive_cube_add(size=1.0)\nbpy.context.active_object.scale = (1.0, 1.0, 0.8)\n"
BOXES = {"a burger box for takeaway": BOX, "a burger box made of card": BOX.replace("0.8", "0.9")}


def attempts_of(settings, thread_id: str) -> list[Attempt]:
    """The run's attempts, read back from its checkpoint."""
    with sqlite_checkpointer(checkpoint_db(settings)) as saver:
        values = build_graph(checkpointer=saver).get_state({"configurable": {"thread_id": thread_id}}).values
    return GenState.model_validate(values).attempts


def ok() -> RunReport:
    return RunReport(status="ok", backend="bpy-module", sandbox="rlimits-only", blender_version="4.5.0")  # type: ignore[arg-type]


def store_with(path: Path, pairs: dict[str, str], source: str = "imported") -> ExemplarStore:
    store = ExemplarStore(path / "exemplars.sqlite", path / "files", clip=None)
    for prompt, script in pairs.items():
        added = store.add(script=script, prompt=prompt, report=ok(), render=None, source=source, blender_version="4.5")
        store.set_trusted(added.exemplar.id)
    return store


@pytest.fixture
def measure(render_pool):
    return pool_measure(render_pool, RunOptions(render=False, timeout=30))


@pytest.mark.blender
def test_an_answer_shaped_like_its_verified_neighbours_agrees(tmp_path: Path, measure) -> None:
    with store_with(tmp_path, NEIGHBOURS) as store:
        verdict = agree(BURGER, BURGER_PARTS, "4.5", store, measure, GeometryCache(tmp_path / "measures"))
    assert verdict.agreed, verdict.why
    assert len(verdict.neighbours) == AGREE_WITH and all(n.fscore > n.cube + 0.2 for n in verdict.neighbours)
    assert "agrees with the 2 nearest verified exemplars" in verdict.why


@pytest.mark.blender
def test_an_answer_unlike_its_neighbours_is_not_accepted(tmp_path: Path, measure) -> None:
    with store_with(tmp_path, BOXES) as store:
        verdict = agree(BURGER, BURGER_PARTS, "4.5", store, measure, GeometryCache(tmp_path / "measures"))
    assert not verdict.agreed and len(verdict.neighbours) == 2
    assert "does not agree" in verdict.why and not all(n.agrees for n in verdict.neighbours)


@pytest.mark.blender
def test_a_store_without_two_of_its_kind_gives_no_verdict(tmp_path: Path, measure) -> None:
    chairs = {"a wooden chair": BOX, "a tall bar stool": BOX}
    with store_with(tmp_path, chairs | dict(list(NEIGHBOURS.items())[:1])) as store:
        verdict = agree(BURGER, BURGER_PARTS, "4.5", store, measure, GeometryCache(tmp_path / "measures"))
    assert not verdict.agreed and verdict.neighbours == []
    assert "holds 1 verified exemplar(s) of this kind" in verdict.why


def test_generated_exemplars_never_vouch_for_an_answer(tmp_path: Path) -> None:
    with store_with(tmp_path, NEIGHBOURS, source="generated") as store:
        assert store.nearest(BURGER, "4.5", 6) and neighbours_of(store, BURGER, "4.5") == []


def test_a_users_script_vouches_for_answers_only_once_trusted(tmp_path: Path) -> None:
    """A user's upload is a trust boundary: a cube sent in as "a burger" must not make cubes pass for burgers."""
    store = ExemplarStore(tmp_path / "exemplars.sqlite", tmp_path / "files", clip=None)
    with store:
        added = [
            store.add(script=s, prompt=p, report=ok(), render=None, source="user", blender_version="4.5") for p, s in NEIGHBOURS.items()
        ]
        assert neighbours_of(store, BURGER, "4.5") == []
        for a in added:
            store.set_trusted(a.exemplar.id)
        assert {n.id for n in neighbours_of(store, BURGER, "4.5")} == {a.exemplar.id for a in added}


@pytest.mark.blender
def test_measurements_are_cached_and_a_damaged_entry_is_measured_anew(tmp_path: Path, measure) -> None:
    calls: list[str] = []

    def counted(script: str):
        calls.append(script)
        return measure(script)

    cache = GeometryCache(tmp_path / "measures")
    first = cache.get(BOX, counted)
    assert first is not None and not first.empty and cache.get(BOX, counted) == first and len(calls) == 1
    (entry,) = (tmp_path / "measures").glob("*.json")
    entry.write_text('{"parts": "forged"', encoding="utf-8")
    assert cache.get(BOX, counted) == first and len(calls) == 2


@pytest.mark.blender
def test_the_loop_accepts_by_agreement_and_the_store_grows(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0)
    fake.script("generate", fenced(BURGER_PARTS))
    with store_with(tmp_path / "store", NEIGHBOURS) as store:
        result = generate(BURGER, settings=neighbours, pool=render_pool, store=store)
        assert result.outcome == "accepted" and "its shape agrees with 2 verified exemplars of its kind" in result.message, result.message
        assert fake.roles_asked() == ["generate"] and result.cost is not None and result.cost.critic_calls == 0
        grown = [e for e in store.list(limit=10).items if e.source == "generated"]
        assert len(grown) == 1 and grown[0].script == result.script
        # the accepted answer does not vouch for the next one: still two neighbours, both imported
        assert [n.source for n in neighbours_of(store, BURGER, "4.5")] == ["imported", "imported"]


# The same burger as a thin column: every part the request names, stacked and touching, shaped like no burger.
SKEWER = BURGER_PARTS.replace("radius=r,", "radius=r * 0.05,").replace("(i - 1) * 0.5", "(i - 1) * 0.02")


@pytest.mark.blender
def test_the_loop_draws_one_fresh_answer_when_the_first_disagrees_and_returns_the_closer(
    settings, fake: FakeLLM, render_pool, tmp_path: Path
) -> None:
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0, redraws=1)
    fake.script("generate", fenced(BURGER_PARTS), fenced(SKEWER), fenced(BURGER_PARTS))
    events: list = []
    with store_with(tmp_path / "store", BOXES) as store:
        result = generate(BURGER, settings=neighbours, pool=render_pool, store=store, on_event=events.append)
        assert result.outcome == "best_attempt" and "critic" not in fake.roles_asked(), result.message
        # the best attempt's verdict, then the stop's (the last attempt's, another answer): each said once
        assert result.message.count("does not agree with the 2 nearest verified exemplars") == 2
        assert not [e for e in store.list(limit=10).items if e.source == "generated"]
    # one redraw, no more: the third answer queued is never asked for
    assert fake.roles_asked() == ["generate", "generate"] and fake.queues["generate"]
    first, second = attempts_of(neighbours, result.thread_id)
    assert "redrawn: #0 its shape did not agree" in second.note and second.parent == 0
    # the fresh answer is the redraw node's, an edge of the graph: critic → redraw → validate → critic
    steps = [e.node for e in events if e.node in ("generate", "critic", "redraw", "heal", "run")]
    assert steps == ["generate", "run", "critic", "redraw", "run", "critic"], steps
    assert first.critique is not None and second.critique is not None
    assert len(first.critique.agreement) == len(second.critique.agreement) == AGREE_WITH
    # of two answers that both disagree, the one closer to the neighbours is returned
    margin = {a.index: min(n["fscore"] - n["cube"] for n in a.critique.agreement) for a in (first, second)}  # type: ignore[union-attr]
    assert result.script == max((first, second), key=lambda a: margin[a.index]).script


@pytest.mark.blender
def test_a_fresh_answer_that_agrees_is_accepted(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0, redraws=1)
    fake.script("generate", fenced(SKEWER), fenced(BURGER_PARTS))
    with store_with(tmp_path / "store", NEIGHBOURS) as store:
        result = generate(BURGER, settings=neighbours, pool=render_pool, store=store)
        assert result.outcome == "accepted" and result.script is not None and "Bun_Top" in result.script, result.message
        assert "radius=r * 0.05" not in result.script and fake.roles_asked() == ["generate", "generate"]
        (first, _) = attempts_of(neighbours, result.thread_id)
        assert first.critique is not None and not first.critique.accepted and first.critique.agreement


@pytest.mark.blender
def test_an_archetypes_verdict_draws_a_fresh_answer_too(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0, redraws=1)
    fake.script("generate", fenced(SKEWER), fenced(BURGER_PARTS))
    with store_with(tmp_path / "store", dict(list(NEIGHBOURS.items())[:1])) as store:
        result = generate(BURGER, settings=neighbours, pool=render_pool, store=store)
    # one verified burger is too few: the skewer is held against the plan library's burger instead, which is a verdict
    # another answer can change, so a fresh one is drawn, and the stack agrees
    assert result.outcome == "accepted" and fake.roles_asked() == ["generate", "generate"], result.message
    assert result.script is not None and "radius=r * 0.05" not in result.script
    first, second = attempts_of(neighbours, result.thread_id)
    assert first.critique is not None and not first.critique.accepted
    assert [n.get("archetype") for n in first.critique.agreement] == [True]
    assert second.note.startswith("redrawn: #0 its shape did not agree with the archetype of its kind"), second.note


@pytest.mark.blender
def test_no_fresh_answer_is_drawn_when_there_is_no_verdict(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    """A kind with neither two verified exemplars nor an archetype gives no verdict: no other answer can change that,
    so nothing is drawn, however many redraws are allowed."""
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0, redraws=2)
    coral = CLEAR + "bpy.ops.mesh.primitive_uv_sphere_add(radius=0.3)\nbpy.context.active_object.scale.z = 0.6\n"
    fake.script("generate", fenced(coral), fenced(coral), fenced(coral))
    with store_with(tmp_path / "store", {}) as store:
        result = generate(CORAL, settings=neighbours, pool=render_pool, store=store)
    assert result.outcome == "best_attempt" and fake.roles_asked() == ["generate"] and result.attempts == 1, result.message
    assert "no archetype of its kind" in result.message


# A request whose kind the plan library has no archetype of.
CORAL = "a brain coral on the sea floor"


@pytest.mark.blender
def test_where_the_store_has_too_few_the_plan_librarys_archetype_of_the_kind_decides(tmp_path: Path, measure) -> None:
    cache, none = GeometryCache(tmp_path / "measures"), Agreement(False, "not accepted: too few", too_few=True)
    found = archetype_of(BURGER, "4.5")
    assert found is not None and found.id == "plan:3" and found.shown and "burger" in found.request
    assert "primitive_cylinder_add" in found.script
    stack = against_archetype(BURGER, BURGER_PARTS, "4.5", measure, cache, none)
    assert stack.agreed and not stack.too_few, stack.why
    (n,) = stack.neighbours
    assert n.archetype and n.fscore > n.cube + MARGIN and "agrees with the plan library's archetype" in stack.why
    # every part the request names, as a thin column: no closer to the burger than a cube is, by the margin
    column = against_archetype(BURGER, SKEWER, "4.5", measure, cache, none)
    assert not column.agreed and not column.too_few and not column.neighbours[0].agrees, column.why
    # the archetype itself, every size doubled: the shown plan repeated up to scale is no agreement
    doubled = found.script.replace(
        "PARTS = [", "PARTS = [(n, s, tuple(2 * v for v in z), tuple(2 * v for v in c), r, k) for n, s, z, c, r, k in [", 1
    )
    doubled = doubled.replace("\n]\n", "\n]]\n", 1)
    again = against_archetype(BURGER, doubled, "4.5", measure, cache, none)
    assert not again.agreed and again.neighbours[0].repeats and again.neighbours[0].fscore >= REPEAT_F, again.why
    assert "archetype of its kind again, up to scale" in again.why
    # a kind the library has no plan of: still no verdict, and the reason says so
    assert archetype_of(CORAL, "4.5") is None
    # the kind is the request's own object: a word of its details names none (a drum set's pedal is no bench's kind)
    # nor does a word that modifies the next: a drum set is no one drum (kind_heads)
    assert archetype_of("a drum set with a bass drum, a snare, a stool and a hi-hat", "4.5") is None
    stool = archetype_of("a wooden stool with three legs", "4.5")
    # a narrower kind among the critic's shapes (never shown to the model) comes before the shown library's bench
    assert stool is not None and stool.id.startswith("shape:") and not stool.shown and "stool" in stool.request
    coral = against_archetype(CORAL, BURGER_PARTS, "4.5", measure, cache, none)
    assert coral.too_few and not coral.agreed and coral.neighbours == []
    assert coral.why.startswith("not accepted: too few") and "no archetype of its kind" in coral.why


@pytest.mark.blender
def test_an_answer_that_is_a_critics_shape_again_agrees_as_it_was_never_shown(tmp_path: Path, measure) -> None:
    cache, none = GeometryCache(tmp_path / "measures"), Agreement(False, "not accepted: too few", too_few=True)
    ball = "a tennis ball with a felt cover"
    found = archetype_of(ball, "4.5")
    assert found is not None and not found.shown and found.request == "a ball"
    # a sphere is a ball: the shape itself, which the model never saw, is the best agreement there is, not a copy
    again = against_archetype(ball, found.script, "4.5", measure, cache, none)
    assert again.agreed and not again.neighbours[0].repeats and again.neighbours[0].fscore >= REPEAT_F, again.why
    assert "agrees with the critic's archetype of its kind" in again.why and "against the critic's archetype 'a ball'" in again.why
    column = against_archetype(ball, SKEWER, "4.5", measure, cache, none)  # a thin column is no ball
    assert not column.agreed and not column.too_few, column.why


@pytest.mark.blender
def test_a_fresh_store_accepts_an_answer_shaped_like_the_archetype_and_grows(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0)
    fake.script("generate", fenced(BURGER_PARTS))
    events: list = []
    with store_with(tmp_path / "store", {}) as store:
        result = generate(BURGER, settings=neighbours, pool=render_pool, store=store, on_event=events.append)
        assert result.outcome == "accepted", result.message
        assert "agrees with the archetype of its kind (plan:3)" in result.message
        # the progress line says what it was held against: no verified exemplar was
        assert [e.status for e in events if e.node == "critic"] == ["agrees with the archetype of its kind, accepted"]
        grown = [e for e in store.list(limit=10).items if e.source == "generated"]
        assert len(grown) == 1 and grown[0].script == result.script
        # the accepted answer is generated: it never vouches, so the next burger is held against the archetype again
        assert neighbours_of(store, BURGER, "4.5") == []
    (answer,) = attempts_of(neighbours, result.thread_id)
    assert answer.critique is not None and [n.get("archetype") for n in answer.critique.agreement] == [True]


@pytest.mark.blender
def test_a_fresh_store_gives_no_verdict_on_a_kind_the_library_lacks(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0)
    coral = CLEAR + "bpy.ops.mesh.primitive_uv_sphere_add(radius=0.3)\nbpy.context.active_object.scale.z = 0.6\n"
    fake.script("generate", fenced(coral))
    with store_with(tmp_path / "store", {}) as store:
        result = generate(CORAL, settings=neighbours, pool=render_pool, store=store)
        assert result.outcome == "best_attempt" and not [e for e in store.list(limit=10).items if e.source == "generated"]
    assert "holds 0 verified exemplar(s) of this kind" in result.message and "no archetype of its kind" in result.message


@pytest.mark.blender
def test_under_the_plan_strategy_the_fresh_answer_is_a_plan_sampled_afresh(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    from .test_plan import BURGER as BURGER_PLAN

    plan = json.loads(BURGER_PLAN)
    for part in plan["parts"]:  # the same parts as a thin column
        part["size"][0] *= 0.1
        part["size"][1] *= 0.1
        part["location"][0] *= 0.1
    neighbours = dataclasses.replace(
        settings, review="neighbours", max_critic_rounds=0, redraws=1, strategy="plan", llm_sampling=(("seed", 7.0),)
    )
    stack = json.loads(BURGER_PLAN)  # the fresh plan: discs stacked, as the verified burgers are built
    stack["parts"][-1] |= {"shape": "cylinder", "size": [0.12, 0.12, 0.03], "location": [0, 0, 0.088]}
    for part in stack["parts"]:  # twice as wide: about as squat as the verified ones
        part["size"][0] *= 2
        part["size"][1] *= 2
        part["location"][0] *= 2
    fake.script("plan", json.dumps(plan), json.dumps(stack))
    with store_with(tmp_path / "store", NEIGHBOURS) as store:
        result = generate(BURGER, settings=neighbours, pool=render_pool, store=store)
    assert result.outcome == "accepted", result.message
    asked = [body for body in fake.chat_requests if body.get("response_format")]
    assert len(asked) == 2 and "critic" not in fake.roles_asked()
    # the first plan is greedy; the fresh one a sample of its own (the configured seed + 1), not a revision of the first
    assert asked[0].get("temperature") == 0.0 and asked[1].get("temperature") == VARIANT_TEMPERATURE
    assert asked[1].get("seed") == 8
    assert "thin" not in asked[1]["messages"][-1]["content"] and json.dumps(plan["parts"][0]) not in asked[1]["messages"][-1]["content"]
    first, second = attempts_of(neighbours, result.thread_id)
    assert first.critique is not None and not first.critique.accepted and second.critique is not None and second.critique.accepted
    assert second.note.startswith("redrawn: #0") and "a fresh plan, sampled" in second.note


def skewers_then_the_burger(settings, fake: FakeLLM, render_pool, tmp_path: Path, skewers: int) -> GenerationResult:
    """The burger request, answered first by `skewers` skewers (each a little thicker, none agreeing with the verified
    burgers), then by the burger's parts, which agree."""
    thicker = [SKEWER.replace("r * 0.05", f"r * {0.05 + 0.01 * k:.2f}") for k in range(skewers)]
    fake.script("generate", *map(fenced, thicker), fenced(BURGER_PARTS))
    with store_with(tmp_path / "store", NEIGHBOURS) as store:
        return generate(BURGER, settings=settings, pool=render_pool, store=store)


@pytest.mark.blender
@pytest.mark.parametrize("redraws", [None, 3])
def test_the_fresh_answers_asked_for_are_drawn_and_no_more(
    settings, fake: FakeLLM, render_pool, tmp_path: Path, redraws: int | None
) -> None:
    """Settings.redraws is 2 unless set (BPYWRIGHT_REDRAWS): an answer that keeps disagreeing gets two fresh draws (three
    with BPYWRIGHT_REDRAWS=3), then the closest of them all is returned as the best attempt, saying why it was not
    accepted."""
    assert settings.redraws == 2
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0, max_heal_rounds=3)
    if redraws is not None:
        neighbours = dataclasses.replace(neighbours, redraws=redraws)
    drawn = 1 + neighbours.redraws
    result = skewers_then_the_burger(neighbours, fake, render_pool, tmp_path, drawn)
    assert result.outcome == "best_attempt" and fake.roles_asked() == ["generate"] * drawn and result.attempts == drawn, result.message
    assert fake.queues["generate"]  # the next answer, which would agree, is never asked for
    notes = [a.note for a in attempts_of(neighbours, result.thread_id)]
    assert [n.startswith("redrawn:") for n in notes] == [False] + [True] * neighbours.redraws, notes


@pytest.mark.blender
def test_redraws_are_bounded_by_the_heal_rounds_too(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    """Each redraw takes a heal round: with 3 redraws allowed and 2 rounds, the third is not drawn."""
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0, max_heal_rounds=2, redraws=3)
    result = skewers_then_the_burger(neighbours, fake, render_pool, tmp_path, 3)
    assert result.outcome == "best_attempt" and fake.roles_asked() == ["generate"] * 3 and result.attempts == 3, result.message
    assert len(fake.queues["generate"]) == 1  # the third redraw, which would agree, is never asked for


def test_an_archetypes_wrong_object_floor_is_a_second_floor_beside_the_cube() -> None:
    # against an archetype with a floor: MARGIN over a cube and WRONG_MARGIN over other objects
    assert Neighbour("a", "", 0.65, 0.40, archetype=True, shown=False, wrong=0.50).agrees
    assert not Neighbour("a", "", 0.65, 0.40, archetype=True, shown=False, wrong=0.70).agrees  # other objects score more
    assert not Neighbour("a", "", 0.65, 0.40, archetype=True, shown=False, wrong=0.60).agrees  # closer by a hair only
    assert WRONG_MARGIN == 0.1
    assert not Neighbour("a", "", 0.55, 0.40, archetype=True, shown=False, wrong=0.30).agrees  # within the margin of a cube
    # without one (an exemplar, or an archetype changed since the floors were measured): MARGIN over a cube alone
    assert not Neighbour("e", "", 0.55, 0.40).agrees and Neighbour("e", "", 0.61, 0.40).agrees
    # an archetype whose cover was measured: ARCHETYPE_MARGIN over a cube, and COVER of its surface
    assert Neighbour("a", "", 0.55, 0.40, archetype=True, shown=False, wrong=0.40, cover=0.6).agrees
    assert not Neighbour("a", "", 0.55, 0.40, archetype=True, shown=False, wrong=0.40, cover=0.45).agrees  # half uncovered
    assert not Neighbour("a", "", 0.48, 0.40, archetype=True, shown=False, wrong=0.30, cover=0.9).agrees  # within 0.1 of a cube
    assert not Neighbour("e", "", 0.55, 0.40, cover=0.9).agrees  # an exemplar keeps MARGIN
    # the shown library repeated up to scale is no agreement, floor or not
    assert not Neighbour("p", "", 0.995, 0.40, archetype=True, shown=True, wrong=0.5).agrees

    # against an archetype whose proportions were measured: within a factor of PROPORTION of its flatness, either way
    def shaped(proportion: float) -> Neighbour:
        return Neighbour("a", "", 0.8, 0.4, archetype=True, shown=False, wrong=0.50, cover=0.9, proportion=proportion)

    assert shaped(PROPORTION * 0.99).agrees and shaped(1.01 / PROPORTION).agrees
    assert not shaped(PROPORTION * 1.01).agrees and not shaped(0.99 / PROPORTION).agrees

    # against an archetype whose plainness was measured: no plain solid (PLAIN) where the archetype is not near one
    def plain(answer: float | None, archetype: float | None) -> Neighbour:
        return dataclasses.replace(shaped(1.0), plain=answer, archetype_plain=archetype)

    assert plain(1.0, 0.86).agrees  # a plain answer for a kind near a plain solid (a box for a sponge)
    assert plain(PLAIN - 0.01, 0.3).agrees  # more than a plain solid, however structured the archetype
    assert not plain(PLAIN, STRUCTURED - 0.01).agrees and plain(PLAIN, STRUCTURED).agrees
    assert not plain(1.0, 0.42).agrees and plain(1.0, 0.42).too_plain  # a cube for a microscope
    assert plain(1.0, None).agrees and plain(None, 0.42).agrees  # not measured (an exemplar): no such bar


def taller(script: str, k: float) -> str:
    """A plan-built script with every part k times as tall and k times as high off the ground."""
    stretched = script.replace(
        "PARTS = [", f"PARTS = [(n, s, (z[0], z[1], {k} * z[2]), (c[0], c[1], {k} * c[2]), r, k) for n, s, z, c, r, k in [", 1
    )
    return stretched.replace("\n]\n", "\n]]\n", 1)


@pytest.mark.blender
def test_a_pizza_drawn_as_a_tall_cake_is_no_pizza_however_close_its_f_score(tmp_path: Path, measure) -> None:
    """Pizzas drawn as tall cylinders with toppings on top beat the pizza archetype by F (normalised by the
    bounding-box diagonal) and were accepted. The critic's pizza, 4 times as tall, still passes every other bar; its
    proportions do not."""
    cache, none = GeometryCache(tmp_path / "measures"), Agreement(False, "not accepted: too few", too_few=True)
    pizza = "a pizza with pepperoni slices and melted cheese"
    found = archetype_of(pizza, "4.5")
    assert found is not None and not found.shown and "pizza" in found.request
    itself = against_archetype(pizza, found.script, "4.5", measure, cache, none)
    assert itself.agreed and abs(itself.neighbours[0].proportion - 1.0) < 1e-6, itself.why  # type: ignore[operator]
    assert "height to width" in itself.why
    twice = against_archetype(pizza, taller(found.script, 2), "4.5", measure, cache, none)
    assert twice.agreed and abs(twice.neighbours[0].proportion - 2.0) < 0.01, twice.why  # type: ignore[operator]
    cake = against_archetype(pizza, taller(found.script, 4), "4.5", measure, cache, none)
    (n,) = cake.neighbours
    assert not cake.agreed and abs(n.proportion - 4.0) < 0.01 and not n.proportioned, cake.why  # type: ignore[operator]
    assert dataclasses.replace(n, proportion=None).agrees  # by F, the wrong-object floor and the cover alone it would agree
    assert "in its proportions" in cake.why


POLE = CLEAR + "bpy.ops.mesh.primitive_cylinder_add(radius=0.12, depth=1.8, location=(0, 0, 0.9))\n"


@pytest.mark.blender
def test_a_coat_rack_drawn_as_one_pole_is_no_coat_rack_however_close_its_f_score(tmp_path: Path, measure) -> None:
    """A coat rack and a floor lamp drawn as one pole passed every other bar against their
    archetypes (a base, a pole, hooks or a shade), as did a cube for a microscope. A plain solid filling the answer's
    bounds is the answer; it is not the archetype, and the critic's own coat rack is not a plain solid."""
    cache, none = GeometryCache(tmp_path / "measures"), Agreement(False, "not accepted: too few", too_few=True)
    rack = "a wooden coat rack with hooks"
    found = archetype_of(rack, "4.5")
    assert found is not None and not found.shown and "coat rack" in found.request
    itself = against_archetype(rack, found.script, "4.5", measure, cache, none)
    (n,) = itself.neighbours
    assert itself.agreed and n.plain == n.archetype_plain and n.archetype_plain < STRUCTURED, itself.why  # type: ignore[operator]
    pole = against_archetype(rack, POLE, "4.5", measure, cache, none)
    (n,) = pole.neighbours
    assert not pole.agreed and n.too_plain and n.plain >= PLAIN, pole.why  # type: ignore[operator]
    assert dataclasses.replace(n, plain=None).agrees  # by every other bar it would agree
    assert "filling its bounds scores 1.00 against it" in pole.why and "more than one plain solid" in pole.why, pole.why
    # a box for a kind whose archetype is near a box is held to the other bars alone: a sponge
    box = against_archetype("a kitchen sponge", BOX, "4.5", measure, cache, none)
    (n,) = box.neighbours
    assert n.plain is not None and n.plain > 0.95 and n.archetype_plain >= STRUCTURED and not n.too_plain, box.why  # type: ignore[operator]


SHEET = CLEAR + "bpy.ops.mesh.primitive_cube_add(size=1.0)\nbpy.context.active_object.scale = (0.5, 0.5, 0.01)\n"
SQUARES = (
    CLEAR
    + """
for i in range(8):
    for j in range(8):
        bpy.ops.mesh.primitive_cube_add(size=0.0625, location=(i * 0.0625 - 0.22, j * 0.0625 - 0.22, 0.0))
        bpy.context.active_object.scale = (1.0, 1.0, 0.15)
"""
)


@pytest.mark.blender
def test_a_chessboard_drawn_as_one_sheet_is_no_chessboard_however_close_its_f_score(tmp_path: Path, measure) -> None:
    """A white sheet with one tiny cube for a chessboard, a grey square for a chessboard
    pattern and two squares for a wallpaper pattern were accepted. A pattern is flat, and at 5 % of the diagonal one
    sheet has the F-score of a sheet of tiles; a request for a pattern needs PATTERN_PARTS parts or more."""
    cache, none = GeometryCache(tmp_path / "measures"), Agreement(False, "not accepted: too few", too_few=True)
    board = "a chessboard with alternating squares"  # no colour named: the pattern bar alone refuses the sheet
    sheet = against_archetype(board, SHEET, "4.5", measure, cache, none)
    (n,) = sheet.neighbours
    assert not sheet.agreed and n.unrepeated and n.pattern_parts == 1, sheet.why
    assert dataclasses.replace(n, pattern_parts=None).agrees, sheet.why  # by every other bar it would agree
    assert "the request asks for a pattern: 1 part(s) (4 or more needed)" in sheet.why and "a pattern of 4 parts or more" in sheet.why
    squares = against_archetype(board, SQUARES, "4.5", measure, cache, none)
    (m,) = squares.neighbours
    assert squares.agreed and m.pattern_parts == 64 and not m.unrepeated, squares.why
    assert Neighbour.from_summary(summary(sheet)[0]).pattern_parts == 1  # kept with the critique, read back by bench/
    # the same sheet for a request that asks for no pattern is held to the other bars alone: a tray is one sheet
    tray = against_archetype("a serving tray", SHEET, "4.5", measure, cache, none)
    assert tray.neighbours and tray.neighbours[0].pattern_parts is None and not tray.neighbours[0].unrepeated, tray.why


@pytest.mark.blender
def test_a_redraw_is_told_only_what_a_plan_can_meet_of_the_archetype(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    """Pizzas drawn as tall cakes were refused for their proportions alone, and each fresh plan, told
    nothing, was a cake again. The fresh plan is told how many times too tall the earlier one was (not the archetype's
    figures, its F, cover or floor), and a flat pizza is accepted."""
    pizza = "a pizza with pepperoni slices and melted cheese"
    found = archetype_of(pizza, "4.5")
    assert found is not None
    cake = json.loads(found.plan)
    for part in cake["parts"]:  # every part 4 times as thick: a cake with toppings
        part["size"][2] *= 4
    # the fake's flat pizza is the critic's own shape: shown (plan_shapes), it would be the shown shape again, refused as
    # such (test_a_critics_shape_that_was_shown_and_is_repeated_is_no_agreement); here the hint is under test
    neighbours = dataclasses.replace(
        settings, review="neighbours", max_critic_rounds=0, redraws=1, strategy="plan", llm_sampling=(("seed", 7.0),), plan_shapes=False
    )
    fake.script("plan", json.dumps(cake), found.plan)
    with store_with(tmp_path / "store", {}) as store:
        result = generate(pizza, settings=neighbours, pool=render_pool, store=store)
    assert result.outcome == "accepted", result.message
    asked = [body for body in fake.chat_requests if body.get("response_format")]
    assert len(asked) == 2
    assert "drew the object" not in asked[0]["messages"][-1]["content"]
    told = asked[1]["messages"][-1]["content"].split("It was rejected:")[1]  # after the request and the related plans
    assert "drew the object 4.0 times as tall, for its width, as such an object is" in told and "much flatter" in told, told
    assert "F " not in told and "cover" not in told and found.request not in told and "0.0" not in told
    first, second = attempts_of(neighbours, result.thread_id)
    assert first.critique is not None and not first.critique.accepted
    assert "told what the earlier plan lacked" in second.note, second.note


@pytest.mark.blender
def test_a_pattern_drawn_as_one_sheet_is_redrawn_and_told_to_repeat_its_tiles(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    """The loop, not only the bar: a chessboard planned as one sheet is refused for its part count, and the fresh plan is
    told how many parts the last one had and that a pattern repeats its shapes; a board of tiles is accepted."""
    board = "a chessboard with alternating squares"  # no colour named: the pattern bar alone refuses the sheet

    def tile(at: str, color: str) -> dict[str, object]:
        return {"name": f"square_{at}", "shape": "box", "size": [0.15, 0.15, 0.004], "on": "board", "side": "top", "at": at, "color": color}

    base = {
        "name": "board",
        "shape": "box",
        "size": [0.45, 0.45, 0.02],
        "on": "ground",
        "side": "top",
        "at": "center",
        "color": "dark_brown",
    }
    places = ["back_left", "back", "back_right", "left", "center", "right", "front_left", "front", "front_right"]
    tiles = {"object": "chessboard", "parts": [base] + [tile(at, "black" if i % 2 else "white") for i, at in enumerate(places)]}
    sheet = {"object": "chessboard", "parts": [base | {"name": "squares", "color": "grey"}]}  # one grey square for the board
    neighbours = dataclasses.replace(
        settings, review="neighbours", max_critic_rounds=0, redraws=1, strategy="plan", llm_sampling=(("seed", 7.0),)
    )
    fake.script("plan", json.dumps(sheet), json.dumps(tiles))
    with store_with(tmp_path / "store", {}) as store:
        result = generate(board, settings=neighbours, pool=render_pool, store=store)
    assert result.outcome == "accepted", result.message
    asked = [body for body in fake.chat_requests if body.get("response_format")]
    assert len(asked) == 2 and "A pattern repeats" not in asked[0]["messages"][-1]["content"]
    told = asked[1]["messages"][-1]["content"].split("It was rejected:")[1]
    assert "drew 1 part(s). A pattern repeats its shapes" in told and "4 or more" in told, told
    first, second = attempts_of(neighbours, result.thread_id)
    assert first.critique is not None and not first.critique.accepted
    assert first.critique.agreement[0]["pattern_parts"] == 1 and second.critique is not None and second.critique.accepted
    assert any("asks for a pattern: 1 part(s)" in reason for reason in first.critique.reasons), first.critique.reasons
    assert "told what the earlier plan lacked" in second.note, second.note


def test_the_redraw_hint_names_the_bar_that_failed_and_nothing_else() -> None:
    archetype = {"id": "shape:1", "fscore": 0.7, "cube": 0.2, "archetype": True, "cover": 0.9, "proportion": 1.0}
    assert redraw_hint([archetype]) == ""  # refused for another bar (F, cover, floor): nothing a plan is told
    flat = redraw_hint([archetype | {"proportion": 0.2}])
    assert "5.0 times as flat" in flat and "much taller" in flat and "larger share" in flat
    plain = redraw_hint([archetype | {"plain": 0.97, "archetype_plain": 0.42}])
    assert "one plain block or cylinder" in plain and "times as" not in plain
    assert redraw_hint([archetype | {"plain": 0.97, "archetype_plain": 0.86}]) == ""  # a box for a sponge is no fault
    pattern = redraw_hint([archetype | {"pattern_parts": 2}])
    assert "drew 2 part(s). A pattern repeats its shapes" in pattern and "4 or more" in pattern and "times as" not in pattern
    assert redraw_hint([archetype | {"pattern_parts": 64}]) == ""  # a pattern of tiles is no fault
    # verified exemplars, or fresh plans of the request, are no archetype: no proportions of theirs are told
    assert redraw_hint([{"id": "e1", "fscore": 0.3, "cube": 0.2, "proportion": 9.0}] * 2) == ""


def test_every_archetype_has_a_shipped_wrong_object_floor_of_another_kind() -> None:
    floors, known = shipped_floors(), known_archetypes("4.5")
    assert len(floors) == len(known)
    by_request = {k.request: k for k in known}
    for k in known:
        floor = floors[k.digest]  # measured from this request and plan: a shape edited since fails here
        other = by_request[floor.at]
        assert not other.kinds & k.kinds and 0.0 < floor.fscore < 1.0, (k.request, floor)


@pytest.mark.blender
def test_the_shipped_floors_are_what_blender_measures(tmp_path: Path, measure) -> None:
    cache = GeometryCache(tmp_path / "measures")
    known = {k.request: k for k in known_archetypes("4.5")}
    floors = shipped_floors()
    for request in ("a ball", "a three-seat sofa with a backrest, two armrests and seat cushions"):
        floor = floors[known[request].digest]
        archetype, other = cache.get(known[request].script, measure), cache.get(known[floor.at].script, measure)
        assert archetype is not None and other is not None
        assert abs(compare(other, archetype).fscore - floor.fscore) < 0.02, (request, floor)


@pytest.mark.blender
def test_an_answer_no_closer_to_the_archetype_than_other_objects_is_not_accepted(tmp_path: Path, measure, monkeypatch) -> None:
    cache, none = GeometryCache(tmp_path / "measures"), Agreement(False, "not accepted: too few", too_few=True)
    found = archetype_of(BURGER, "4.5")
    assert found is not None
    stack = against_archetype(BURGER, BURGER_PARTS, "4.5", measure, cache, none)
    assert stack.agreed and stack.neighbours[0].wrong == shipped_floors()[found.digest].fscore, stack.why
    assert "other objects" in stack.why
    # the same answer, where other kinds' shapes come within WRONG_MARGIN of it: closer than they are, not by a clear step
    raised = {found.digest: Floor(stack.neighbours[0].fscore - WRONG_MARGIN / 2, "a calculator lying flat")}
    monkeypatch.setattr("bpywright.graph.review.agreement.shipped_floors", lambda: raised)
    again = against_archetype(BURGER, BURGER_PARTS, "4.5", measure, cache, none)
    assert not again.agreed and "and of 0.1 over other objects" in again.why and "a calculator lying flat" in again.why


@pytest.mark.blender
def test_a_critics_shape_that_was_shown_and_is_repeated_is_no_agreement(tmp_path: Path, measure) -> None:
    """Settings.plan_shapes: once the model was shown the shape, an answer that is that shape again up to scale was led
    to it, as with the plan library's archetypes (REPEAT_F); an answer drawn near it still agrees."""
    cache, none = GeometryCache(tmp_path / "measures"), Agreement(False, "not accepted: too few", too_few=True)
    mushroom = "a mushroom with a red cap"
    found = archetype_of(mushroom, "4.5")
    assert found is not None and not found.shown
    again = against_archetype(mushroom, found.script, "4.5", measure, cache, none, frozenset({found.id}))
    assert not again.agreed and again.neighbours[0].repeats and again.neighbours[0].shown, again.why
    assert "its shape is the critic's shown archetype of its kind again, up to scale" in again.why
    elsewhere = against_archetype(mushroom, found.script, "4.5", measure, cache, none, frozenset({"shape:0"} - {found.id}))
    assert elsewhere.agreed, elsewhere.why  # another shape shown: this one was not
    # where the request asks for a pattern, F cannot tell tiles from one sheet: 64 tiles on the shown chessboard (a board
    # and its border) are a board drawn for the request, not the board again
    board = "a chessboard with alternating squares"  # no colour named: the pattern bar alone refuses the sheet
    shape = archetype_of(board, "4.5")
    assert shape is not None and not shape.shown
    tiles = against_archetype(board, SQUARES, "4.5", measure, cache, none, frozenset({shape.id}))
    assert tiles.agreed and not tiles.neighbours[0].repeats and tiles.neighbours[0].fscore >= REPEAT_F, tiles.why
    assert "the critic's shown archetype" in tiles.why


@pytest.mark.blender
def test_an_archetype_that_is_one_plain_solid_leads_nowhere(tmp_path: Path, measure) -> None:
    """A ball's archetype is one sphere: a right answer to "a chrome ball" is that sphere again, up to scale, shown or not,
    and agrees with it rather than being refused as a repeat."""
    cache, none = GeometryCache(tmp_path / "measures"), Agreement(False, "not accepted: too few", too_few=True)
    ask = "a chrome ball"
    found = archetype_of(ask, "4.5")
    assert found is not None
    sphere = CLEAR + "bpy.ops.mesh.primitive_uv_sphere_add(radius=0.3, location=(0, 0, 0.3))\n"
    shown = against_archetype(ask, sphere, "4.5", measure, cache, none, frozenset({found.id}))
    assert shown.neighbours and shown.neighbours[0].fscore >= REPEAT_F and not shown.neighbours[0].repeats, shown.why
    assert shown.agreed, shown.why
