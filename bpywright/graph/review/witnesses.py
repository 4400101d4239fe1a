"""Acceptance by agreement with the model's own fresh plans, where the store has no verified neighbours of the kind.

A fresh `make run` store holds no two verified exemplars of a chair or a juicer, so the neighbour rule
(graph/review/agreement.py) gives no verdict and nothing is accepted: the store never grows. Here the answer's witnesses are
fresh part plans of the same request, sampled (seed + WITNESS_VARIANT + k, at the candidates' temperature) from the same
messages as the first plan, built by the same builder and measured in Blender like a neighbour. The answer is accepted
when its F-score against each witness beats a unit cube's against it by the neighbour rule's MARGIN: a model that knows
the object draws it the same way again; one that is guessing scatters. Witnesses that copy what the prompt showed, or
that do not run, are not witnesses.

This is self-consistency, so it cannot see an error the model makes every time, and for the local model that is the
error that matters: on 18 BlendNet dev prompts (bench/results/fidelity/witnesses-733b7ba/, bench/witnesses.py) this
rule accepted 2 answers, neither faithful (a drum set drawn as the same tower four times, an armchair as the same
bench), and no rule of 30 (1-3 witnesses, margins 0-0.4) reached a precision of 0.8 (best: 6 accepted, 4 faithful).
So it is off by default (Settings.witnesses = 0); it costs K plan calls a request, once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ...fidelity.compare import compare
from .agreement import MARGIN, Agreement, GeometryCache, Measure, Neighbour, answer_and_cube

WITNESS_VARIANT = 101  # witness k is sampled with seed + 101 + k: apart from the n candidates' and redraws' (1, 2, …)


def usable_witnesses(drawn: Sequence[str | None], copied: Callable[[str], bool]) -> list[str]:
    """The fresh plan-built scripts drawn (witness k sampled as variant WITNESS_VARIANT + k; None: no usable plan) that
    can testify: unusable plans and copies of shown exemplars left out, in the order drawn."""
    return [script for script in drawn if script is not None and not copied(script)]


def corroborate(script: str, witnesses: Sequence[str], need: int, measure: Measure, cache: GeometryCache) -> Agreement:
    """Does the answer's shape agree with each of its witnesses (at least need of them measured) by MARGIN over a cube?"""
    measured = answer_and_cube(script, measure, cache, "fresh plans of the request")
    if isinstance(measured, Agreement):
        return measured
    answer, cube = measured
    compared: list[Neighbour] = []
    for k, witness in enumerate(witnesses):
        geometry = cache.get(witness, measure)
        if geometry is None or geometry.empty:
            continue  # a plan that did not build a measurable scene testifies to nothing
        label = f"draw {k + 1}" + (" (the same plan)" if witness == script else "")
        compared.append(
            Neighbour(
                label, "a fresh plan of the same request", compare(answer, geometry).fscore, compare(cube, geometry).fscore, witness=True
            )
        )
    shown = "; ".join(f"F {c.fscore:.2f} against {c.id}, a cube {c.cube:.2f}" for c in compared)
    if len(compared) < need:
        return Agreement(
            False,
            f"not accepted: the store holds no verified exemplars of its kind, and {len(compared)} of the {need} fresh plans "
            "of the request needed to compare its shape with were usable",
            compared,
        )
    if all(c.agrees for c in compared):
        return Agreement(True, f"accepted: its shape agrees with {len(compared)} fresh plans of the same request ({shown})", compared)
    return Agreement(
        False,
        f"not accepted: its shape does not agree with the {len(compared)} fresh plans of the same request by the margin of "
        f"{MARGIN} over a cube ({shown})",
        compared,
    )
