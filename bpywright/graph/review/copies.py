"""A generated script that copies something its prompt showed nearly line for line: an exemplar, a bundled recipe, or the
system prompt's own API example.

Small models copy what they are shown: asked for "a red chair with four legs", the local model returned the wooden-table recipe
98 % unchanged; asked for a Rubik's cube, a logo or a wallpaper pattern, it returned the system prompt's example (a red
cube and a square) verbatim. A copy is not a generated answer: it is never accepted, the heal step writes a fresh script
told what it copied, and a copy returned for want of anything else says so. The benchmark counts copies as failures.
"""

from __future__ import annotations

import ast
import collections
import difflib
from collections.abc import Iterable
from functools import cache

from ..loop.state import Attempt, ExemplarBrief

# copy_share at or above this is a copy (code lines stripped, comments dropped). Of the local model's 30 loop answers in the
# committed benchmark, 7 reach it against the system prompt's example (3 verbatim); the next highest is 0.76.
COPY_RATIO = 0.8
MIN_LINES = 4  # code this short is judged by the critic, not as a copy (a plan-built answer's parts count from 1)
# Parts compared without names and colours only from this many: one part of a plain size at the origin may match by chance
MIN_SHAPE_PARTS = 2
SYSTEM_EXAMPLE_ID = "system-prompt-example"
PARTS_START = "PARTS = ["  # the line that opens a plan-built script's parts (graph/plans/build.py)
TABLES_MARK = "# Techniques:"  # the comment that opens its technique tables, where it has any (plan_build.TABLES_MARK)
DEFAULT_CAMERA = 'CAMERA = ("Camera", 50.0, "front", "right")'  # a technique script's camera where its plan names none


def _lines(script: str) -> tuple[list[str], bool]:
    """(the script's code lines, whether it was built from a part plan): of a plan-built script its PARTS lines only (the
    builder's body is the same for every plan, and what the model wrote is the parts), then the rows of its technique
    tables, each named for its table ("LOOKS ('ring', 'gold', …),"); a table's opening and closing lines and the
    builder's own camera are the same in every such script, and are left out."""
    lines = [s for line in script.splitlines() if (s := line.strip()) and not s.startswith("#")]
    if PARTS_START in lines:
        start = lines.index(PARTS_START) + 1
        end = lines.index("]", start) if "]" in lines[start:] else len(lines)
        rows = lines[start:end]
        if TABLES_MARK in script:  # the technique tables after PARTS are what the model wrote too
            table = ""
            for line in lines[end + 1 :]:
                if line.startswith("def "):
                    break
                if line.endswith("= ["):
                    table = line.split()[0]
                elif line != "]" and line != DEFAULT_CAMERA:
                    rows.append(line if line.startswith("CAMERA") else f"{table} {line}")
        return rows, True
    return lines, False


def _shapes(lines: list[str]) -> list[tuple[object, ...]] | None:
    """A plan-built script's parts without their names and colours: (shape, size, location, rotation) each, or None when
    a PARTS line is not a part literal. A technique table's rows (after the parts) are left to the line comparison."""
    out = []
    for line in lines:
        if not line.startswith("("):
            break  # the technique tables' rows begin
        try:
            part = ast.literal_eval(line.rstrip(","))
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return None
        if not (isinstance(part, tuple) and len(part) == 6):
            return None
        out.append(tuple(part[1:5]))
    return out


def shape_share(mine: list[tuple[object, ...]], theirs: list[tuple[object, ...]]) -> float:
    """The share of my parts that a part of theirs has exactly (shape, size, place, turn), in any order and under any
    name or colour: the larger of that and its share of both plans' parts, as copy_share counts lines."""
    if len(mine) < MIN_SHAPE_PARTS:
        return 0.0
    shared = sum((collections.Counter(mine) & collections.Counter(theirs)).values())
    return max(shared / len(mine), 2 * shared / (len(mine) + len(theirs)))


def copy_share(script: str, source: str) -> float:
    """How much of the script the source holds (0.0–1.0): the larger of the share of the script's code lines found in
    the source in order, and difflib's ratio of the two (which also counts the source's lines the script kept: the
    system prompt's example plus a few lines of its own). Two plan-built scripts are also compared part by part without
    names and colours (shape_share): told it copied a verified clarinet's plan, the local model renamed every part
    ("key" → "clarinet_key") and painted them all black, kept 11 of its 13 parts' sizes and places exactly, shared 8 %
    of its lines with it, and was accepted for agreeing with the clarinet it copied (F 1.00)."""
    (mine, planned), (theirs, their_plan) = _lines(script), _lines(source)
    if not mine:
        return 0.0
    matcher = difflib.SequenceMatcher(None, mine, theirs, autojunk=False)
    shared = sum(block.size for block in matcher.get_matching_blocks())
    share = max(shared / len(mine), 2 * shared / (len(mine) + len(theirs)))
    if planned and their_plan and (a := _shapes(mine)) is not None and (b := _shapes(theirs)) is not None:
        share = max(share, shape_share(a, b))
    return share


def _too_short(script: str) -> bool:
    """Code under MIN_LINES lines is too short to call a copy: a few generic lines (an import, one primitive) match any
    source. A plan-built answer's lines are its parts, each with its own name, shape, size, place and colour, so one part
    repeated is already a repeat: on unseen prompts, the local model returned three parts of a verified syringe's five-part
    plan verbatim, and it was accepted as its own answer."""
    lines, planned = _lines(script)
    return not lines if planned else len(lines) < MIN_LINES


def copied_exemplar(script: str | None, sources: Iterable[ExemplarBrief]) -> ExemplarBrief | None:
    """The source the script copies (COPY_RATIO of its code lines or more), if any; the closest one when several."""
    if not script or _too_short(script):
        return None
    best: tuple[float, ExemplarBrief] | None = None
    for e in sources:
        share = copy_share(script, e.script)
        if share >= COPY_RATIO and (best is None or share > best[0]):
            best = (share, e)
    return best[1] if best else None


SHAPE_SOURCE = "shape"  # an ExemplarBrief that is the critic's shape of the request's kind, shown (Settings.plan_shapes)
LIBRARY_SOURCE = "plan library"  # an ExemplarBrief that is a plan of the plan library, as the script it builds


@cache
def system_example(version: str) -> ExemplarBrief:
    """The system prompt's API example (its ```python block) as a source an answer may copy."""
    from ..model.prompting import render
    from ..repair.borrow import code_blocks

    code = "\n".join(code_blocks(render("generate_system", version=version)))
    return ExemplarBrief(id=SYSTEM_EXAMPLE_ID, prompt="the system prompt's API example", script=code, source="prompt")


@cache
def _recipes() -> tuple[ExemplarBrief, ...]:
    from ...recipes import all_recipes

    return tuple(ExemplarBrief(id=f"recipe:{r.name}", prompt=r.prompt, script=r.source, source="recipe") for r in all_recipes())


@cache
def library_scripts(version: str) -> tuple[ExemplarBrief, ...]:
    """Every plan of the plan library as the script it builds: an answer that repeats one is a copy."""
    from ..plans.library import LIBRARY
    from ..plans.plan import archetype_script

    return tuple(
        ExemplarBrief(id=f"plan:{i}", prompt=a.request, script=archetype_script(a, version), source=LIBRARY_SOURCE)
        for i, a in enumerate(LIBRARY)
    )


@cache
def technique_scripts(version: str) -> tuple[ExemplarBrief, ...]:
    """Every technique plan of the plan library (plan_library.TECHNIQUES) as the script it builds: shown to teach the
    form, an answer that repeats one is a copy."""
    from ..plans.library import TECHNIQUES
    from ..plans.plan import archetype_script

    return tuple(
        ExemplarBrief(id=f"technique:{i}", prompt=a.request, script=archetype_script(a, version), source=LIBRARY_SOURCE)
        for i, a in enumerate(TECHNIQUES)
    )


@cache
def _built(plan: str, prompt: str, version: str) -> str | None:
    from ..plans.plan import PlanError, build_script, grounded, parse_plan

    try:
        return build_script(grounded(parse_plan(plan), prompt), version)
    except PlanError:
        return None


def as_built(e: ExemplarBrief, version: str) -> ExemplarBrief | None:
    """An exemplar the plan strategy showed as its scene's part plan, as the script that plan builds (None without a
    usable plan): a plan-built answer that repeats it is a copy. The local model, shown a verified pizza's plan, returned it
    part for part (grey, as the scene recorded it) after being told twice that it copied; compared with the exemplar's
    own code, the copy went unseen, and it agreed with the very exemplar it copied."""
    built = _built(e.plan, e.prompt, version) if e.plan else None
    return e.model_copy(update={"script": built}) if built is not None else None


def shown_sources(version: str, exemplars: Iterable[ExemplarBrief] = ()) -> list[ExemplarBrief]:
    """Everything a generator prompt may have shown: the exemplars given (their code, and the script their part plan
    builds), the system prompt's example, every recipe, every plan of the plan library."""
    given = list(exemplars)
    out = given + [b for e in given if (b := as_built(e, version)) is not None]
    seen = {e.script for e in out}
    for e in (system_example(version), *_recipes(), *library_scripts(version), *technique_scripts(version)):
        if e.script not in seen:
            out.append(e)
            seen.add(e.script)
    return out


def describe(source: ExemplarBrief) -> str:
    """How a message names what was copied."""
    if source.id == SYSTEM_EXAMPLE_ID:
        return "a copy of the system prompt's API example"
    kind = {"recipe": "recipe", LIBRARY_SOURCE: "library plan", SHAPE_SOURCE: "critic's shape"}.get(source.source, "exemplar")
    return f'a copy of the {kind} written for "{source.prompt[:80]}"'


def copies_of(attempts: Iterable[Attempt], sources: list[ExemplarBrief]) -> dict[int, ExemplarBrief]:
    """The attempts that copy a shown source (index → the source): never accepted, they rank below the scripts written
    for the request, and a fresh script is not shown an exemplar they copied."""
    found = ((a.index, copied_exemplar(a.script, sources)) for a in attempts)
    return {index: e for index, e in found if e is not None}
