"""Relations between the parts a request names, held to scenes that have each and scenes that lack it (scene summaries
built by hand, as the harness reports them)."""

from __future__ import annotations

import pytest

from bpywright.graph.review.relations import Relation, RelationError, check, check_all, part_objects, parts_found
from bpywright.harness.report import BoundingBox, ObjectSummary, SceneSummary


def box(name: str, lo: tuple[float, float, float], hi: tuple[float, float, float], *, materials: list[str] | None = None) -> ObjectSummary:
    return ObjectSummary(
        name=name, type="MESH", vertices=8, faces=6, visible=True, bbox=BoundingBox(min=lo, max=hi), materials=materials or []
    )


def scene(*objects: ObjectSummary) -> SceneSummary:
    boxes = [o.bbox for o in objects if o.bbox is not None]
    lo = tuple(min(b.min[i] for b in boxes) for i in range(3))
    hi = tuple(max(b.max[i] for b in boxes) for i in range(3))
    return SceneSummary(object_count=len(objects), objects=list(objects), bbox=BoundingBox(min=lo, max=hi), camera=False, light=False)


SAUCER = box("Saucer", (-0.08, -0.08, 0.0), (0.08, 0.08, 0.02))
MUG = box("Mug", (-0.045, -0.045, 0.02), (0.045, 0.045, 0.12))
HANDLE = box("MugHandle", (0.045, -0.01, 0.04), (0.075, 0.01, 0.10))
PARTS = ["mug", "handle", "saucer"]
GOOD = scene(SAUCER, MUG, HANDLE)


def holds(text: str, s: SceneSummary, parts: list[str] = PARTS) -> tuple[bool, str]:
    return check(Relation.parse(text), s, parts)


def test_a_mug_with_a_handle_on_a_saucer_holds_every_relation() -> None:
    results = check_all(
        [
            Relation.parse(t)
            for t in (
                "handle beside mug",
                "handle touches mug",
                "mug on saucer",
                "saucer under mug",
                "saucer wider_than mug",
                "mug taller_than saucer",
            )
        ],
        GOOD,
        PARTS,
    )
    assert [(str(r), ok) for r, ok, _ in results if not ok] == []


def test_an_object_naming_two_parts_belongs_to_the_one_its_name_ends_with() -> None:
    assert [o.name for o in part_objects(GOOD, "mug", PARTS)] == ["Mug"]
    assert [o.name for o in part_objects(GOOD, "handle", PARTS)] == ["MugHandle"]


def test_a_whole_word_is_preferred_to_a_name_that_only_holds_it() -> None:
    bear = scene(box("Bear", (0, 0, 0), (1, 1, 1)), box("Ear_L", (0, 0, 1), (0.2, 0.2, 1.2)))
    assert [o.name for o in part_objects(bear, "ear", ["bear", "ear"])] == ["Ear_L"]


def test_a_part_is_found_by_its_alternatives_and_by_a_material_name() -> None:
    snow = scene(box("Head", (0, 0, 0), (1, 1, 1)), box("Cone", (1, 0.4, 0.4), (1.5, 0.6, 0.6), materials=["Carrot"]))
    assert [o.name for o in part_objects(snow, "nose|carrot", ["head", "nose|carrot"])] == ["Cone"]
    assert holds("nose beside head", snow, ["head", "nose|carrot"])[0]


def test_a_part_the_scene_lacks_fails_naming_it() -> None:
    assert holds("mug on saucer", scene(MUG, HANDLE)) == (False, "no object named like 'saucer'")
    assert holds("handle beside mug", scene(SAUCER, MUG))[1] == "no object named like 'handle'"
    assert parts_found(scene(MUG), PARTS)[2] == ("saucer", False, "no object named like 'saucer'")


def test_on_a_floating_or_sideways_or_sunk_part_is_not_on() -> None:
    floating = box("Mug", (-0.045, -0.045, 0.33), (0.045, 0.045, 0.43))
    ok, message = holds("mug on saucer", scene(SAUCER, floating, HANDLE))
    assert not ok and message == "mug: not on saucer (floats 0.31 m above its top)"
    aside = box("Mug", (0.2, 0.2, 0.0), (0.29, 0.29, 0.1))
    ok, message = holds("mug on saucer", scene(SAUCER, aside))
    assert not ok and "not over it" in message
    below = box("Mug", (-0.045, -0.045, -0.1), (0.045, 0.045, 0.0))
    assert "below its top" in holds("mug on saucer", scene(SAUCER, below))[1]
    sunk = box("Mug", (-0.045, -0.045, -0.2), (0.045, 0.045, 0.03))
    assert "sunk" in holds("mug on saucer", scene(SAUCER, sunk))[1]


def test_on_allows_a_thin_part_and_a_part_sunk_a_little() -> None:
    floor = box("Floor", (-2, -2, -0.1), (2, 2, 0.0))
    rug = box("Rug", (-1, -1, 0.0), (1, 1, 0.01))
    assert holds("rug on floor", scene(floor, rug), ["rug", "floor"])[0]
    cake = box("Cake", (-0.2, -0.2, 0), (0.2, 0.2, 0.15))
    candle = box("Candle", (-0.01, -0.01, 0.13), (0.01, 0.01, 0.23))
    assert holds("candle on cake", scene(cake, candle), ["cake", "candle"])[0]


def test_on_finds_the_top_of_a_compound_part() -> None:
    top = box("Table_Top", (-0.3, -0.3, 0.5), (0.3, 0.3, 0.55))
    legs = [
        box(f"Table_Leg_{i}", (x, y, 0), (x + 0.04, y + 0.04, 0.5))
        for i, (x, y) in enumerate([(-0.3, -0.3), (0.26, -0.3), (-0.3, 0.26), (0.26, 0.26)])
    ]
    lamp = box("Lamp", (-0.05, -0.05, 0.55), (0.05, 0.05, 0.9))
    parts = ["lamp", "table"]
    assert holds("lamp on table", scene(top, *legs, lamp), parts)[0]
    cat = box("Cat", (-0.1, -0.1, 0), (0.1, 0.1, 0.25))
    assert holds("cat under table", scene(top, *legs, cat), ["cat", "table"])[0]
    on_floor = box("Lamp", (0.5, 0.5, 0.0), (0.6, 0.6, 0.35))
    assert not holds("lamp on table", scene(top, *legs, on_floor), parts)[0]


def test_under() -> None:
    assert holds("saucer under mug", GOOD) == (True, "saucer: under mug")
    over = box("Saucer", (-0.08, -0.08, 0.12), (0.08, 0.08, 0.14))
    ok, message = holds("saucer under mug", scene(over, MUG, HANDLE))
    assert not ok and message.startswith("saucer: not under mug (its top is 0.12 m above")
    beside = box("Saucer", (0.3, 0.3, 0.0), (0.46, 0.46, 0.02))
    assert holds("saucer under mug", scene(beside, MUG)) == (False, "saucer: not under mug (not beneath it: to its side)")


def test_beside_needs_contact_a_side_and_the_height() -> None:
    far = box("Handle", (0.355, -0.01, 0.04), (0.385, 0.01, 0.10))
    ok, message = holds("handle beside mug", scene(SAUCER, MUG, far))
    assert not ok and message == "handle: not touching mug (gap 0.31 m)"
    on_top = box("Handle", (-0.015, -0.01, 0.12), (0.015, 0.01, 0.18))
    ok, message = holds("handle beside mug", scene(SAUCER, MUG, on_top))
    assert not ok and "above it" in message
    within = box("Handle", (-0.015, -0.01, 0.05), (0.015, 0.01, 0.09))  # hidden inside the mug
    ok, message = holds("handle beside mug", scene(SAUCER, MUG, within))
    assert not ok and "within its footprint" in message
    assert holds("handle on_side_of mug", GOOD)[0]


def test_touches_follows_a_chain_of_the_parts_own_objects() -> None:
    table = box("Table", (-0.5, -0.5, 0), (0.5, 0.5, 0.5))
    base = box("Lamp_Base", (-0.05, -0.05, 0.5), (0.05, 0.05, 0.55))
    shade = box("Lamp_Shade", (-0.1, -0.1, 0.55), (0.1, 0.1, 0.75))
    assert holds("lamp touches table", scene(table, base, shade), ["lamp", "table"])[0]
    high = box("Lamp_Shade", (-0.1, -0.1, 0.95), (0.1, 0.1, 1.1))
    ok, message = holds("lamp touches table", scene(table, base, high), ["lamp", "table"])
    assert not ok and message.startswith("lamp: Lamp_Shade not touching table (gap 0.45 m)")


def test_inside_and_around() -> None:
    bowl = box("Bowl", (-0.2, -0.2, 0), (0.2, 0.2, 0.15))
    water = box("Water", (-0.18, -0.18, 0.02), (0.18, 0.18, 0.12))
    parts = ["water", "bowl"]
    assert holds("water in bowl", scene(bowl, water), parts) == (True, "water: inside bowl")
    spilt = box("Water", (-0.18, -0.18, 0.02), (0.18, 0.18, 0.4))
    ok, message = holds("water inside bowl", scene(bowl, spilt), parts)
    assert not ok and message == "water: not inside bowl (0.25 m out of it)"
    house = box("House", (-2, -2, 0), (2, 2, 3))
    fence = box("Fence", (-3, -3, 0), (3, 3, 1))
    assert holds("fence around house", scene(house, fence), ["fence", "house"])[0]
    by = box("Fence", (3, -3, 0), (4, 3, 1))
    ok, message = holds("fence around house", scene(house, by), ["fence", "house"])
    assert not ok and "leaves the house's" in message
    lifted = box("Fence", (-3, -3, 4), (3, 3, 5))
    assert "not at its height" in holds("fence around house", scene(house, lifted), ["fence", "house"])[1]


def test_above_does_not_need_contact_but_needs_to_be_over() -> None:
    table = box("Table", (-0.5, -0.5, 0), (0.5, 0.5, 0.75))
    light = box("Light", (-0.1, -0.1, 1.8), (0.1, 0.1, 2.0))
    assert holds("light above table", scene(table, light), ["light", "table"])[0]
    aside = box("Light", (1.8, 1.8, 1.8), (2.0, 2.0, 2.0))
    assert "not over it" in holds("light above table", scene(table, aside), ["light", "table"])[1]
    low = box("Light", (-0.1, -0.1, 0.2), (0.1, 0.1, 0.4))
    assert "below the table's top" in holds("light above table", scene(table, low), ["light", "table"])[1]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("saucer wider_than mug", True),
        ("mug wider_than saucer", False),
        ("mug narrower_than saucer", True),
        ("mug larger_than saucer", True),  # by volume: the saucer is wider and holds less
        ("saucer larger_than mug", False),
        ("saucer smaller_than mug", True),
        ("mug taller_than saucer", True),
        ("saucer taller_than mug", False),
        ("saucer shorter_than mug", True),
    ],
)
def test_sizes(text: str, ok: bool) -> None:
    held, message = holds(text, GOOD)
    assert held is ok
    assert message.startswith(text.split()[0] + ": " + ("" if ok else "not "))


def test_equal_sizes_are_neither_larger_nor_smaller() -> None:
    a, b = box("Cube", (0, 0, 0), (1, 1, 1)), box("Block", (1, 0, 0), (2, 1, 1))
    parts = ["cube", "block"]
    assert not holds("cube larger_than block", scene(a, b), parts)[0]
    assert not holds("cube smaller_than block", scene(a, b), parts)[0]


def test_count() -> None:
    head = box("Head", (0, 0, 0), (1, 1, 1))
    eyes = [box(f"Eye_{s}", (x, 1, 0.6), (x + 0.1, 1.05, 0.7)) for s, x in (("L", 0.2), ("R", 0.7))]
    assert holds("eye count 2", scene(head, *eyes), ["head", "eye"]) == (True, "eye: 2 built, 2 asked")
    ok, message = holds("eye count 2", scene(head, eyes[0]), ["head", "eye"])
    assert not ok and message.startswith("eye: 1 built, 2 asked")


def test_hidden_staging_and_faceless_objects_are_not_parts() -> None:
    hidden = ObjectSummary(name="Saucer", type="MESH", faces=6, visible=False, bbox=BoundingBox(min=(0, 0, 0), max=(1, 1, 1)))
    staging = ObjectSummary(name="bpywright_light", type="LIGHT", bbox=None)
    assert part_objects(scene(MUG, hidden, staging), "saucer", PARTS) == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mug sits_on saucer", "unknown relation 'sits_on'"),
        ("mug on", "write it as"),
        ("eye count two", "whole number"),
        ("eye count 0", "whole number"),
        ("mug on mug", "itself"),
    ],
)
def test_a_malformed_relation_is_refused(text: str, message: str) -> None:
    with pytest.raises(RelationError, match=message):
        Relation.parse(text)


def test_a_relation_reads_back_as_written() -> None:
    assert str(Relation.parse("handle on_side_of mug")) == "handle beside mug"
    assert str(Relation.parse("eye count 2")) == "eye count 2"
    assert Relation.parse("water in bowl").parts == ("water", "bowl")


def test_every_separate_object_of_a_part_holds_the_relation_and_touching_ones_hold_it_together() -> None:
    cake = box("Cake", (-0.15, -0.15, 0), (0.15, 0.15, 0.1))
    on = [box(f"Candle_{i}", (x, 0, 0.1), (x + 0.012, 0.012, 0.17)) for i, x in enumerate((-0.06, 0.0))]
    off = box("Candle_2", (0.5, 0.5, 0.0), (0.512, 0.512, 0.07))
    parts = ["cake", "candle"]
    assert holds("candle on cake", scene(cake, *on), parts)[0]
    ok, message = holds("candle on cake", scene(cake, *on, off), parts)
    assert not ok and message.startswith("candle (Candle_2): not on cake (not over it")
    table = box("Table", (-0.5, -0.5, 0), (0.5, 0.5, 0.5))
    lamp = [box("Lamp_Base", (-0.05, -0.05, 0.5), (0.05, 0.05, 0.55)), box("Lamp_Shade", (-0.1, -0.1, 0.55), (0.1, 0.1, 0.75))]
    assert holds("lamp on table", scene(table, *lamp), ["lamp", "table"]) == (True, "lamp: on table")
    chairs = [
        box(f"Chair_{i}", (x, y, 0), (x + 0.4, y + 0.4, 0.9))
        for i, (x, y) in enumerate([(-0.2, -1.0), (-0.2, 0.6), (-1.0, -0.2), (0.6, -0.2)])
    ]
    assert holds("chair around table", scene(table, *chairs), ["chair", "table"])[0]


def test_sizes_compare_each_separate_object_of_one_part_with_each_of_the_other() -> None:
    body = box("Body", (-2.1, -0.9, 0.65), (2.1, 0.9, 1.35))
    wheels = [
        box(f"Wheel_{i}", (x, y, 0), (x + 0.22, y + 0.65, 0.65))
        for i, (x, y) in enumerate([(-2.1, -0.9), (1.88, -0.9), (-2.1, 0.25), (1.88, 0.25)])
    ]
    parts = ["car|body", "wheel"]
    assert holds("car wider_than wheel", scene(body, *wheels), parts)[0]  # the wheels together span the car; each is small
    big = box("Wheel_3", (-1.0, 0.25, 0), (3.5, 2.75, 0.65))
    ok, message = holds("car wider_than wheel", scene(body, *wheels[:3], big), parts)
    assert not ok and message == "car: not wider than wheel (4.2 m across, the wheel (Wheel_3) 4.5 m)"
