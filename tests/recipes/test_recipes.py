"""Every bundled recipe passes the harness with a non-blank render (through the warm pool)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.recipes import all_recipes

pytestmark = pytest.mark.blender


def test_at_least_twelve_recipes_with_prompts() -> None:
    recipes = all_recipes()
    assert len(recipes) >= 12
    for recipe in recipes:
        assert recipe.prompt != recipe.name and len(recipe.prompt.split()) >= 3, recipe.path


def test_all_recipes_pass_with_nonblank_render(tmp_path: Path) -> None:
    recipes = all_recipes()
    with WorkerPool(2, RunOptions(resolution=128)) as pool:
        reports = pool.map([r.path for r in recipes], render_dir=tmp_path)
    failures = {r.name: (rep.status, rep.exception) for r, rep in zip(recipes, reports) if not rep.ok}
    assert not failures
    for recipe, report in zip(recipes, reports):
        assert report.scene.object_count >= 2, recipe.name
        assert report.render is not None and report.render.nonblank_fraction >= 0.05, recipe.name


@pytest.mark.runtimes
def test_recipes_pass_on_5_2_or_declare_that_they_do_not(runtime, tmp_path: Path) -> None:
    """On the 5.2 LTS runtime every recipe that claims 5.2 passes with a render; one that declares otherwise really fails there."""
    runtime52 = runtime("5.2")
    recipes = all_recipes()
    with WorkerPool(2, runtime52.run_options(RunOptions(resolution=128))) as pool:
        reports = pool.map([r.path for r in recipes], render_dir=tmp_path)
    for recipe, report in zip(recipes, reports):
        assert report.blender_version.startswith("5.2")
        if recipe.supports("5.2"):
            assert report.ok and report.render is not None and report.render.nonblank_fraction >= 0.05, (recipe.name, report.exception)
        else:
            assert not report.ok, f"{recipe.name} declares {recipe.blender!r} but runs on 5.2: widen its BLENDER bounds"
    assert [r.name for r in recipes if not r.supports("5.2")] == ["geometry_nodes_scatter"]


def test_version_declarations_are_read_without_running_the_script() -> None:
    from bpywright.recipes import versions_match

    by_name = {r.name: r for r in all_recipes()}
    assert by_name["bouncing_ball"].blender == ">=4.4" and not by_name["bouncing_ball"].supports("4.2")
    assert by_name["geometry_nodes_scatter"].supports("5.0.1") and not by_name["geometry_nodes_scatter"].supports("5.2.3 LTS")
    assert {r.name for r in all_recipes("4.5")} == set(by_name)
    assert versions_match(">=4.2, <5.2", "5.1") and not versions_match(">=4.2,<5.2", "4.1")
    for bad in ("~=4.2", ">=4", "import os"):
        try:
            versions_match(bad, "4.5")
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")
