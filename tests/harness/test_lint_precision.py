"""Blocking means "would raise if the line runs": each category of the precision work, with the real ruff/mypy/pyright."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bpywright.harness.severity import attribute_subject, receiver_class

pytestmark = pytest.mark.blender

CASES = {
    "numpy_assignment": """
        import bpy
        import numpy as np
        obj = bpy.data.objects["Cube"]
        obj.location = np.array([1.0, 2.0, 3.0])
        obj.data.vertices[0].co = np.zeros(3)
    """,
    "bad_enum_literal": """
        import bpy
        bpy.ops.object.mode_set(mode="EDITING")
    """,
    "bad_enum_assignment": """
        import bpy
        obj = bpy.data.objects["Cube"]
        mod = obj.modifiers.new("b", "BOOLEAN")
        mod.operation = "SUBTRACT"
        op = "UNION"
        mod.operation = op
    """,
    "str_variable_enum": """
        import bpy
        def switch(mode: str) -> None:
            bpy.ops.object.mode_set(mode=mode)
        switch("EDIT")
    """,
    "hasattr_drift": """
        import bpy
        mesh = bpy.data.meshes.new("m")
        if hasattr(mesh, "use_auto_smooth"):
            mesh.use_auto_smooth = True
        try:
            mesh.auto_smooth_angle = 0.5
        except AttributeError:
            pass
    """,
    "version_branch": """
        import bpy
        mat = bpy.data.materials.new("M")
        mat.use_nodes = True
        bsdf = mat.node_tree.nodes.new("ShaderNodeBsdfPrincipled")
        if bpy.app.version < (4, 0, 0):
            bsdf.inputs["Specular"].default_value = 0.5
        else:
            bsdf.inputs["Specular IOR Level"].default_value = 0.5
        if bpy.app.version >= (4, 0, 0):
            bsdf.inputs["Specular"].default_value = 0.5
    """,
    "unreachable_undefined": """
        import bpy
        if False:
            print(not_defined_anywhere)
        print(also_not_defined)
    """,
    "uncalled_helper": """
        import bpy
        def old_helper(tree):
            return tree.nodes.new("ShaderNodeTexMusgrave")
        def used_helper(tree):
            return tree.nodes.new("ShaderNodeTexMusgrave")
        used_helper(bpy.data.node_groups.new("g", "ShaderNodeTree"))
    """,
    "node_base_class": """
        import bpy
        tree = bpy.data.node_groups.new("g", "ShaderNodeTree")
        for link in tree.links:  # a node reached through the base Node (tree.nodes yields _AnyNode: stub truth)
            link.from_node.color_ramp.interpolation = "EASE"
            link.from_node.colour_ramp = None
    """,
    "own_classes_and_registrations": """
        import bpy
        class Helper:
            pass
        h = Helper()
        h.create_asset()
        class SimpleOperator(bpy.types.Operator):
            bl_idname = "object.simple_operator"
            bl_label = "Simple"
        bpy.types.Scene.my_props = bpy.props.IntProperty()
        bpy.context.scene.my_props = 3
        bpy.ops.object.simple_operator()
        bpy.ops.object.simple_operatr()
    """,
    "helper_results": """
        import bpy
        def io_node(tree, kind):
            if kind == "out":
                return tree.nodes.new("NodeGroupOutput")
            return tree.nodes.new("FunctionNodeInputInt")
        tree = bpy.data.node_groups.new("g", "GeometryNodeTree")
        value = io_node(tree, "int")
        value.integer = 3
        value.integr = 3
    """,
    "measured_stub_truth": """
        import bpy
        from scipy.interpolate import interp1d
        tree = bpy.data.node_groups.new("g", "GeometryNodeTree")
        proximity = tree.nodes.new("GeometryNodeProximity")
        proximity.inputs["Target"].hide = False
        proximity.inputs["Source Position"].hide = False
        proximity.inputs["Sample Positon"].hide = False
        curve = bpy.data.curves.new("c", "CURVE")
        curve.dimensions = "2D"
        curve.fill_mode = "BOTH"
        curve.fill_mode = "BOTTOM"
        f = interp1d([0.0, 1.0], [0.0, 1.0], fill_value="extrapolate", bounds_error=False)
    """,
    "mathutils_results": """
        import bpy
        from mathutils import Vector
        v = Vector((1.0, 0.0, 0.0)).cross(Vector((0.0, 1.0, 0.0)))
        print(v.length, v.normalized())
        print(v.lenght)
    """,
}


def _src(name: str) -> str:
    return textwrap.dedent(CASES[name]).lstrip()


@pytest.fixture(scope="module")
def linter(warm_linter):
    return warm_linter  # the session's warm pyright server and dmypy for every case


@pytest.fixture(scope="module")
def reports(linter):
    return {name: linter.lint(_src(name)) for name in CASES}


def _blocking_lines(report) -> set[int]:
    return {d.line for d in report.blocking}


def _at(report, line: int):
    return [d for d in report.diagnostics if d.line == line and d.tool != "ruff"]


def test_checkers_ran(reports) -> None:
    for name, report in reports.items():
        assert all(t.status == "ok" for t in report.tools), (name, report.tools)


def test_numpy_assignment_is_stub_truth(reports) -> None:
    report = reports["numpy_assignment"]
    assert _blocking_lines(report) == set()
    # the measured overlays take numpy arrays for vector properties: no finding at all (tests/harness/test_lint_overlays.py)
    assert not any("ndarray" in d.message or "NDArray" in d.message for line in (4, 5) for d in _at(report, line)), report.diagnostics


def test_bad_enum_literal_blocks(reports) -> None:
    report = reports["bad_enum_literal"]
    assert _blocking_lines(report) == {2}
    assert "EDITING" in report.blocking[0].message


def test_bad_enum_literal_assigned_to_an_attribute_blocks(reports) -> None:
    report = reports["bad_enum_assignment"]
    assert _blocking_lines(report) == {4}, report.diagnostics
    assert "SUBTRACT" in report.blocking[0].message


def test_str_variable_for_enum_is_advisory(reports) -> None:
    report = reports["str_variable_enum"]
    assert report.ok, report.blocking
    assert any(d.severity == "advisory" for d in _at(report, 3))


def test_drift_inside_hasattr_and_try_is_advisory(reports) -> None:
    report = reports["hasattr_drift"]
    assert report.ok, report.blocking
    advisories = {d.line: d for d in report.diagnostics if d.severity == "advisory" and d.tool != "ruff"}
    assert 4 in advisories and 6 in advisories, report.diagnostics
    assert "hasattr" in advisories[4].message and "try/except" in advisories[6].message


def test_version_branches_judged_for_the_target(reports) -> None:
    report = reports["version_branch"]
    # the < 4.0 branch never runs on 4.5; the >= 4.0 branch does, and "Specular" fails there
    assert _blocking_lines(report) == {10}, report.diagnostics
    old = [d for d in report.diagnostics if d.line == 6]
    assert old and all(d.severity == "advisory" for d in old)
    assert any(d.tool == "rules" and "does not run on Blender 4.5" in d.message for d in old), old


def test_undefined_names_block_only_where_the_path_runs(reports) -> None:
    report = reports["unreachable_undefined"]
    assert _blocking_lines(report) == {4}, report.diagnostics
    dead = [d for d in report.diagnostics if d.line == 3]
    assert dead and all(d.severity == "advisory" and "never runs" in d.message and "if False" in d.message for d in dead)
    assert all("never runs" not in d.message for d in report.blocking)


def test_a_helpers_result_typed_from_one_of_its_returns_is_advisory(reports) -> None:
    report = reports["helper_results"]
    assert _blocking_lines(report) == {9}, report.diagnostics  # integr: no node has it
    assert any("io_node()" in d.message and d.severity == "advisory" for d in _at(report, 8)), _at(report, 8)


def test_measured_stub_truth_socket_identifiers_fill_modes_and_library_literals(reports) -> None:
    """Blender matches socket identifiers ("Target" is the socket named "Geometry"); 2D curves take 'BOTH'; scipy's
    fill_value="extrapolate" is not a bpy enum. A socket or fill mode Blender lacks still blocks."""
    report = reports["measured_stub_truth"]
    assert _blocking_lines(report) == {7, 11}, report.diagnostics


def test_findings_in_a_helper_nothing_calls_are_advisory(reports) -> None:
    report = reports["uncalled_helper"]
    assert _blocking_lines(report) == {5}, report.diagnostics
    dead = [d for d in report.diagnostics if d.line == 3 and d.tool == "rules"]
    assert dead and all(d.severity == "advisory" and "old_helper" in d.message for d in dead)


def test_attribute_through_node_base_is_advisory_unless_no_subclass_has_it(reports) -> None:
    report = reports["node_base_class"]
    assert _blocking_lines(report) == {5}, report.diagnostics
    assert any("colour_ramp" in d.message for d in report.blocking)
    assert any("subclass" in d.message for d in _at(report, 4))


def test_own_classes_registered_props_and_operators(reports) -> None:
    report = reports["own_classes_and_registrations"]
    assert _blocking_lines(report) == {12}, report.diagnostics
    assert "simple_operatr" in report.blocking[0].message


def test_mathutils_results(reports) -> None:
    report = reports["mathutils_results"]
    assert _blocking_lines(report) == {5}, report.diagnostics
    assert "lenght" in report.blocking[0].message


@pytest.mark.parametrize(
    ("message", "subject"),
    [
        ('Cannot access attribute "color_ramp" for class "Node" Attribute "color_ramp" is unknown', ("color_ramp", "Node", None)),
        ('Cannot assign to attribute "p" for class "type[Scene]" Attribute "p" is unknown', ("p", "type[Scene]", None)),
        ('"simple_op" is not a known attribute of module "..object"', ("simple_op", None, "..object")),
        ('Item "float" of "float | Vector" has no attribute "length"', ("length", "float", None)),
        ('"Node" has no attribute "color_ramp"', ("color_ramp", "Node", None)),
        ('Scene has no property "overlap_run_id" in Blender 4.5 (removed)', ("overlap_run_id", "Scene", None)),
        ('Argument of type "str" cannot be assigned to parameter', None),
    ],
)
def test_attribute_subject(message, subject) -> None:
    assert attribute_subject(message) == subject


def test_receiver_class() -> None:
    assert receiver_class("type[Scene]") == "Scene"
    assert receiver_class("GNCSV_OT_export*") == "GNCSV_OT_export"
    assert receiver_class("tuple[Unknown, ...]") == "tuple"


GENERATOR = Path(__file__).parent / "scripts" / "procedural_generator.py"


def test_procedural_generator_runs_with_no_blocking_finding(pool, linter) -> None:
    source = GENERATOR.read_text(encoding="utf-8") + "if False:\n    debug_dump(obj)\n"
    dead_line = len(source.splitlines())
    report = linter.lint(source)
    assert all(t.status == "ok" for t in report.tools), report.tools
    assert not report.blocking, [(d.line, d.message) for d in report.blocking]
    assert any(d.line == dead_line and "never runs" in d.message for d in report.diagnostics)
    run = pool.run(source=source)
    assert run.status == "ok", run.exception
