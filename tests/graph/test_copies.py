"""Copies: a generated script that is something its prompt showed (an exemplar, a recipe, the system prompt's example)
nearly line for line is found and named; real answers are not."""

from __future__ import annotations

import json
from pathlib import Path

from bpywright.graph.loop.state import ExemplarBrief
from bpywright.graph.review.copies import SYSTEM_EXAMPLE_ID, copied_exemplar, describe, shown_sources, system_example
from bpywright.recipes import RECIPES_DIR

from .samples import THREE_CUBES

ROOT = Path(__file__).resolve().parents[2]
RECIPES = [ExemplarBrief(id=p.stem, prompt=p.stem, script=p.read_text(encoding="utf-8")) for p in sorted(RECIPES_DIR.glob("[a-z]*.py"))]
BENCH = ROOT / "bench" / "results" / "generation" / "qwen2.5-coder-1.5b"


def test_an_edited_copy_is_found_and_its_exemplar_named() -> None:
    table = next(e for e in RECIPES if e.id == "wooden_table")
    edited = table.script.replace("TABLE_HEIGHT = 0.8", "TABLE_HEIGHT = 0.45").replace("Table", "Chair")
    edited = "# A red chair\n" + edited.replace("(0.45, 0.28, 0.13)", "(0.8, 0.05, 0.05)")
    assert copied_exemplar(edited, RECIPES) == table
    assert copied_exemplar(THREE_CUBES, RECIPES) is None
    assert copied_exemplar(None, RECIPES) is None and copied_exemplar(table.script, []) is None


def test_the_system_prompt_example_with_its_colour_changed_is_a_copy() -> None:
    """'A blue cylinder standing on a grey plane' came back as the example with its colour changed."""
    example = system_example("4.5")
    blue = example.script.replace('"Red"', '"Blue"').replace("(0.8, 0.1, 0.1, 1.0)", "(0.1, 0.1, 0.8, 1.0)")
    found = copied_exemplar("import bpy\n" + blue, shown_sources("4.5"))
    assert found is not None and found.id == SYSTEM_EXAMPLE_ID
    assert describe(found) == "a copy of the system prompt's API example"
    assert copied_exemplar(THREE_CUBES, shown_sources("4.5")) is None


def _answers(mode: str) -> dict[str, str]:
    rows = (json.loads(p.read_text(encoding="utf-8")) for p in sorted((BENCH / mode).glob("*.json")))
    return {r["id"][:8]: r["script"] for r in rows if r.get("script")}


def test_the_committed_benchmark_answers_that_copy_the_system_prompt_example_are_found() -> None:
    """The issue's count: the loop's Wallpaper Pattern, Rubik's cube and logo are the example verbatim; more are the
    example plus a few lines. None of the local model's answers copies a recipe."""
    sources = shown_sources("4.5")
    loop = {k: e.id for k, s in _answers("loop").items() if (e := copied_exemplar(s, sources)) is not None}
    assert {"16b323ad", "6269972d", "6e02da03"} <= set(loop)  # verbatim
    assert 6 <= len(loop) <= 8 and set(loop.values()) == {SYSTEM_EXAMPLE_ID}
    everything = [s for mode in ("one-shot", "retrieval", "loop") for s in _answers(mode).values()]
    assert len(everything) >= 60
    assert [s[:60] for s in everything if copied_exemplar(s, RECIPES) is not None] == []


def test_a_plan_built_answer_that_repeats_an_exemplars_shown_plan_is_a_copy() -> None:
    from bpywright.graph.plans.plan import build_script, grounded, parse_plan

    from .test_plan import BURGER, BURGER_PROMPT, CHAIR, CHAIR_PROMPT

    # the exemplar's own code is nothing like the script its plan builds: without the plan the copy goes unseen
    code = "import bpy\n" + "".join(f"bpy.ops.mesh.primitive_cylinder_add(radius={r})\n" for r in (1, 2, 3, 4, 5))
    exemplar = ExemplarBrief(id="burger-1", prompt="a burger with cheese, lettuce and pickles", script=code, source="imported", plan=BURGER)
    answer = build_script(grounded(parse_plan(BURGER), BURGER_PROMPT), "4.5")
    assert copied_exemplar(answer, shown_sources("4.5", [exemplar.model_copy(update={"plan": ""})])) is None
    found = copied_exemplar(answer, shown_sources("4.5", [exemplar]))
    assert found is not None and found.id == "burger-1" and describe(found).startswith("a copy of the exemplar written for")
    # a plan of its own is not
    own = build_script(grounded(parse_plan(CHAIR), CHAIR_PROMPT), "4.5")
    assert copied_exemplar(own, shown_sources("4.5", [exemplar])) is None
    # a plan that cannot be built is no source, and no error
    assert len(shown_sources("4.5", [exemplar.model_copy(update={"plan": "{not json"})])) == len(shown_sources("4.5", [])) + 1


def test_a_plan_built_answer_of_a_few_parts_repeated_from_a_shown_plan_is_a_copy() -> None:
    """On unseen prompts the local model returned three parts of a verified syringe's five-part plan verbatim; with parts
    counted like code lines (under 4 is too short to judge) it went unseen and was accepted. A plan's parts count from
    one; short code still does not."""
    from bpywright.graph.plans.plan import build_script, grounded, parse_plan

    from .test_plan import BURGER, BURGER_PROMPT

    plan = json.loads(BURGER)
    exemplar = ExemplarBrief(id="burger-1", prompt=BURGER_PROMPT, script="import bpy\n", source="imported", plan=BURGER)
    sources = shown_sources("4.5", [exemplar])
    for n in (1, 3):
        subset = json.dumps({**plan, "parts": plan["parts"][:n]})
        answer = build_script(grounded(parse_plan(subset), BURGER_PROMPT), "4.5")
        found = copied_exemplar(answer, sources)
        assert found is not None and found.id == "burger-1", n
    # three parts of its own are not a copy
    own = {**plan, "parts": [{**p, "size": [s * 1.5 for s in p["size"]]} for p in plan["parts"][:3]]}
    own_script = build_script(grounded(parse_plan(json.dumps(own)), BURGER_PROMPT), "4.5")
    assert copied_exemplar(own_script, sources) is None
    # and a short script of plain code is still the critic's to judge, even when the source holds its lines
    short = "import bpy\nbpy.ops.mesh.primitive_cube_add()\n"
    assert copied_exemplar(short, [ExemplarBrief(id="x", prompt="x", script=short + "print(1)\n")]) is None


def test_a_shown_plan_with_its_parts_renamed_and_repainted_is_a_copy() -> None:
    """Told it copied a verified clarinet's plan, the local model renamed every part ("key" → "clarinet_key"), painted them all
    black and kept 11 of its 13 parts' sizes and places: 8 % of its lines matched, and it was accepted for agreeing with
    the clarinet it copied (F 1.00). Parts are also compared without their names and colours."""
    from bpywright.graph.plans.plan import build_script, grounded, parse_plan

    from .test_plan import BURGER, BURGER_PROMPT, CHAIR, CHAIR_PROMPT

    plan = json.loads(BURGER)
    exemplar = ExemplarBrief(id="burger-1", prompt=BURGER_PROMPT, script="import bpy\n", source="imported", plan=BURGER)
    sources = shown_sources("4.5", [exemplar])
    disguised = {**plan, "parts": [{**p, "name": f"my_{p['name']}", "color": "black"} for p in plan["parts"]]}
    answer = build_script(grounded(parse_plan(json.dumps(disguised)), BURGER_PROMPT), "4.5")
    found = copied_exemplar(answer, sources)
    assert found is not None and found.id == "burger-1"
    # one part of its own in eight is still a copy (7 of 8 parts repeated); two of eight are not (6 of 8: 0.75)
    parts = disguised["parts"]
    assert len(parts) == 8
    grown = [{**p, "size": [s * 1.3 for s in p["size"]]} for p in parts]  # the top parts: the plan's bottom stays put
    one_own = build_script(grounded(parse_plan(json.dumps({**plan, "parts": [*parts[:7], grown[7]]})), BURGER_PROMPT), "4.5")
    two_own = build_script(grounded(parse_plan(json.dumps({**plan, "parts": [*parts[:6], *grown[6:]]})), BURGER_PROMPT), "4.5")
    assert copied_exemplar(one_own, sources) is not None and copied_exemplar(two_own, sources) is None
    # a plan of another object is not a copy, and one part of a plain size matching by chance is not either
    assert copied_exemplar(build_script(grounded(parse_plan(CHAIR), CHAIR_PROMPT), "4.5"), sources) is None
    single = {**plan, "parts": [{**parts[0], "name": "thing"}]}
    assert copied_exemplar(build_script(grounded(parse_plan(json.dumps(single)), BURGER_PROMPT), "4.5"), sources) is None
