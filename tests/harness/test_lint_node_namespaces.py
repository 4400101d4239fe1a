"""Node types reached through a namespace never block a script that runs: a class holding node type names (filled in
its body, after it, or by setattr in a loop), a name bound to that class (`NW = Nodes`), and a bpy.types class's
`bl_rna.identifier` are advisory and say why; each shape runs on real Blender 4.5. A node type name that Blender does
not have, spelt through the same namespaces or as a literal, still blocks, with the close name to use."""

from __future__ import annotations

import textwrap

import pytest

from bpywright.harness.lint import Linter
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.rules import rule_pack

pytestmark = pytest.mark.blender

RUNS = textwrap.dedent("""
    import bpy
    from bpy import types as T

    N = bpy.types


    class Nodes:
        GroupInput = "NodeGroupInput"
        GroupOutput = "NodeGroupOutput"


    Nodes.SetPosition = "GeometryNodeSetPosition"
    for _name in ("ShaderNodeMath", "GeometryNodeJoinGeometry"):
        setattr(Nodes, _name.split("Node", 1)[1], _name)
    NW = Nodes


    def build():
        tree = bpy.data.node_groups.new("g", "GeometryNodeTree")
        tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
        tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
        gi = tree.nodes.new(NW.GroupInput)
        go = tree.nodes.new(Nodes.GroupOutput)
        sp = tree.nodes.new(NW.SetPosition)
        m = tree.nodes.new(type=Nodes.Math)
        j = tree.nodes.new(NW.JoinGeometry)
        x = tree.nodes.new(N.GeometryNodeSetPosition.bl_rna.identifier)
        y = tree.nodes.new(T.ShaderNodeMath.bl_rna.identifier)
        m.operation = "MULTIPLY"
        y.operation = "ADD"
        sp.inputs["Offset"].default_value = (0, 0, 1)
        x.inputs["Offset"].default_value = (0, 0, 2)
        tree.links.new(gi.outputs[0], sp.inputs["Geometry"])
        tree.links.new(sp.outputs["Geometry"], x.inputs["Geometry"])
        tree.links.new(x.outputs["Geometry"], j.inputs[0])
        tree.links.new(j.outputs[0], go.inputs[0])
        return tree


    build()
    """).lstrip()
RAISES = textwrap.dedent("""
    import bpy

    N = bpy.types


    class Nodes:
        GroupInput = "NodeGroupInput"
        SetPosition = "GeometryNodeSetPositon"


    NW = Nodes
    NW.Math = "ShaderNodeMath"
    tree = bpy.data.node_groups.new("g", "GeometryNodeTree")
    gi = tree.nodes.new(Nodes.GroupInput)
    m = tree.nodes.new(type=NW.Math)
    m.inputs["Valuee"].default_value = 1.0
    sp = tree.nodes.new(NW.SetPosition)
    """).lstrip()
RAISES_LITERAL = 'import bpy\ntree = bpy.data.node_groups.new("g", "ShaderNodeTree")\ntree.nodes.new("ShaderNodeMathh")\n'
RAISES_BPY_TYPES = textwrap.dedent("""
    import bpy
    N = bpy.types
    tree = bpy.data.node_groups.new("g", "ShaderNodeTree")
    tree.nodes.new(N.ShaderNodeMathh.bl_idname)
    """).lstrip()


@pytest.fixture(scope="module")
def linter():
    with Linter(rules=rule_pack("4.5")) as warm:
        yield warm


def test_node_types_through_a_namespace_do_not_block_a_script_that_runs(linter) -> None:
    options = RunOptions(render=False, timeout=30)
    with WorkerPool(1, options) as pool:
        assert pool.run(source=RUNS, options=options).status == "ok"
        for broken in (RAISES, RAISES_LITERAL, RAISES_BPY_TYPES):
            assert pool.run(source=broken, options=options).status == "error"
    report = linter.lint(RUNS)
    assert all(t.status == "ok" for t in report.tools), report.tools
    assert not report.blocking, [(d.line, d.message) for d in report.blocking]
    by_line: dict[int, list[str]] = {}
    for d in report.diagnostics:
        by_line.setdefault(d.line, []).append(d.message)
    assert any("stands for the script's own class Nodes" in m for m in by_line[24])  # NW.SetPosition, set after the class
    assert any("stands for the script's own class Nodes" in m for m in by_line[26])  # NW.JoinGeometry, set by setattr
    assert any("bl_rna is the class's RNA definition" in m for m in by_line[27])


def test_a_node_type_blender_does_not_have_still_blocks(linter) -> None:
    blocking = {(d.line, d.code): d for d in linter.lint(RAISES).blocking}
    assert set(blocking) == {(16, "node-socket"), (17, "node-type")}, sorted(blocking)
    assert blocking[(17, "node-type")].fix == 'use "GeometryNodeSetPosition"'
    literal = [d for d in linter.lint(RAISES_LITERAL).blocking if d.code == "node-type"]
    assert literal and literal[0].fix == 'use "ShaderNodeMath"'
    assert any(d.code == "node-type" for d in linter.lint(RAISES_BPY_TYPES).blocking)
