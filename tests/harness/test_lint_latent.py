"""A script that runs is never blocked: a name undefined only where it is caught or looked up first (a seed its harness
may set), a branch for when the script is imported, a bpy.app.version conditional picking an enum value, and 'FLOAT' on
a Mesh Boolean node reached through a modifier are advisory and say why; each shape runs on real Blender 4.5, and the
same name or solver where it would raise still blocks."""

from __future__ import annotations

import textwrap

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool

pytestmark = pytest.mark.blender

RUNS = textwrap.dedent("""
    import bpy
    import random

    try:
        seed = SEED
    except NameError:
        seed = 0
    random.seed(seed)
    if "JITTER" in globals():
        random.seed(JITTER)
    if __name__ != "__main__":
        register_from_elsewhere()

    mesh = bpy.data.meshes.new("m")
    ob = bpy.data.objects.new("o", mesh)
    bpy.context.scene.collection.objects.link(ob)
    gn = ob.modifiers.new("n", "NODES")
    gn.node_group = bpy.data.node_groups.new("g", "GeometryNodeTree")
    gn.node_group.nodes.new("GeometryNodeMeshBoolean")
    ob.modifiers["n"].node_group.nodes["Mesh Boolean"].solver = "FLOAT"
    cut = ob.modifiers.new("b", "BOOLEAN")
    cut.solver = "FAST" if bpy.app.version < (5, 0) else "FLOAT"
    """).lstrip()
RAISES = textwrap.dedent("""
    import bpy
    random_seed = SEED
    cut = bpy.data.objects["Cube"].modifiers.new("b", "BOOLEAN")
    cut.solver = "FLOAT"
    """).lstrip()


@pytest.fixture(scope="module")
def linter(warm_linter):
    return warm_linter


def test_a_script_that_runs_is_not_blocked_and_each_advisory_says_why(linter) -> None:
    options = RunOptions(render=False, timeout=30)
    with WorkerPool(1, options) as pool:
        assert pool.run(source=RUNS, options=options).status == "ok"
        assert pool.run(source=RAISES, options=options).status == "error"
    report = linter.lint(RUNS)
    assert all(t.status == "ok" for t in report.tools), report.tools
    assert not report.blocking, [(d.line, d.message) for d in report.blocking]
    by_line = {d.line: d.message for d in report.diagnostics}
    assert "a latent undefined name, never raised: inside try/except NameError" in by_line[5]
    assert "a latent undefined name, never raised: inside a check that JITTER exists" in by_line[10]
    assert "a branch for when the script is imported, not run" in by_line[12]
    assert "a bpy.app.version test picks the value" in by_line[22]
    assert not any(d.code == "boolean-solver-fast" for d in report.diagnostics)  # a node's solver, reached via a modifier


def test_the_same_name_and_solver_where_they_raise_still_block(linter) -> None:
    blocking = {(d.line, d.code) for d in linter.lint(RAISES).blocking}
    assert any(line == 2 for line, _ in blocking) and (4, "boolean-solver-fast") in blocking
