"""BPYWRIGHT_REVIEW=neighbours: an answer is accepted when its measured shape agrees with its nearest verified exemplars of
the same kind. Real Blender measures every scene, the store is real SQLite, the generator is the FAKE LLM on loopback."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from bpywright.exemplars.store import ExemplarStore
from bpywright.graph.agreement import AGREE_WITH, GeometryCache, agree, neighbours_of, pool_measure
from bpywright.graph.fake_llm import FakeLLM
from bpywright.graph.run import generate
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


def test_an_answer_shaped_like_its_verified_neighbours_agrees(tmp_path: Path, measure) -> None:
    with store_with(tmp_path, NEIGHBOURS) as store:
        verdict = agree(BURGER, BURGER_PARTS, "4.5", store, measure, GeometryCache(tmp_path / "measures"))
    assert verdict.agreed, verdict.why
    assert len(verdict.neighbours) == AGREE_WITH and all(n.fscore > n.cube + 0.2 for n in verdict.neighbours)
    assert "agrees with the 2 nearest verified exemplars" in verdict.why


def test_an_answer_unlike_its_neighbours_is_not_accepted(tmp_path: Path, measure) -> None:
    with store_with(tmp_path, BOXES) as store:
        verdict = agree(BURGER, BURGER_PARTS, "4.5", store, measure, GeometryCache(tmp_path / "measures"))
    assert not verdict.agreed and len(verdict.neighbours) == 2
    assert "does not agree" in verdict.why and not all(n.agrees for n in verdict.neighbours)


def test_a_store_without_two_of_its_kind_gives_no_verdict(tmp_path: Path, measure) -> None:
    chairs = {"a wooden chair": BOX, "a tall bar stool": BOX}
    with store_with(tmp_path, chairs | dict(list(NEIGHBOURS.items())[:1])) as store:
        verdict = agree(BURGER, BURGER_PARTS, "4.5", store, measure, GeometryCache(tmp_path / "measures"))
    assert not verdict.agreed and verdict.neighbours == []
    assert "holds 1 verified exemplar(s) of this kind" in verdict.why


def test_generated_exemplars_never_vouch_for_an_answer(tmp_path: Path) -> None:
    with store_with(tmp_path, NEIGHBOURS, source="generated") as store:
        assert store.nearest(BURGER, "4.5", 6) and neighbours_of(store, BURGER, "4.5") == []


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


def test_the_loop_returns_a_disagreeing_answer_unaccepted_and_says_why(settings, fake: FakeLLM, render_pool, tmp_path: Path) -> None:
    neighbours = dataclasses.replace(settings, review="neighbours", max_critic_rounds=0)
    fake.script("generate", fenced(BURGER_PARTS))
    with store_with(tmp_path / "store", BOXES) as store:
        result = generate(BURGER, settings=neighbours, pool=render_pool, store=store)
        assert result.outcome == "best_attempt" and "critic" not in fake.roles_asked(), result.message
        assert "does not agree with the 2 nearest verified exemplars" in result.message
        assert not [e for e in store.list(limit=10).items if e.source == "generated"]
