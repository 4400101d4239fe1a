"""bench/shapes_as_answers.py: the critic's shape of the kind as if it were the answer, against the reference."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from shapes_as_answers import markdown, tally  # noqa: E402


def row(folder: str, shape: bool | None, answer: bool | None, accepted: bool = False) -> dict[str, object]:
    return {
        "folder": folder,
        "id": "x",
        "name": "",
        "shape_id": None if shape is None else "shape:1",
        "shape": shape,
        "answer": answer,
        "accepted": accepted,
    }


def test_accepts_are_split_by_whether_the_shape_itself_is_faithful() -> None:
    rows = [
        row("a", True, True, accepted=True),
        row("a", True, False, accepted=True),
        row("a", True, True),
        row("a", False, False, accepted=True),
        row("b", False, True),
        row("b", None, True, accepted=True),  # no shape of its kind: counted as a prompt only
        row("b", True, None),  # the loop's answer did not run
    ]
    t = tally(rows)
    assert (t["prompts"], t["shaped"], t["shape_faithful"], t["answer_faithful"]) == (7, 6, 4, 3)
    assert (t["good_prompts"], t["good_accepted"], t["good_accepted_faithful"]) == (4, 2, 1)
    assert (t["bad_prompts"], t["bad_accepted"], t["bad_accepted_faithful"]) == (2, 1, 0)
    lines = markdown(rows).splitlines()
    assert lines[2] == "| a | 4 | 4 | 3 (75.0 %) | 2 (50.0 %) | 1 of 2 (0.50) | 0 of 1 (0.00) |"
    assert lines[3] == "| b | 3 | 2 | 1 (50.0 %) | 1 (50.0 %) | – | – |"
    assert lines[4].startswith("| **all** | 7 | 6 | 4 (66.7 %) | 3 (50.0 %) | 1 of 2 (0.50) | 0 of 1 (0.00) |")
