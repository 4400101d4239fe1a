"""validate_and_add with real Blender: a script that runs ok enters the store, a broken one comes back as its report."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.exemplars.store import AddResult, ExemplarStore
from bpywright.exemplars.validate import validate_and_add
from bpywright.harness.pool import WorkerPool
from bpywright.harness.report import RunReport

pytestmark = pytest.mark.blender

GOOD = "import bpy\nbpy.ops.mesh.primitive_cone_add(vertices=7)\nbpy.context.object.modifiers.new('bevel', 'BEVEL')\n"
BROKEN = "import bpy\nbpy.ops.mesh.primitive_cone_add(vertices=7)\nbpy.context.object.modifiers.new('bevel', 'NO_SUCH_MODIFIER')\n"


def test_only_scripts_that_run_ok_enter(store: ExemplarStore, render_pool: WorkerPool, tmp_path: Path) -> None:
    seen: list[tuple[str, object]] = []
    outcomes = validate_and_add(
        store,
        render_pool,
        [("a bevelled cone", GOOD), ("a broken cone", BROKEN)],
        source="user",
        render_dir=tmp_path / "renders",
        on_done=lambda p, o: seen.append((p, o)),
        resolution=64,
    )
    good, broken = outcomes
    assert isinstance(good, AddResult) and good.created
    exemplar = store.get(good.exemplar.id)
    assert exemplar is not None and exemplar.status == "ok" and exemplar.source == "user" and exemplar.blender_version == "4.5"
    assert exemplar.report is not None and exemplar.report.lint is not None  # linted before it ran
    assert exemplar.report.render is not None and exemplar.report.render.width == 64
    assert store.file(exemplar.render_path or "").is_file() and exemplar.hashes
    assert "bpy.ops.mesh.primitive_cone_add" in exemplar.symbols and "bpy.context.object.modifiers.new" in exemplar.symbols
    assert isinstance(broken, RunReport) and broken.status == "error" and broken.exception is not None
    assert store.status().count == 1 and len(seen) == 2
    assert not list((tmp_path / "renders").iterdir())  # the store keeps its own copy

    again = validate_and_add(store, render_pool, [("a bevelled cone", GOOD)], source="user", render_dir=tmp_path / "renders", lint=False)
    assert isinstance(again[0], AddResult) and not again[0].created and again[0].exemplar.id == good.exemplar.id
