"""bench/witnesses.py: the fresh-plan rules computed from recorded comparisons, and the medoid of an answer's shapes."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from witnesses import agrees, medoid, rule_rows  # noqa: E402

from bpywright.fidelity.models import SceneGeometry  # noqa: E402


def compared(*pairs: tuple[float, float]) -> list[dict[str, float]]:
    return [{"fscore": f, "cube": c} for f, c in pairs]


def test_a_rule_counts_the_first_k_comparisons_and_needs_all_k_recorded() -> None:
    entries = compared((0.9, 0.2), (0.3, 0.2), (0.8, 0.1))
    assert agrees(entries, 1, 1, 0.2) and not agrees(entries, 2, 2, 0.2) and agrees(entries, 3, 2, 0.2)
    assert agrees(entries, 2, 2, 0.0) and not agrees(entries, 2, 2, 0.1)  # 0.3 beats 0.2 by 0.1, not strictly more
    assert not agrees(entries[:2], 3, 1, 0.0)  # two recorded are not three


def test_rules_are_rated_against_the_reference_verdict_and_copies_are_never_accepted() -> None:
    judged = [
        {"generated": True, "faithful": True, "agreement": compared((0.9, 0.2), (0.8, 0.3))},
        {"generated": True, "faithful": False, "agreement": compared((0.9, 0.2), (0.2, 0.3))},
        {"generated": False, "faithful": False, "agreement": compared((1.0, 0.2), (1.0, 0.2))},  # a copy
        {"generated": True, "faithful": True},  # not compared: no witnesses
    ]
    found = {label: (accepted, right) for label, accepted, right, _ in rule_rows(judged, 2)}
    assert found["agrees with 1 of its first 1 fresh plan(s), margin 0.2"] == (2, 1)
    assert found["agrees with 2 of its first 2 fresh plan(s), margin 0.2"] == (1, 1)
    assert found["agrees with 1 of its first 2 fresh plan(s), margin 0.4"] == (2, 1)
    assert found["agrees with 2 of its first 2 fresh plan(s), margin 0.4"] == (1, 1)  # 0.8 > 0.3 + 0.4 strictly


def points(n: int, sx: float, sy: float, sz: float) -> SceneGeometry:
    """A box surface's corners and edge midpoints, scaled: enough points for F-scores that tell shapes apart."""
    grid = [(x * sx, y * sy, z * sz) for x in (0, 0.5, 1) for y in (0, 0.5, 1) for z in (0, 0.5, 1)][:n]
    return SceneGeometry(parts=1, triangles=12, points=grid, bbox=((0, 0, 0), (sx, sy, sz)), colours=[], masks={})


def test_the_medoid_is_the_shape_the_others_agree_with() -> None:
    cube, also_cube, rod = points(27, 1, 1, 1), points(27, 1.02, 1, 1), points(27, 10, 0.1, 0.1)
    assert medoid([rod, cube, also_cube]) in (1, 2)  # the rod agrees with neither box
    assert medoid([cube, cube]) == 0  # a tie goes to the answer
    empty = SceneGeometry(parts=0, triangles=0, points=[], bbox=None, colours=[], masks={})
    assert medoid([cube, empty, None]) is None  # one measured shape has nothing to agree with
