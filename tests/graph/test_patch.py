"""Merging a reply that holds only corrected definitions (a small model's "here is the fixed function") into the script."""

from __future__ import annotations

from bpywright.graph.repair.patch import merge_fragment

from .samples import src

SCRIPT = src("""
import bpy

def make_material(name, color):
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = color
    return mat


red = make_material("Red", (1, 0, 0))
bpy.ops.mesh.primitive_cube_add()
bpy.context.active_object.data.materials.append(red)
""")


def test_an_indented_corrected_function_replaces_its_namesake() -> None:
    reply = "    def make_material(name, color):\n        mat = bpy.data.materials.new(name)\n        mat.diffuse_color = (*color, 1.0)\n        return mat\n"
    merged = merge_fragment(SCRIPT, reply)
    assert merged is not None and merged.count("def make_material") == 1
    assert "mat.diffuse_color = (*color, 1.0)" in merged and "mat.diffuse_color = color\n" not in merged
    assert merged.endswith("bpy.context.active_object.data.materials.append(red)\n")
    compile(merged, "merged.py", "exec")


def test_a_new_function_and_import_go_after_the_imports() -> None:
    reply = "import math\n\ndef tilt(obj):\n    obj.rotation_euler.x = math.radians(30)\n"
    merged = merge_fragment(SCRIPT, reply)
    assert merged is not None
    assert merged.index("import bpy") < merged.index("import math") < merged.index("def tilt") < merged.index("def make_material")
    compile(merged, "merged.py", "exec")


def test_a_whole_script_or_code_that_does_not_parse_is_not_a_fragment() -> None:
    assert merge_fragment(SCRIPT, SCRIPT.replace("Red", "Blue")) is None  # top-level statements: a full replacement
    assert merge_fragment(SCRIPT, "def f(:\n    pass\n") is None
    only_defs = "import bpy\n\ndef main():\n    pass\n"
    assert merge_fragment(only_defs, "def main():\n    print(1)\n") is None  # the script is definitions only: ambiguous
