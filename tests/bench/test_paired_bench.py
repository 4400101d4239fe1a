"""bench/paired.py: two fidelity runs of one sample, prompt by prompt."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from paired import markdown, repeats  # noqa: E402


def judged(name: str, f: float | None, faithful: bool, accepted: bool = False, copy: str | None = None) -> dict[str, object]:
    return {
        "name": name,
        "fidelity": None if f is None else {"fscore": f},
        "faithful": faithful,
        "accepted": accepted,
        "generated": f is not None and copy is None,
        "copy_of": copy,
    }


def test_the_two_runs_are_read_side_by_side_with_what_each_alone_got_right() -> None:
    base = {
        "a1": judged("Lamp", 0.2, False),
        "b2": judged("Bowl", 0.6, True, accepted=True),
        "c3": judged("Tree", None, False, copy="a copy of the recipe written for x"),
        "d4": judged("Only here", 0.9, True),
    }
    other = {
        "a1": judged("Lamp", 0.7, True, accepted=True),
        "b2": judged("Bowl", 0.1, False, accepted=True),
        "c3": judged("Tree", 0.5, True)
        | {"shown": [{"id": "shape:7"}], "agreement": [{"id": "shape:7", "archetype": True, "fscore": 0.995}]},
    }
    # the same F against a shape the row did not show is no repeat: the model was not led to it
    assert not repeats(judged("x", 0.5, True) | {"shown": [], "agreement": [{"id": "shape:7", "archetype": True, "fscore": 1.0}]})
    lines = markdown(base, other, ("before", "after")).splitlines()
    assert lines[2] == "| Lamp (`a1`) | F 0.20 | F 0.70 faithful **accepted** |"
    assert lines[4] == "| Tree (`c3`) | copy | F 0.50 (the shown shape again) faithful |"
    assert not any("Only here" in line for line in lines)  # a prompt one run lacks is left out of both
    assert "| before | 3 | 1 (33.3 %) | 1 | 1 (33.3 %) | 1 (1.00) | 0 (0) |" in lines
    assert "| after | 3 | 2 (66.7 %) | 0 | 2 (66.7 %) | 1 (0.50) | 1 (1) |" in lines
    assert "- faithful in after only: 2 (Lamp, Tree)" in lines and "- faithful in before only: 1 (Bowl)" in lines
