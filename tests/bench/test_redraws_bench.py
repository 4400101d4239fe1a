"""bench/redraws.py: the answer a run returned with its redraws, against the run cut at its first redraw."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from redraws import Judge, first_redraw, markdown, tally, without_redraws  # noqa: E402

from bpywright.graph.loop.state import Attempt, Critique  # noqa: E402
from bpywright.graph.review.copies import system_example  # noqa: E402


def attempt(index: int, note: str, *, ok: bool = True, accepted: bool = False, closeness: float = 0.0) -> Attempt:
    """An attempt that passed the checks (ok) and was compared with one archetype: F - cube = closeness."""
    critique = Critique(
        objective_ok=ok,
        accepted=accepted,
        agreement=[{"id": "shape:1", "fscore": 0.5 + closeness, "cube": 0.5, "agrees": accepted, "archetype": True}],
    )
    return Attempt(index=index, origin="generate", script=f"print({index})\n", note=note, critique=critique)


def test_without_redraws_the_run_returns_the_best_answer_made_before_the_first() -> None:
    attempts = [
        attempt(0, "sample 1/1", ok=False),  # failed the checks
        attempt(1, "regenerated: a fresh script", closeness=0.05),  # passed them and disagreed: the first redraw follows
        attempt(2, "redrawn: #1 its shape did not agree with the archetype of its kind; a fresh plan, sampled", closeness=-0.1),
        attempt(3, "redrawn: #2 its shape did not agree with the archetype of its kind; a fresh plan, sampled", accepted=True),
    ]
    state = SimpleNamespace(attempts=attempts, best=3, version="4.5", exemplars=[])
    assert first_redraw(attempts) == 2
    assert without_redraws(state) == 1  # not the failed #0, not anything drawn after the cut
    # a run that never redrew returns the same answer either way
    plain = SimpleNamespace(attempts=attempts[:2], best=1, version="4.5", exemplars=[])
    assert first_redraw(plain.attempts) is None and without_redraws(plain) == 1


def test_the_table_counts_accepts_and_their_precision_both_ways() -> None:
    def j(index: int, faithful: bool, accepted: bool) -> dict[str, object]:
        return {"index": index, "fscore": 0.6 if faithful else 0.2, "faithful": faithful, "accepted": accepted}

    rows = [
        {
            "name": "Lamp",
            "id": "a" * 8,
            "draws": [j(2, True, True)],
            "with": j(2, True, True),
            "without": j(1, False, False),
            "seconds": 300,
            "redraw_llm_s": 40.0,
        },
        {
            "name": "Bowl",
            "id": "b" * 8,
            "draws": [j(1, False, True)],
            "with": j(1, False, True),
            "without": j(0, True, False),
            "seconds": 200,
            "redraw_llm_s": 30.0,
        },
        {
            "name": "Apple",
            "id": "c" * 8,
            "draws": [],
            "with": j(0, True, True),
            "without": j(0, True, True),
            "seconds": 90,
            "redraw_llm_s": 0.0,
        },
    ]
    assert tally(rows, "with") == (2, 3, 2)
    assert tally(rows, "without") == (2, 1, 1)
    text = markdown(rows, "m", "loop")
    assert "redraws fired on 2, 2 drawn, 2 of them accepted (1 faithful)" in text
    assert "with redraws: faithful 2 of 3 (66.7%), accepted 3 (100.0%), 2 faithful among them (precision 0.67)" in text
    assert "without (cut at the first redraw): faithful 2 of 3 (66.7%), accepted 1 (33.3%), 1 faithful among them (precision 1.00)" in text
    assert "| Lamp (`aaaaaaaa`) | #2 F 0.60 faithful **accepted** |" in text


def test_a_returned_copy_counts_as_f_0_and_not_faithful_as_in_the_fidelity_table() -> None:
    """A burger answered with the shown burger recipe's script is a copy, which bench/fidelity.py counts as a failure; the
    redraws table must not measure it (it scores F 0.76, "faithful") and so count one more faithful answer than the benchmark."""
    copied = attempt(0, "sample 1/1").model_copy(update={"script": system_example("4.5").script})
    state = SimpleNamespace(attempts=[copied], best=0, version="4.5", exemplars=[])
    judged = Judge(cache=None, key="k", state=state, reference=None, entry={})  # a copy is never measured
    got = judged(0)
    assert got is not None and got["copy"] and not got["faithful"] and got["fscore"] == 0.0
    row = {"name": "Burger", "id": "d" * 8, "draws": [], "with": got, "without": got, "seconds": 366, "redraw_llm_s": 0.0}
    text = markdown([row], "m", "loop")
    assert "| Burger (`dddddddd`) | – | #0 copy | #0 copy |" in text
    assert "with redraws: faithful 0 of 1 (0.0%)" in text
