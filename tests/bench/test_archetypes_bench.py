"""bench/archetypes.py's table: agreement with the archetype of the kind against the reference verdict."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from archetypes import agrees, first, table  # noqa: E402


def answer(
    prompt: str, faithful: bool, archetypes: list[tuple[bool, float, float] | tuple[bool, float, float, float]]
) -> dict[str, object]:
    """A judged row; an archetype is (shown, F, cube's F[, wrong-object floor])."""
    return {
        "id": prompt,
        "faithful": faithful,
        "archetypes": [
            {"id": "x", "request": "a", "shown": a[0], "fscore": a[1], "cube": a[2], "wrong": a[3] if len(a) > 3 else None}
            for a in archetypes
        ],
    }


FLOOR_RULE = "the first shape, else the library's first, margin 0.2 and closer than 80% of other objects"
PLAIN_RULE = "the same, not one plain solid (0.85) where the archetype is not near one (0.75)"
MARGIN_RULE = "the same, closer than other objects by 0.1"
LOOP_RULE = "the same, a pattern of 4 parts or more where the request asks for one (the loop's rule)"


def row(lines: list[str], label: str) -> list[str]:
    line = next(line for line in lines if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_each_rule_is_rated_against_the_reference_verdict() -> None:
    judged = [
        answer("sofa", True, [(False, 0.6, 0.1, 0.7), (True, 0.2, 0.3)]),  # a shape agrees by the cube; other objects score more
        answer("sofa", True, [(True, 0.45, 0.1)]),  # only the shown library has its kind
        answer("armchair", False, [(True, 0.35, 0.1), (False, 0.25, 0.1, 0.15)]),  # the library's first, the shape after it
        answer("chair", False, [(True, 0.995, 0.1)]),  # the shown library's archetype again up to scale: no agreement
        answer("coral", True, []),  # no archetype of its kind: never accepted by any rule
    ]
    lines = table(judged)
    assert lines[0].startswith("5 answers that passed the checks, 4 prompts, 3 faithful (60% precision if all were accepted); 4 have")
    assert "(2 a critic's shape)" in lines[0]
    assert row(lines, "the plan library's first archetype, margin 0.2")[1:] == ["2 of 5 (40%)", "2", "1", "0.50"]
    assert row(lines, "shapes and library, the first, margin 0.2")[1:] == ["3 of 5 (60%)", "2", "2", "0.67"]
    assert row(lines, "shapes and library, the first, margin 0.3")[1:] == ["2 of 5 (40%)", "1", "2", "1.00"]
    # shapes first: the armchair is held against its shape (0.25, not 0.1 + 0.2 over the cube) and not accepted
    assert row(lines, "the first shape, else the library's first, margin 0.2 (read by the kind's head)")[1:] == [
        "2 of 5 (40%)",
        "1",
        "2",
        "1.00",
    ]
    # the loop's rule: the first sofa beats the cube but is no closer than other objects (0.6 < 0.7); the armchair's
    # shape beats its floor (0.15) but not the cube by 0.2; the library's sofa has no floor and beats the cube by 0.2
    before = "the first shape, else the library's first, margin 0.2 and closer than 80% of other objects"
    assert row(lines, before)[1:] == ["1 of 5 (20%)", "1", "1", "1.00"]
    # rows measured without a cover are held to the rule before it
    assert row(lines, "the same, margin 0.1, covering 50% of the archetype")[1:] == ["1 of 5 (20%)", "1", "1", "1.00"]
    # and rows measured without proportions to the rule before them
    proportions = "the same, in the archetype's proportions within a factor of 3"
    assert row(lines, proportions)[1:] == ["1 of 5 (20%)", "1", "1", "1.00"]
    # and rows measured without plainness to the rule before it
    assert row(lines, PLAIN_RULE)[1:] == ["1 of 5 (20%)", "1", "1", "1.00"]
    assert row(lines, "the critic's shapes only, the first, margin 0.2")[1:] == ["1 of 5 (20%)", "1", "1", "1.00"]
    assert row(lines, "an archetype of its kind at all (no shape test)")[1:] == ["4 of 5 (80%)", "3", "2", "0.50"]
    assert first(judged[2], False) == judged[2]["archetypes"][1] and first(judged[4]) is None  # type: ignore[index]
    assert agrees({"fscore": 0.5, "cube": 0.2}, 0.2) and not agrees({"fscore": 0.4, "cube": 0.2}, 0.2)
    # a critic's shape was never shown: the answer that is it again up to scale agrees (a ball for a tennis ball)
    assert agrees({"fscore": 0.995, "cube": 0.1, "shown": False}, 0.2) and not agrees({"fscore": 0.995, "cube": 0.1, "shown": True}, 0.2)


def test_the_loops_rule_asks_an_answer_to_cover_half_the_archetype_and_beat_a_cube_by_less() -> None:
    def judged(f: float, cube: float, cover: float) -> dict[str, object]:
        return {
            "id": "p",
            "faithful": True,
            "archetypes": [{"id": "x", "request": "a", "shown": False, "fscore": f, "cube": cube, "wrong": 0.3, "cover": cover}],
        }

    loop = "the same, margin 0.1, covering 50% of the archetype"
    before = "the first shape, else the library's first, margin 0.2 and closer than 80% of other objects"
    lines = table([judged(0.45, 0.3, 0.6)])  # beats the cube by 0.15: within 0.2, past 0.1, and covers 60 %
    assert row(lines, loop)[1] == "1 of 1 (100%)" and row(lines, before)[1] == "0 of 1 (0%)"
    lines = table([judged(0.7, 0.3, 0.4)])  # beats the cube by 0.4, but covers only 40 % of the archetype
    assert row(lines, loop)[1] == "0 of 1 (0%)" and row(lines, before)[1] == "1 of 1 (100%)"


def test_the_loops_rule_asks_an_answer_for_the_archetypes_proportions_within_a_factor_of_3() -> None:
    def judged(proportion: float) -> dict[str, object]:
        archetype = {"id": "x", "request": "a pizza", "shown": False, "fscore": 0.7, "cube": 0.2, "wrong": 0.3, "cover": 0.9}
        return {"id": "p", "faithful": True, "archetypes": [archetype | {"proportion": proportion}]}

    loop = "the same, in the archetype's proportions within a factor of 3"
    before = "the same, margin 0.1, covering 50% of the archetype"
    for proportion, accepted in ((1.0, True), (2.9, True), (0.35, True), (3.2, False), (0.3, False)):  # a cake for a pizza: 3.2
        lines = table([judged(proportion)])
        assert row(lines, loop)[1] == ("1 of 1 (100%)" if accepted else "0 of 1 (0%)"), proportion
        assert row(lines, before)[1] == "1 of 1 (100%)" and row(lines, FLOOR_RULE)[1] == "1 of 1 (100%)"  # rules before it


def test_the_loops_rule_refuses_one_plain_solid_for_a_kind_whose_archetype_is_more() -> None:
    def judged(plain: float, archetype_plain: float) -> dict[str, object]:
        archetype = {"id": "x", "request": "a microscope", "shown": False, "fscore": 0.7, "cube": 0.2, "wrong": 0.3, "cover": 0.9}
        return {
            "id": "p",
            "faithful": True,
            "archetypes": [archetype | {"proportion": 1.0, "plain": plain, "archetype_plain": archetype_plain}],
        }

    before = "the same, in the archetype's proportions within a factor of 3"
    # a cube for a microscope; a box for a sponge; a structured answer; either side of each threshold
    cases = ((1.0, 0.42, False), (1.0, 0.86, True), (0.6, 0.42, True), (0.84, 0.42, True), (0.85, 0.74, False), (0.85, 0.75, True))
    for plain, archetype_plain, accepted in cases:
        lines = table([judged(plain, archetype_plain)])
        assert row(lines, PLAIN_RULE)[1] == ("1 of 1 (100%)" if accepted else "0 of 1 (0%)"), (plain, archetype_plain)
        assert row(lines, before)[1] == "1 of 1 (100%)" and row(lines, FLOOR_RULE)[1] == "1 of 1 (100%)"  # rules before it


def test_the_loops_rule_asks_an_answer_to_beat_other_objects_by_a_margin_too() -> None:
    """Closer than the wrong-object floor by WRONG_MARGIN (0.1), not by a hair; the rules before it read the floor alone."""

    def judged(f: float, wrong: float) -> dict[str, object]:
        archetype = {"id": "x", "request": "a hammer", "shown": False, "fscore": f, "cube": 0.04, "wrong": wrong, "cover": 0.6}
        return {"id": "p", "faithful": False, "archetypes": [archetype | {"proportion": 1.0, "plain": 0.6, "archetype_plain": 0.6}]}

    # a slab on a peg for a hammer: 0.33 against a floor of 0.32; an answer 0.15 past it; one just past the margin
    for f, wrong, accepted in ((0.33, 0.32, False), (0.47, 0.32, True), (0.43, 0.32, True), (0.41, 0.32, False)):
        lines = table([judged(f, wrong)])
        assert row(lines, MARGIN_RULE)[1] == ("1 of 1 (100%)" if accepted else "0 of 1 (0%)"), (f, wrong)
        assert row(lines, LOOP_RULE)[1] == row(lines, MARGIN_RULE)[1]  # no pattern asked for: the same verdict
        assert row(lines, PLAIN_RULE)[1] == "1 of 1 (100%)"  # the rule before it: past the floor at all


def test_the_loops_rule_asks_a_pattern_for_four_parts_or_more() -> None:
    """A sheet has the F-score of a sheet of tiles: where the request asks for a pattern, one or two parts agree with
    nothing; where it does not (pattern_parts None), the part count is no bar."""

    def judged(parts: int | None) -> dict[str, object]:
        archetype = {"id": "x", "request": "a chessboard", "shown": False, "fscore": 0.8, "cube": 0.2, "wrong": 0.4, "cover": 0.9}
        bars = {"proportion": 1.0, "plain": 0.95, "archetype_plain": 0.9, "pattern_parts": parts}
        return {"id": "p", "faithful": True, "archetypes": [archetype | bars]}

    for parts, accepted in ((1, False), (2, False), (3, False), (4, True), (64, True), (None, True)):
        lines = table([judged(parts)])
        assert row(lines, LOOP_RULE)[1] == ("1 of 1 (100%)" if accepted else "0 of 1 (0%)"), parts
        assert row(lines, MARGIN_RULE)[1] == "1 of 1 (100%)"  # the rule before it counts no parts
