"""Stub truth measured in Blender (typings/overlays/generate.py): numpy values for vector properties, mathutils
operators, the node behind `nodes.new(<str variable>)`; and the wrong types those overlays still reject block."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from bpywright.harness.checkers import classify_pyright

OVERLAYS = Path(__file__).resolve().parents[2] / "typings" / "overlays"
VERSIONS = ("4.2", "4.5", "5.0", "5.2")

CASES = {
    "numpy_values": """
        import bpy
        import numpy as np
        obj = bpy.data.objects["Cube"]
        obj.location = np.array([1.0, 2.0, 3.0])
        obj.data.vertices[0].co = np.zeros(3)
        obj.rotation_euler = np.radians([0.0, 0.0, 45.0])
        obj.scale = (np.float32(1.0), 2.0, np.float64(3.0))
        obj.matrix_world = np.eye(4)
        obj.rotation_quaternion = np.array([1.0, 0.0, 0.0, 0.0], dtype=np.float32)
        bpy.data.worlds["World"].color = np.ones(3)
        obj.data.vertices.foreach_set("co", np.zeros(3 * len(obj.data.vertices)))
        obj.location.x += 1.0
        print(obj.location.length)
    """,
    "wrong_types": """
        import bpy
        obj = bpy.data.objects["Cube"]
        obj.location = "0, 0, 1"
        obj.scale = 2.0
        light = bpy.data.lights.new("L", "POINT")
        light.energy = "bright"
        obj.location = (1.0, "2", 3.0)
        class Holder:
            size: float = 1.0
        h = Holder()
        h.size = "big"
    """,
    "mathutils_operators": """
        import bpy
        import numpy as np
        from mathutils import Matrix, Quaternion, Vector
        obj = bpy.data.objects["Cube"]
        a = obj.location - Vector((0.0, 0.0, 1.0))
        print(a.length, a.normalized().x, (obj.matrix_world @ a).normalized())
        print((Matrix.Identity(3) @ a).length, (Quaternion() @ a).z, (a * np.float32(2.0)).y, (2 * a).xy)
        print((a @ a) + 1.0, a.lenght)
    """,
    "node_from_str_variable": """
        import bpy
        def add(tree: bpy.types.ShaderNodeTree, kind: str):
            node = tree.nodes.new(kind)
            node.color_ramp.elements[0].position = 0.2
            node.colour_ramp = None
            return node
        mat = bpy.data.materials.new("M")
        mat.use_nodes = True
        add(mat.node_tree, "ShaderNodeValToRGB")
        for node in mat.node_tree.nodes:
            node.distribution = "MULTI_GGX"
        mat.node_tree.nodes["Principled BSDF"].inputs["Roughness"].default_value = 0.3
    """,
}


def _src(name: str) -> str:
    return textwrap.dedent(CASES[name]).lstrip()


@pytest.fixture(scope="module")
def reports(warm_linter):
    return {name: warm_linter.lint(_src(name)) for name in CASES}


def _checker_lines(report) -> set[int]:
    return {d.line for d in report.diagnostics if d.tool in ("pyright", "mypy") and not re.search(r'"None"|None\b', d.message)}


def test_checkers_ran(reports) -> None:
    for name, report in reports.items():
        assert all(t.status == "ok" for t in report.tools), (name, report.tools)


def test_numpy_values_for_vector_properties_lint_clean(reports) -> None:
    report = reports["numpy_values"]
    assert report.blocking == [], report.blocking
    assert _checker_lines(report) == set(), report.diagnostics  # no finding at all: the stubs take them


def test_wrong_types_for_properties_block(reports) -> None:
    report = reports["wrong_types"]
    blocking = {d.line for d in report.blocking}
    assert {3, 4, 6} <= blocking, report.diagnostics  # a str or a number for a vector, a str for a float
    assert 7 not in blocking  # a sequence holding a str: not proved from the types alone
    assert 11 not in blocking  # the script's own class: Python does not check it
    assert any(d.line == 11 and "own class" in d.message for d in report.diagnostics), report.diagnostics


def test_mathutils_operator_results(reports) -> None:
    report = reports["mathutils_operators"]
    assert {d.line for d in report.blocking} == {8}, report.diagnostics
    assert "lenght" in report.blocking[0].message
    assert _checker_lines(report) == {8}, report.diagnostics


def test_node_behind_a_str_type_is_any_node(reports) -> None:
    report = reports["node_from_str_variable"]
    assert {d.line for d in report.blocking} == {5}, report.diagnostics  # on no node class
    assert "colour_ramp" in report.blocking[0].message
    assert _checker_lines(report) == {5}, report.diagnostics  # color_ramp, distribution: some node has them


@pytest.mark.parametrize("version", VERSIONS)
def test_generated_overlays_per_version(version: str) -> None:
    mathutils = (OVERLAYS / version / "mathutils-stubs" / "__init__.generated.pyi").read_text(encoding="utf-8")
    for cls in ("Vector", "Matrix", "Euler", "Quaternion", "Color"):
        body = mathutils.split(f"class {cls}:", 1)[1].split("\nclass ", 1)[0]
        assert "def __set__(" in body and "npt.NDArray" in body, cls
    assert "def __matmul__(self, other: Vector) -> float" in mathutils  # the dot product
    types = (OVERLAYS / version / "bpy-stubs" / "types" / "__init__.generated.pyi").read_text(encoding="utf-8")
    assert "class _AnyNode(" in types and "def new(self, type: str) -> _AnyNode" in types


@pytest.mark.parametrize(
    ("message", "severity"),
    [
        (
            'Cannot assign to attribute "location" for class "Object"\n  Type "Literal[\'a\']" is not assignable to type "Sequence[SupportsFloat] | NDArray[Any] | Vector"',
            "blocking",
        ),
        (
            'Cannot assign to attribute "scale" for class "Object"\n  Argument of type "float" cannot be assigned to parameter "value" of type "Sequence[SupportsFloat] | NDArray[Any] | Vector" in function "__set__"',
            "blocking",
        ),
        ('Cannot assign to attribute "energy" for class "PointLight"\n  Type "str" is not assignable to type "float"', "blocking"),
        ('Cannot assign to attribute "energy" for class "PointLight" "Literal[\'hot\']" is not assignable to "float"', "blocking"),
        ('Cannot assign to attribute "energy" for class "PointLight" "floating[_32Bit]" is not assignable to "float"', "advisory"),
        (
            'Cannot assign to attribute "location" for class "Object"\n  Type "tuple[float, str]" is not assignable to type "Sequence[SupportsFloat] | Vector"',
            "advisory",
        ),
        ('Cannot assign to attribute "name" for class "Object"\n  Type "Literal[5]" is not assignable to type "str"', "advisory"),
    ],
)
def test_wrong_type_classification(message: str, severity: str) -> None:
    assert classify_pyright("reportAttributeAccessIssue", message) == severity
