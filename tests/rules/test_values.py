"""Matrix products (* → @) and colour lengths (RGB → RGBA, from the property's array length at runtime)."""

from __future__ import annotations

from .helpers import fired, fixed, healed_once, src


def test_matrix_vector_products_use_matmul() -> None:
    old = """
    import bpy
    from mathutils import Matrix, Vector
    ob = bpy.data.objects["Cube"]
    world = [ob.matrix_world * v.co for v in ob.data.vertices]
    rot = Matrix.Rotation(0.5, 4, 'Z')
    p = rot * Vector((1, 0, 0))
    q = ob.matrix_world.to_quaternion().inverted() * p
    scaled = ob.scale * 2
    half = 0.5 * ob.matrix_world
    """
    assert "matrix-matmul" in fired(old)
    new = fixed(old)
    assert "ob.matrix_world @ v.co" in new and "rot @ Vector((1, 0, 0))" in new
    assert "ob.matrix_world.to_quaternion().inverted() @ p" in new
    assert "ob.scale * 2" in new and "0.5 * ob.matrix_world" in new  # scalar products stay


def test_unknown_operands_are_fixed_from_the_runtime_error() -> None:
    old = """
    import bpy
    m = get_matrix()
    v = m * get_vector() * 2
    """
    assert "matrix-matmul" not in fired(old)
    result = healed_once(old, "TypeError", "Element-wise multiplication: not supported between 'Matrix' and 'Vector' types", 3)
    assert "v = m @ get_vector() * 2" in result.script


def test_rgb_becomes_rgba_where_the_property_is_sure() -> None:
    new = fixed("""
    import bpy
    mat = bpy.data.materials.new("M")
    mat.diffuse_color = (1, 0, 0)
    obj = bpy.data.objects["Cube"]
    obj.color = [0.2, 0.3, 0.4]
    mat.use_nodes = True
    mat.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (0.1, 0.2, 0.3)
    light = bpy.data.lights.new("L", 'POINT')
    light.color = (1, 1, 1)
    """)
    assert "mat.diffuse_color = (1, 0, 0, 1.0)" in new and "obj.color = [0.2, 0.3, 0.4, 1.0]" in new
    assert 'inputs["Base Color"].default_value = (0.1, 0.2, 0.3, 1.0)' in new
    assert "light.color = (1, 1, 1)" in new  # lights take RGB


def test_colour_length_from_the_error_handles_variables_both_ways() -> None:
    old = """
    import bpy
    rgb = (1.0, 0.5, 0.0)
    node.inputs[0].default_value = rgb
    """
    result = healed_once(old, "ValueError", "bpy_struct: item.attr = val: sequences of dimension 0 should contain 4 items, not 3", 3)
    assert "node.inputs[0].default_value = (*rgb, 1.0)" in result.script
    result = healed_once(
        "import bpy\nlight.color = (1, 1, 1, 1)\n",
        "ValueError",
        "bpy_struct: item.attr = val: sequences of dimension 0 should contain 3 items, not 4",
        2,
    )
    assert "light.color = (1, 1, 1)" in result.script


def test_enum_items_renamed_even_through_variables() -> None:
    old = """
    import bpy
    def lamp(kind):
        return bpy.data.lights.new("L", type=kind)
    lamp('HEMI')
    modifier = bpy.data.objects["Cube"].modifiers.new("S", 'SUBSURFACE')
    """
    msg = "BlendDataLights.new(): error with keyword argument \"type\" -  enum \"HEMI\" not found in ('POINT', 'SUN', 'SPOT', 'AREA')"
    assert "lamp('SUN')" in healed_once(old, "TypeError", msg, 3).script
    msg = "ObjectModifiers.new(): error with argument 2, \"type\" -  enum \"SUBSURFACE\" not found in ('DATA_TRANSFER', 'SUBSURF', 'WAVE')"
    assert "'SUBSURF')" in healed_once(old, "TypeError", msg, 5).script


# What the 1.5B model wrote twice in the generation benchmark: an exemplar's RGB helper, called with RGBA colours.
ALPHA_ON_RGBA = """
import bpy

def make_material(name, color):
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = (*color, 1.0)
    return mat

make_material("Red", (1.0, 0.0, 0.0, 1.0))
make_material("Blue", (0.0, 0.0, 1.0))
"""


def test_an_alpha_appended_to_an_rgba_colour_keeps_three_channels(blender_run) -> None:
    from bpywright.rules.healer import heal

    assert "rgba-length" not in fired(ALPHA_ON_RGBA)  # (*color, 1.0) is right for RGB: only the run can tell
    five = "bpy_struct: item.attr = val: sequences of dimension 0 should contain 4 items, not 5"
    result = healed_once(ALPHA_ON_RGBA, "ValueError", five, 5)
    assert "    mat.diffuse_color = (*color[:3], 1.0)\n" in result.script and [r.rule for r in result.applied] == ["rgba-length"]
    outcome = heal(src(ALPHA_ON_RGBA), run=blender_run, max_rounds=2)
    assert outcome.status_before == "error" and "not 5" in (outcome.failure_before or "")
    assert outcome.healed, outcome.failure_after  # and the RGB call still runs
