"""Matrix products (* → @) and colour lengths (RGB → RGBA, from the property's array length at runtime)."""

from __future__ import annotations

import pytest

from .helpers import fired, fixed, healed_in_blender, healed_once, src


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


def test_a_conditional_value_gets_parentheses_and_never_stops_the_rule() -> None:
    old = """
    import bpy
    node.label = tex.name if tex is not None else "slot"
    mat.diffuse_color = palette[1]
    mat.diffuse_color = dark if night else light
    """
    error = "bpy_struct: item.attr = val: sequences of dimension 0 should contain 4 items, not 3"
    result = healed_once(old, "ValueError", error, 3)
    assert "mat.diffuse_color = (*palette[1], 1.0)" in result.script and "node.label = tex.name if" in result.script
    result = healed_once(old, "ValueError", error, 4)
    assert "mat.diffuse_color = (*(dark if night else light), 1.0)" in result.script


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


# What a small model wrote twice in the generation benchmark: an exemplar's RGB helper, called with RGBA colours.
ALPHA_ON_RGBA = """
import bpy

def make_material(name, color):
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = (*color, 1.0)
    return mat

make_material("Red", (1.0, 0.0, 0.0, 1.0))
make_material("Blue", (0.0, 0.0, 1.0))
"""


@pytest.mark.blender
def test_an_alpha_appended_to_an_rgba_colour_keeps_three_channels(blender_run) -> None:
    assert "rgba-length" not in fired(ALPHA_ON_RGBA)  # (*color, 1.0) is right for RGB: only the run can tell
    five = "bpy_struct: item.attr = val: sequences of dimension 0 should contain 4 items, not 5"
    result = healed_once(ALPHA_ON_RGBA, "ValueError", five, 5)
    assert "    mat.diffuse_color = (*color[:3], 1.0)\n" in result.script and [r.rule for r in result.applied] == ["rgba-length"]
    healed_in_blender(blender_run, src(ALPHA_ON_RGBA), "not 5")  # and the RGB call still runs


# A small model's storage box (one-shot): a solver Blender never had. No spelling is close, so the setting is left out.
MADE_UP_ENUM = """
import bpy
bpy.ops.mesh.primitive_cube_add(size=2.0)
box = bpy.context.object
boolean = box.modifiers.new("Boolean", "BOOLEAN")
boolean.solver = "SIMPLE"
bpy.ops.mesh.primitive_cylinder_add(radius=0.2, end_fill_type="CAPPED", depth=1.0)
light = bpy.data.lights.new("Fill", type="HEMISPHERE")
"""
SOLVER = "bpy_struct: item.attr = val: enum \"SIMPLE\" not found in ('FAST', 'EXACT', 'MANIFOLD')"


def test_a_made_up_enum_item_is_left_at_its_default_on_the_failing_line_only() -> None:
    healed = healed_once(MADE_UP_ENUM, "TypeError", SOLVER, 5)
    assert [r.rule for r in healed.applied] == ["enum-value"] and 'solver = "SIMPLE"' not in healed.script
    assert 'boolean = box.modifiers.new("Boolean", "BOOLEAN")\nbpy.ops.mesh' in healed.script
    elsewhere = healed_once(MADE_UP_ENUM, "TypeError", SOLVER, 4)  # the error points elsewhere: nothing guessed
    assert 'boolean.solver = "SIMPLE"' in elsewhere.script


def test_an_operators_made_up_enum_keyword_is_dropped_but_a_data_apis_type_is_kept() -> None:
    fill = "Converting py args to operator properties: enum \"CAPPED\" not found in ('NOTHING', 'NGON', 'TRIFAN')"
    healed = healed_once(MADE_UP_ENUM, "TypeError", fill, 6)
    assert "bpy.ops.mesh.primitive_cylinder_add(radius=0.2, depth=1.0)" in healed.script
    light = (
        "BlendDataLights.new(): error with keyword argument \"type\" -  enum \"HEMISPHERE\" not found in ('POINT', 'SUN', 'SPOT', 'AREA')"
    )
    assert 'type="HEMISPHERE"' in healed_once(MADE_UP_ENUM, "TypeError", light, 7).script  # required: no default to keep


@pytest.mark.blender
def test_on_real_blender_the_made_up_solver_is_dropped_and_the_modifier_kept(blender_run) -> None:
    script = src(MADE_UP_ENUM.replace('end_fill_type="CAPPED", ', "").replace(', type="HEMISPHERE"', ', type="SUN"'))
    healed_in_blender(blender_run, script, 'enum "SIMPLE" not found', check="assert box.modifiers['Boolean'].solver == 'EXACT'\n")


# A small model's syringe (generation benchmark): the add operator's whole documented signature, scale=(0.0, 0.0, 0.0) included
# (its "not set" default). The script ran and rendered a blank frame: every part was a mesh scaled to a point.
ZERO_SCALE = src("""
import bpy

bpy.ops.mesh.primitive_cylinder_add(vertices=32, radius=1.0, depth=2.0, end_fill_type='NGON', calc_uvs=True, enter_editmode=False, align='WORLD', location=(0.0, 0.0, 0.5), rotation=(0.0, 0.0, 0.0), scale=(0.0, 0.0, 0.0))
body = bpy.context.active_object
bpy.ops.mesh.primitive_cube_add(size=0.4, scale=(0, 0, 0), location=(0.0, 0.0, 1.5))
needle = bpy.context.active_object
""")


def test_an_operators_zero_scale_is_dropped_and_nothing_else() -> None:
    assert "zero-scale" in fired(ZERO_SCALE)
    new = fixed(ZERO_SCALE)
    assert "scale=" not in new
    assert "location=(0.0, 0.0, 0.5), rotation=(0.0, 0.0, 0.0))" in new  # the arguments before it keep their commas
    assert "bpy.ops.mesh.primitive_cube_add(size=0.4, location=(0.0, 0.0, 1.5))" in new
    meant = """
    import bpy
    bpy.ops.mesh.primitive_cube_add(scale=(1.0, 1.0, 0.0))
    bpy.ops.transform.resize(value=(0.0, 0.0, 0.0))
    ob = bpy.context.active_object
    ob.scale = (0.0, 0.0, 0.0)
    grow(scale=(0, 0, 0))
    """
    assert "zero-scale" not in fired(meant)  # a flattening scale, another operator's value, an assignment, not an operator


def test_a_script_that_ran_blank_gets_its_zero_scale_dropped_in_the_heal_step() -> None:
    from bpywright.harness.report import RunReport
    from bpywright.rules.healer import heal_once

    result = heal_once(ZERO_SCALE, RunReport(status="ok", backend="bpy-module", sandbox="rlimits-only"), None, "4.5")
    assert result.changed and [a.rule for a in result.applied] == ["zero-scale"]


@pytest.mark.blender
def test_on_real_blender_the_zero_scale_parts_have_no_size_and_the_fix_gives_them_one(blender_run) -> None:
    check = "assert min(body.dimensions) > 1.9 and min(needle.dimensions) > 0.39, (tuple(body.dimensions), tuple(needle.dimensions))\n"
    before = blender_run(ZERO_SCALE + check)
    assert before.status == "error" and before.exception is not None and before.exception.type == "AssertionError"
    assert "(0.0, 0.0, 0.0)" in before.exception.message
    assert blender_run(fixed(ZERO_SCALE) + check).status == "ok"
    # a size computed from the collapsed mesh fails the run: the rule explains that error and the heal fixes it
    fit = ZERO_SCALE + "needle.scale.z = 0.8 / needle.dimensions.z\n"
    outcome, _ = healed_in_blender(blender_run, fit, "ZeroDivisionError: float division by zero", check=check)
    assert {a.rule for r in outcome.rounds for a in r.applied} == {"zero-scale"}
