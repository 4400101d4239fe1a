"""The plan library: plans of everyday objects shown with a plan request, to adapt; a plan that repeats one is a copy."""

from __future__ import annotations

import pytest

from bpywright.graph.plans.library import LIBRARY, similar
from bpywright.graph.plans.plan import build_script, grounded, parse_plan, plan_findings, plan_messages
from bpywright.graph.review.copies import copied_exemplar, describe, shown_sources

pytestmark = pytest.mark.blender

CHAIR = "a wooden dining chair with four legs and a backrest"


@pytest.mark.parametrize("archetype", LIBRARY, ids=lambda a: a.request)
def test_every_library_plan_is_a_good_plan_of_its_own_request(archetype) -> None:
    plan = grounded(parse_plan(archetype.plan), archetype.request)
    assert plan_findings(plan, archetype.request) == []  # shown as a model to follow: it passes every check itself
    assert min(p.location[2] - p.size[2] / 2 for p in plan.parts if not any(p.rotation)) >= -1e-9


def test_the_nearest_kinds_travel_with_the_request_and_none_for_a_kind_not_here() -> None:
    assert [a.plan.split('"')[3] for a in similar(CHAIR)] == ["park bench"]
    assert [a.plan.split('"')[3] for a in similar("an office desk with two drawers")] == ["table", "cabinet"]
    assert [a.plan.split('"')[3] for a in similar("a ceramic jug and a lamp", 2)] == ["desk lamp", "mug"]
    assert similar("a cube") == [] and similar(CHAIR, 0) == []
    # a hyphenated word is one word: a flat-screen is no screen, so a flat-screen clock is shown no monitor
    assert similar("a flat-screen clock") == [] and [a.plan.split('"')[3] for a in similar("a big screen")] == ["monitor"]
    user = plan_messages(CHAIR, "4.5", examples=2)[1]["content"]
    assert "a park bench with a slatted seat" in user and user.rstrip().endswith(f"Request: {CHAIR}")
    assert "Plans of related objects" not in plan_messages(CHAIR, "4.5")[1]["content"]  # examples=0: the request alone


def test_a_plan_that_repeats_a_shown_plan_is_a_copy_and_an_adapted_one_is_not() -> None:
    bench = LIBRARY[1]
    copied = parse_plan(bench.plan)
    assert plan_findings(copied, CHAIR, examples=2) == [
        "the plan copies the example (park bench): plan the requested object's own parts instead"
    ]
    script = build_script(grounded(copied, CHAIR), "4.5")
    found = copied_exemplar(script, shown_sources("4.5"))
    assert found is not None and describe(found).startswith('a copy of the library plan written for "a park bench')
    chair = parse_plan(
        bench.plan.replace("[1.5, 0.45, 0.05]", "[0.45, 0.45, 0.05]")
        .replace("[1.5, 0.04, 0.45]", "[0.45, 0.04, 0.5]")
        .replace("0.4]", "0.42]")
        .replace("light_wood", "brown")
        .replace("dark_grey", "brown")
    )
    chair = chair.model_copy(update={"parts": [p for p in chair.parts if "armrest" not in p.name]})
    assert plan_findings(chair, CHAIR, examples=2) == []
    assert copied_exemplar(build_script(grounded(chair, CHAIR), "4.5"), shown_sources("4.5")) is None


# Builds many archetype scripts in one Blender job: before each, the factory scene is read again (what a job's fresh
# fork of the zygote holds), the script runs in its own globals, and the harness's own scene summary is taken.
BUILD_ALL = """
import importlib, importlib.machinery, importlib.util, json, os, sys, traceback
import bpy

spec = importlib.machinery.ModuleSpec("harness_entry", None, is_package=True)
spec.submodule_search_locations = [os.getcwd()]  # the summary and its sibling modules, as the entry loads them
sys.modules["harness_entry"] = importlib.util.module_from_spec(spec)
summary = vars(importlib.import_module("harness_entry.summary"))
built = []
for i, source in enumerate(json.load(open("scripts.json", encoding="utf-8"))):
    bpy.ops.wm.read_homefile(use_factory_startup=True, load_ui=False)
    try:
        exec(compile(source, f"archetype_{i}.py", "exec"), {"__name__": "__main__"})
    except Exception:
        built.append({"failure": traceback.format_exc(limit=3), "scene": None})
        continue
    built.append({"failure": None, "scene": summary["scene_summary"]()})
with open("built.json", "w", encoding="utf-8") as fh:
    json.dump(built, fh)
"""


def build_failures(pool, tmp_path, archetypes) -> list[tuple[str, object]]:
    """What goes wrong when each archetype's plan is built and run in Blender: it fails, builds a mesh count other than
    its parts', or fails the critic's structural checks (none: an empty list). All of them in one job (BUILD_ALL)."""
    import json

    from bpywright.graph.plans.plan import archetype_script
    from bpywright.graph.review.structure import structure_checks
    from bpywright.harness.backend import ENTRY
    from bpywright.harness.report import SceneSummary

    scripts = [archetype_script(archetype, "4.5") for archetype in archetypes]
    inputs = {"scripts.json": json.dumps(scripts).encode("utf-8")}
    inputs |= {path.name: path.read_bytes() for path in ENTRY.parent.glob("*.py")}  # the summary and its siblings
    out = tmp_path / "built"
    options = pool.options.model_copy(update={"timeout": 30 + 2 * len(scripts)})
    report = pool.run(source=BUILD_ALL, options=options, inputs=inputs, outputs_to=out)
    assert report.ok and (out / "built.json").is_file(), (report.failure, report.stderr[-2000:])
    built = json.loads((out / "built.json").read_text(encoding="utf-8"))
    assert len(built) == len(archetypes)
    failing: list[tuple[str, object]] = []
    for archetype, one in zip(archetypes, built):
        if one["failure"] is not None:
            failing.append((archetype.request, one["failure"]))
            continue
        scene = SceneSummary.model_validate(one["scene"])
        names = {o.name for o in scene.objects if o.type == "MESH"}
        if len(names) != archetype.plan.count('"name"'):
            failing.append((archetype.request, names))
        if (checks := structure_checks(archetype.request, scene)) != ({}, []):
            failing.append((archetype.request, checks))
    return failing


def test_every_library_plan_builds_in_blender_and_passes_the_critics_structural_checks(pool, tmp_path) -> None:
    assert build_failures(pool, tmp_path, LIBRARY) == []
