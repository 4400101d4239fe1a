"""bench/archetypes.py's table: agreement with the plan library's archetype of the kind against the reference verdict."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from archetypes import rule, table  # noqa: E402


def answer(prompt: str, faithful: bool, archetypes: list[tuple[float, float]]) -> dict[str, object]:
    return {"id": prompt, "faithful": faithful, "archetypes": [{"request": "a", "fscore": f, "cube": c} for f, c in archetypes]}


def row(lines: list[str], label: str) -> list[str]:
    line = next(line for line in lines if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_each_rule_is_rated_against_the_reference_verdict() -> None:
    judged = [
        answer("sofa", True, [(0.6, 0.1), (0.2, 0.3)]),
        answer("sofa", True, [(0.25, 0.1)]),
        answer("armchair", False, [(0.35, 0.1), (0.4, 0.3)]),
        answer("coral", True, []),  # no archetype of its kind: never accepted by any rule
    ]
    lines = table(judged)
    assert lines[0].startswith("4 answers that passed the checks, 3 prompts, 3 faithful (75% precision if all were accepted); 3 have")
    # F against the first archetype beats the cube's against it by the margin
    assert row(lines, "agrees with its first 1 archetype(s), margin 0.0")[1:] == ["3 of 4 (75%)", "2", "2", "0.67"]
    assert row(lines, "agrees with its first 1 archetype(s), margin 0.2")[1:] == ["2 of 4 (50%)", "2", "1", "0.50"]
    assert row(lines, "agrees with its first 1 archetype(s), margin 0.3")[1:] == ["1 of 4 (25%)", "1", "1", "1.00"]
    # both of the first two: the sofa's second archetype (0.2 < 0.3) is not agreed with; an answer with one is never enough
    assert row(lines, "agrees with its first 2 archetype(s), margin 0.0")[1:] == ["1 of 4 (25%)", "1", "0", "0.00"]
    assert row(lines, "an archetype is shown at all (no shape test)")[1:] == ["3 of 4 (75%)", "2", "2", "0.67"]
    assert not rule(judged[3], 1, 0.0) and rule(judged[0], 1, 0.4) and not rule(judged[0], 1, 0.5)
