"""The objective checks of an attempt, which anyone can verify (it ran, lint, a render, the scene against the request,
no copy of what the prompt showed), and what their failures mean: an attempt that ran but built nothing asked for."""

from __future__ import annotations

from collections.abc import Sequence

from ..loop.state import Attempt, Critique, ExemplarBrief
from ..reading.expectations import BUILT_NOTHING, MIN_NONBLANK, built_nothing, check_scene
from .copies import copied_exemplar, describe
from .relations import PLACEMENT, placement_checks
from .structure import structure_checks
from .techniques import PREFIX as TECHNIQUE
from .techniques import check_techniques


def objective(prompt: str, a: Attempt, sources: Sequence[ExemplarBrief] = ()) -> tuple[dict[str, bool], list[str]]:
    """Checks anyone can verify (name → passed) and the reasons for each failure (sources: what the prompt showed, which
    an answer must not copy)."""
    if a.run is None:
        return {"script": False}, [a.failure or "no script to run"]
    checks: dict[str, bool] = {"run": a.run.ok}
    reasons: list[str] = []
    if (copied := copied_exemplar(a.script, sources)) is not None:
        checks["original"] = False
        reasons.append(f"{describe(copied)}, not a script written for this request")
    if not a.run.ok:
        reasons.append(f"the script did not run: {a.run.status}" + (f" ({a.run.failure})" if a.run.exception else ""))
    blocking = len(a.lint.blocking) if a.lint is not None else 0
    checks["lint"] = blocking == 0
    if blocking:
        reasons.append(f"{blocking} blocking lint finding(s)")
    if a.run.ok:
        nonblank = a.run.render.nonblank_fraction if a.run.render is not None else None
        checks["render"] = nonblank is not None and nonblank >= MIN_NONBLANK
        if not checks["render"]:
            reasons.append("the render is blank" if nonblank is not None else "nothing was rendered")
        if built_nothing(a.run.scene):
            checks["built"] = False
            reasons.append(BUILT_NOTHING)
        else:  # the techniques the request names (keyframes, a metal, text …), each message saying what is missing
            technique_checks, technique_reasons = check_techniques(prompt, a.run.scene)
            checks.update(technique_checks)
            reasons.extend(technique_reasons)
        scene_checks, scene_reasons = check_scene(prompt, a.run.scene)
        checks.update(scene_checks)
        reasons.extend(scene_reasons)
        if checks.get("built", True):
            shape_checks, shape_reasons = structure_checks(prompt, a.run.scene)
            checks.update(shape_checks)
            reasons.extend(shape_reasons)
            placed, misplaced = placement_checks(prompt, a.run.scene)  # "a lamp on a bedside table": on it, not beside it
            checks.update(placed)
            reasons.extend(misplaced)
    return checks, reasons


# A script that runs but fails one of these built nothing that was asked: nothing (built), nothing of the request
# (geometry, parts), nothing written for it ("original": a copy of what the prompt showed), or a part hidden in another
# ("coincident": one of the two is not seen). Without "original" a copy that ran was returned at once under
# critic_rounds=0 (the local model's): 3 of its first 8 answers on unseen prompts repeated a shown exemplar's plan and were
# returned with rounds left to ask again. Without "coincident", 4 of 15 answers on unseen prompts (a microphone's grille
# and electronics in one box, a sandwich's fillings in one slab) were returned after one answer, in under 2 of the 20
# minutes a request may take.
# A technique the request names and the scene lacks (no keyframe for a bounce, no metal for a gold crown) is of the same
# kind: a fact of the scene, not the critic model's opinion, so it gets repair rounds where the critic's findings get
# none (critic_rounds=0). So is a count or a material the request states ("a 10 by 10 grid of cubes" built as one cube,
# "a chrome ball on a white floor plane" with no plane): a count of the scene's objects, not an opinion. And so is a
# placement it states ("a lamp on a bedside table" built with the lamp beside the table), read from the scene's boxes.
SUBSTANCE = ("built", "geometry", "parts", "counts", "original", "coincident")
ASKED = "scene: "  # the prefix of a count or material the request states (expectations.Expectation.label)


def lacks_technique(c: Critique) -> bool:
    """A technique the request names is missing from the scene (a failed 'technique: …' check)."""
    return any(not passed and name.startswith(TECHNIQUE) for name, passed in c.checks.items())


def unbuilt(a: Attempt) -> bool:
    """True for a script that ran but built nothing, or nothing the request asked for (a part, a technique): it has
    failed like one that raised, and gets repair rounds (a fresh script or a patch), not the critic's one round."""
    c = a.critique
    return a.ran_ok and c is not None and (any(c.checks.get(name) is False for name in SUBSTANCE) or lacks_technique(c) or lacks_asked(c))


def lacks_asked(c: Critique) -> bool:
    """A count, a material or a placement the request states is missing from the scene (a failed 'scene: …' or
    'placement: …' check)."""
    return any(not passed and name.startswith((ASKED, PLACEMENT)) for name, passed in c.checks.items())
