"""Every bundled recipe passes the harness with a non-blank render (through the warm pool)."""

from __future__ import annotations

from pathlib import Path

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.recipes import all_recipes


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
