"""Where a request puts its parts: read from its words (reading.placement) and checked from the scene's boxes by the
critic (review.relations.placement_checks), on scenes that hold each placement and scenes that break it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from bpywright.graph.loop.routing import after_critic
from bpywright.graph.loop.state import Attempt, Critique, GenState
from bpywright.graph.plans.parts import Plan
from bpywright.graph.plans.plan import parse_plan
from bpywright.graph.reading.placement import placements
from bpywright.graph.review.checks import lacks_asked, objective, unbuilt
from bpywright.graph.review.relations import PLACEMENT, placement_checks, plan_placement_findings
from bpywright.harness.report import BoundingBox, ObjectSummary, RenderInfo, RunReport, SceneSummary

PLAIN = Path(__file__).parents[2] / "bench" / "plain" / "requests.toml"


@pytest.mark.parametrize(
    ("prompt", "read"),
    [
        ("a lamp on a bedside table", ["lamp on table"]),
        ("a bird sitting on a branch", ["bird on branch"]),
        ("a birthday cake with three candles on top", ["candle on cake"]),
        ("a cherry on top of a cupcake", ["cherry on cupcake"]),
        ("a dining table with four chairs around it", ["chair around table"]),
        ("a hot air balloon with a basket hanging under it", ["basket under balloon"]),
        ("a treasure chest with gold coins inside", ["coin inside chest"]),
        ("a ladder leaning against a wall", ["ladder touches wall"]),
        ("a bookshelf with books on its shelves", ["book on shelf"]),
        ("a small table with a vase of flowers on it", ["vase touches table"]),  # "on it" may be its face: touching
        ("a clock on the wall", ["clock touches wall"]),
        ("Include a toothpick with an olive on top to hold it", ["olive on toothpick"]),
        ("Create a living room. Place a rug under the coffee table.", ["rug under table"]),
        ("The lampshade should be placed on top of the stem.", ["lampshade on stem"]),
        # not read: which of two nouns the phrase places, and prepositions a box cannot hold to
        ("a coffee mug with a handle on a saucer", []),
        ("a stone birdbath with a bowl on a pedestal", []),
        ("a cactus in a flower pot", []),
        ("a beach umbrella next to a deck chair", []),
        ("a doghouse with a food bowl in front", []),
        ("sprinkle cheese over the sauce", []),
        ("an eyepiece at the top and objective lenses below.", []),
        ("a drum with a membrane on top and bottom", []),
        ("a panel suitable for mounting on a wall", []),
    ],
)
def test_placements_are_read_where_the_words_say_which_part_goes_where(prompt: str, read: list[str]) -> None:
    assert placements(prompt) == read


def test_no_placement_hangs_from_a_word_that_is_no_noun() -> None:
    """A list opened by "add" or "include" hangs from the request's head, not from the word before it ("please")."""
    assert [r for r in placements("A pizza. Please add a few basil leaves on top.") if "please" in r] == []


def _keys(parts: list[str]) -> dict[str, str]:
    return {alt: p.split("|")[0] for p in parts for alt in p.split("|")}


def _key(word: str, keys: dict[str, str]) -> str | None:
    if word in keys:
        return keys[word]
    found = [key for alt, key in keys.items() if alt in word or word in alt]  # "goldfish" is the fish
    return found[0] if found else None


def test_every_placement_read_from_the_plain_requests_is_one_their_careful_reader_wrote() -> None:
    """The plain requests carry the relations a careful reader insists on; what the request reader finds in their prompts
    is one of them, or the weaker "touches" of one ("a vase of flowers on it": on its top or its face). And it finds
    most of the placements those prompts state in words (a floor, so a reader that stops reading fails here)."""
    requests = tomllib.loads(PLAIN.read_text(encoding="utf-8"))["request"]
    read = wrong = 0
    for r in requests:
        keys = _keys(r["parts"])
        written = [tuple(t.split()) for t in r["relations"]]
        for text in placements(r["prompt"]):
            subject, relation, target = text.split()
            s, t = _key(subject, keys), _key(target, keys)
            read += 1
            if not any(w[0] == s and w[2] == t and (w[1] == relation or relation == "touches") for w in written if len(w) == 3):
                wrong += 1
                print(f"{r['id']}: read {text!r}, written {r['relations']}")
    assert wrong == 0
    assert read >= 15


def box(name: str, lo: tuple[float, float, float], hi: tuple[float, float, float]) -> ObjectSummary:
    return ObjectSummary(name=name, type="MESH", vertices=8, faces=6, visible=True, bbox=BoundingBox(min=lo, max=hi))


def scene(*objects: ObjectSummary) -> SceneSummary:
    boxes = [o.bbox for o in objects if o.bbox is not None]
    lo = tuple(min(b.min[i] for b in boxes) for i in range(3))
    hi = tuple(max(b.max[i] for b in boxes) for i in range(3))
    return SceneSummary(object_count=len(objects), objects=list(objects), bbox=BoundingBox(min=lo, max=hi), camera=True, light=True)


TABLE = box("BedsideTable", (-0.3, -0.3, 0.0), (0.3, 0.3, 0.6))
VASE_ON = box("Vase", (-0.1, -0.1, 0.6), (0.1, 0.1, 1.0))
VASE_BESIDE = box("Vase", (0.35, -0.1, 0.0), (0.55, 0.1, 0.4))
VASE = "a vase on a bedside table"


def test_a_placement_the_scene_holds_passes_and_one_it_breaks_says_where_the_part_is() -> None:
    assert placement_checks(VASE, scene(TABLE, VASE_ON)) == ({"placement: vase on table": True}, [])
    checks, reasons = placement_checks(VASE, scene(TABLE, VASE_BESIDE))
    assert checks == {"placement: vase on table": False}
    assert reasons[0].startswith("the request puts the vase on the table: vase: not on table")


def test_a_thing_the_request_asks_for_beside_the_whole_must_be_built() -> None:
    """ "A vase on a bedside table" asks for a table too: a vase standing alone fails its placement (the parts check asks
    for no table: it reads parts listed after "with"). A subject the scene lacks, or a target that is the whole asked for,
    is left to the parts check."""
    floor = box("Floor", (-2, -2, -0.01), (2, 2, 0.0))
    checks, reasons = placement_checks(VASE, scene(VASE_BESIDE, floor))
    assert checks == {"placement: vase on table": False}
    assert reasons == ["the request puts the vase on the table: no object is named like 'table' (build it, named for what it is)"]
    assert placement_checks(VASE, scene(TABLE, floor)) == ({}, [])
    cake = box("Base", (-0.2, -0.2, 0.0), (0.2, 0.2, 0.15))
    candle = box("Candle", (-0.01, -0.01, 0.15), (0.01, 0.01, 0.25))
    assert placement_checks("a birthday cake with three candles on top", scene(cake, candle)) == ({}, [])
    assert placement_checks("a red cube", scene(TABLE)) == ({}, [])


def ran(s: SceneSummary) -> Attempt:
    render = RenderInfo(path="r.png", width=64, height=64, engine="BLENDER_WORKBENCH", nonblank_fraction=0.3)
    report = RunReport(status="ok", backend="bpy-module", sandbox="bwrap", scene=s, render=render)
    return Attempt(index=0, origin="generate", script="import bpy\n", run=report, checked=True)


def test_a_misplaced_part_is_not_accepted_and_gets_repair_rounds_with_its_message() -> None:
    """A vase beside the table is a fact of the scene, not the critic model's opinion: it is repaired even where the
    critic's findings get no round (max_critic_rounds 0), and the repair is told where the vase is."""
    a = ran(scene(TABLE, VASE_BESIDE))
    checks, reasons = objective(VASE, a)
    assert checks[PLACEMENT + "vase on table"] is False and any("not on table" in r for r in reasons)
    critique = Critique(score=0.5, reasons=reasons, objective_ok=all(checks.values()), checks=checks)
    misplaced = a.model_copy(update={"critique": critique})
    assert lacks_asked(critique) and unbuilt(misplaced)
    assert after_critic(GenState(prompt=VASE, max_critic_rounds=0, attempts=[misplaced], current=0, reviews=1)) == "heal"

    placed = ran(scene(TABLE, VASE_ON))
    checks, _ = objective(VASE, placed)
    assert checks[PLACEMENT + "vase on table"] is True
    assert not lacks_asked(Critique(score=1.0, reasons=[], objective_ok=all(checks.values()), checks=checks))


def plan(*parts: dict[str, object]) -> Plan:
    return parse_plan(json.dumps({"object": "scene", "parts": list(parts)}))


TABLE_PART = {"name": "table", "shape": "box", "size": [0.6, 0.6, 0.6], "location": [0, 0, 0.3]}


def test_a_plan_that_breaks_a_placement_is_told_how_to_place_the_part_before_anything_runs() -> None:
    beside = plan(TABLE_PART, {"name": "vase", "shape": "cylinder", "size": [0.2, 0.2, 0.4], "location": [0.45, 0, 0.2]})
    (finding,) = plan_placement_findings(beside, VASE)
    assert finding.startswith("the request puts the vase on the table: vase: not on table")
    assert finding.endswith('give the vase "on": "<the table part>" and "side": "top"')
    placed = plan(TABLE_PART, {"name": "vase", "shape": "cylinder", "size": [0.2, 0.2, 0.4], "on": "table", "side": "top"})
    assert plan_placement_findings(placed, VASE) == []


def test_a_placement_of_a_repeated_part_is_left_to_the_scene() -> None:
    """The plan's box of a repeated part is its first copy only: four chairs laid out in a circle are checked in the scene."""
    chairs = {"name": "chair", "shape": "box", "size": [0.4, 0.4, 0.8], "location": [1.0, 0, 0.4], "repeat": 4, "pattern": "circle"}
    assert plan_placement_findings(plan(TABLE_PART, chairs), "a dining table with four chairs around it") == []
    one = {k: v for k, v in chairs.items() if k not in ("repeat", "pattern")}
    (finding,) = plan_placement_findings(plan(TABLE_PART, one), "a dining table with four chairs around it")
    assert finding.startswith("the request puts the chair around the table")


def test_a_part_rests_on_another_through_what_holds_it_but_not_across_a_gap() -> None:
    """A monitor stands on a desk through its stand; a monitor floating over the desk with its stand floating too is not
    on it (BlendNet's reference of "a monitor positioned on top of a desk" floats 0.30 m above it)."""
    ask = "a monitor on a desk"
    desk = box("Desk", (-1, -0.5, 0.0), (1, 0.5, 0.75))
    stand = box("Stand", (-0.05, -0.05, 0.75), (0.05, 0.05, 0.95))
    monitor = box("Monitor", (-0.4, -0.03, 0.95), (0.4, 0.03, 1.45))
    checks, _ = placement_checks(ask, scene(desk, stand, monitor))
    assert checks == {"placement: monitor on desk": True}
    lifted = box("Stand", (-0.05, -0.05, 1.0), (0.05, 0.05, 1.2))
    high = box("Monitor", (-0.4, -0.03, 1.2), (0.4, 0.03, 1.7))
    checks, reasons = placement_checks(ask, scene(desk, lifted, high))
    assert checks == {"placement: monitor on desk": False} and "floats" in reasons[0]


def test_a_part_that_names_its_owner_is_the_one_placed() -> None:
    """ "A lid with a handle on top" places the lid's handle ("LidHandle"), not the pot's side handles."""
    ask = "a cooking pot with two side handles and a lid with a handle on top"
    pot = box("Pot", (-0.2, -0.2, 0.0), (0.2, 0.2, 0.2))
    lid = box("Lid", (-0.2, -0.2, 0.2), (0.2, 0.2, 0.22))
    knob = box("LidHandle", (-0.02, -0.02, 0.22), (0.02, 0.02, 0.26))
    sides = [box("Handle_L", (-0.26, -0.02, 0.12), (-0.2, 0.02, 0.16)), box("Handle_R", (0.2, -0.02, 0.12), (0.26, 0.02, 0.16))]
    assert placement_checks(ask, scene(pot, lid, knob, *sides)) == ({"placement: handle on lid": True}, [])


def test_a_part_the_whole_holds_is_not_placed_against_the_whole() -> None:
    """Where the request's head is found only in materials every object has ("HatMaterial"), the band is part of the
    hat: no placement is checked rather than a band that cannot be around itself."""
    ask = "a hat with a wide brim and a decorative band around it"
    felt = ["HatFelt"]
    parts = [
        ObjectSummary(name=n, type="MESH", vertices=8, faces=6, visible=True, bbox=BoundingBox(min=lo, max=hi), materials=felt)
        for n, lo, hi in (
            ("Brim", (-2, -2, 0), (2, 2, 0.1)),
            ("Crown", (-1, -1, 0.1), (1, 1, 1.0)),
            ("Band", (-1.05, -1.05, 0.2), (1.05, 1.05, 0.3)),
        )
    ]
    assert placement_checks(ask, scene(*parts)) == ({}, [])


def test_something_inside_an_open_container_may_stand_out_of_its_top_by_half_its_height() -> None:
    ask = "a treasure chest with gold coins inside"
    chest = box("Chest", (-0.5, -0.3, 0.0), (0.5, 0.3, 0.4))
    heap = box("Coins", (-0.3, -0.2, 0.1), (0.3, 0.2, 0.5))  # heaped 0.1 m over the rim, 0.4 m tall
    assert placement_checks(ask, scene(chest, heap)) == ({"placement: coin inside chest": True}, [])
    beside = box("Coins", (0.6, -0.2, 0.0), (1.0, 0.2, 0.2))
    checks, reasons = placement_checks(ask, scene(chest, beside))
    assert checks == {"placement: coin inside chest": False} and "out of it" in reasons[0]


def test_a_plan_without_the_thing_the_request_asks_for_beside_the_whole_is_told_to_add_it() -> None:
    alone = plan({"name": "lamp", "shape": "cone", "size": [0.3, 0.3, 0.4]})
    (finding,) = plan_placement_findings(alone, "a lamp on a bedside table")
    assert finding.endswith('add a part named table and give the lamp "on": "<the table part>" and "side": "top"'), finding


def test_the_ground_a_thing_stands_on_need_not_be_built() -> None:
    """ "A tree on the ground": the scene's ground is z = 0, built or not; a ground that is built is held to it."""
    tree = box("Tree", (-0.5, -0.5, 0.0), (0.5, 0.5, 3.0))
    assert placement_checks("a low-poly tree on the ground", scene(tree)) == ({}, [])
    ground = box("Ground", (-5, -5, -0.01), (5, 5, 0.0))
    assert placement_checks("a low-poly tree on the ground", scene(tree, ground)) == ({"placement: tree on ground": True}, [])
