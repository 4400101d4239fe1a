"""bench/acceptance.py's table: each reviewer's accepted count, prompts and precision against the reference verdict."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from acceptance import markdown  # noqa: E402


def attempt(prompt: str, faithful: bool, score: float | None, neighbours: list[tuple[float, float]]) -> dict[str, object]:
    return {"id": prompt, "faithful": faithful, "llm_scored": score is not None, "score": score, "neighbours": neighbours}


def row(text: str, label: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith(f"| {label} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_each_reviewer_is_rated_against_the_reference_verdict() -> None:
    found = [
        attempt("chair", True, 0.7, [(0.9, 0.2), (0.8, 0.3)]),
        attempt("chair", True, 0.7, [(0.5, 0.2), (0.3, 0.3)]),
        attempt("lamp", False, 0.7, [(0.6, 0.5), (0.2, 0.4)]),
        attempt("lamp", False, None, []),
    ]
    text = markdown(found, [Path("artifacts")], store=True)
    assert "4 distinct attempts" in text and "2 faithful (50%" in text
    assert "0.70: 3 (2 faithful)" in text  # the score histogram: one score for all, faithful or not
    assert row(text, "the objective and structural checks alone")[1:] == ["4 of 4 (100%)", "2", "2", "0.50"]
    assert row(text, "the critic model's score ≥ 0.7")[1:] == ["3 of 4 (75%)", "2", "2", "0.67"]
    assert row(text, "the critic model's score ≥ 0.75")[1:] == ["0 of 4 (0%)", "0", "0", "–"]
    # agreement: F against the neighbour beats the neighbour's cube floor by the margin, for each of the k nearest
    assert row(text, "agrees with 1 of its 1 nearest same-kind exemplar(s), margin 0.0")[1:] == ["3 of 4 (75%)", "2", "2", "0.67"]
    picked = "agrees with 2 of its 2 nearest same-kind exemplar(s), margin 0.2 (the loop's rule)"
    assert row(text, picked)[1:] == ["1 of 4 (25%)", "1", "1", "1.00"]
    # one of two: the second chair attempt (0.5 > 0.2 + 0.2) joins, the lamp (0.6 < 0.5 + 0.2) does not
    assert row(text, "agrees with 1 of its 2 nearest same-kind exemplar(s), margin 0.2")[1:] == ["2 of 4 (50%)", "1", "2", "1.00"]
    assert "agrees with 3 of its 3 nearest" in text  # no attempt has 3 neighbours: none accepted, not an error
    assert row(text, "agrees with 3 of its 3 nearest same-kind exemplar(s), margin 0.0")[1] == "0 of 4 (0%)"
    # the first rule (in table order) that accepts the most at precision ≥ 0.8
    assert "Most accepted at precision ≥ 0.8 on these attempts: agrees with 1 of its 1 nearest same-kind exemplar(s), margin 0.1." in text


def test_without_a_store_no_agreement_rows() -> None:
    text = markdown([attempt("chair", True, 0.8, [])], [Path("artifacts")], store=False)
    assert "agrees with" not in text
    assert row(text, "the critic model's score ≥ 0.75")[1:] == ["1 of 1 (100%)", "1", "1", "1.00"]
