"""4.0 Principled sockets, removed node types, node group interfaces, and render engine ids keyed to the target version."""

from __future__ import annotations

import pytest

from bpywright.rules.pack import BY_ID, rules_for

from .helpers import fired, fixed, healed_in_blender, healed_once, src

pytestmark = pytest.mark.blender

PRINCIPLED = """
import bpy
mat = bpy.data.materials.new("M")
mat.use_nodes = True
bsdf = mat.node_tree.nodes["Principled BSDF"]
bsdf.inputs["Specular"].default_value = 0.5
bsdf.inputs["Clearcoat"].default_value = 0.2
bsdf.inputs.get("Transmission").default_value = 1.0
bsdf.inputs["Subsurface Color"].default_value = (1, 0, 0, 1)
bsdf.inputs["Sheen Tint"].default_value = 0.5
spec = mat.node_tree.nodes.new("ShaderNodeEeveeSpecular")
spec.inputs["Specular"].default_value = (1, 1, 1, 1)
"""


def test_principled_renames_and_removals_from_4_0() -> None:
    assert "principled-sockets" in fired(PRINCIPLED)
    new = fixed(PRINCIPLED)
    assert "inputs['Specular IOR Level']" in new and "inputs['Coat Weight']" in new and "inputs.get('Transmission Weight')" in new
    assert "Subsurface Color" not in new  # a removed input
    tint = "bsdf.inputs['Sheen Tint'].default_value = [1.0 - 0.5 + 0.5 * c for c in bsdf.inputs['Base Color'].default_value[:3]] + [1.0]"
    assert tint in new  # a float tint is the colour 4.0 takes, white mixed toward the base colour
    assert 'spec.inputs["Specular"]' in new  # the EEVEE Specular node still has it


def test_principled_rule_is_keyed_to_4_0() -> None:
    assert "principled-sockets" not in fired(PRINCIPLED, target="3.6")
    assert fixed(PRINCIPLED, target="3.6") == fixed(PRINCIPLED, target="3.6").replace("Specular IOR Level", "")


def test_removed_node_types_and_group_interface() -> None:
    new = fixed("""
    import bpy
    nt = bpy.data.materials.new("M").node_tree
    tex = nt.nodes.new("ShaderNodeTexMusgrave")
    group = bpy.data.node_groups.new("G", 'GeometryNodeTree')
    group.inputs.new('NodeSocketFloat', "Height")
    group.outputs.new(type='NodeSocketGeometry', name="Geometry")
    """)
    assert "nt.nodes.new('ShaderNodeTexNoise')" in new
    assert "group.interface.new_socket(name=\"Height\", in_out='INPUT', socket_type='NodeSocketFloat')" in new
    assert "group.interface.new_socket(name=\"Geometry\", in_out='OUTPUT', socket_type='NodeSocketGeometry')" in new


def test_eevee_engine_id_depends_on_the_target() -> None:
    old = "import bpy\nbpy.context.scene.render.engine = 'BLENDER_EEVEE'\n"
    assert "BLENDER_EEVEE_NEXT" in fixed(old, target="4.2") and "BLENDER_EEVEE_NEXT" in fixed(old, target="4.5")
    assert fixed(old, target="4.1") == old and fixed(old, target="5.0") == old
    back = "import bpy\nbpy.context.scene.render.engine = 'BLENDER_EEVEE_NEXT'\n"
    assert fixed(back, target="5.0") == old and fixed(back, target="4.5") == back
    internal = "import bpy\nbpy.context.scene.render.engine = 'BLENDER_RENDER'\n"
    assert "'BLENDER_EEVEE_NEXT'" in fixed(internal, target="4.5") and "'BLENDER_EEVEE'" in fixed(internal, target="3.6")


def test_version_windows_of_the_pack() -> None:
    assert BY_ID["eevee-next"].applies("4.2") and not BY_ID["eevee-next"].applies("5.0")
    assert BY_ID["auto-smooth"].applies("4.1") and not BY_ID["auto-smooth"].applies("4.0")
    assert "eevee-id-5" in {r.id for r in rules_for("5.0")} and "eevee-id-5" not in {r.id for r in rules_for("4.5")}


def test_principled_get_explains_the_none_error() -> None:
    old = """
    import bpy
    node = find_node()
    node.inputs.get("Specular").default_value = 0.3
    """
    result = healed_once(old, "AttributeError", "'NoneType' object has no attribute 'default_value'", 3)
    assert "inputs.get('Specular IOR Level')" in result.script and result.explained == "principled-sockets"


# A small model's paperclips ended on its own full-resolution render, written to disk: past the time limit.
OWN_RENDER = """
import bpy
scene = bpy.context.scene
scene.render.engine = "CYCLES"
scene.cycles.samples = 4096
scene.render.resolution_x = 3840
scene.render.resolution_y = 2160
scene.render.filepath = "paperclips.png"
if scene.camera is None:
    bpy.ops.render.render(write_still=True)
bpy.ops.render.render(write_still=True)
"""


def test_no_rule_drops_a_scripts_own_render() -> None:
    from bpywright.rules.pack import detect

    assert not [h for h in detect(OWN_RENDER, "4.5") if "render" in h.rule and "engine" not in h.rule]
    assert fixed(OWN_RENDER).count("bpy.ops.render.render(write_still=True)") == 2


def test_on_real_blender_the_own_render_runs_at_validation_size(blender_run) -> None:
    """A 4K, 4096-sample Cycles render the script asks for runs as written, small, in a 6 s limit: nothing is dropped."""
    from .conftest import OPTIONS, WorkerPool

    quick = OPTIONS.model_copy(update={"timeout": 6})
    check = "\nassert scene.cycles.samples == 4096 and scene.render.resolution_percentage == 100\n"
    with WorkerPool(1, quick) as pool:
        report = pool.run(source=OWN_RENDER + check, options=quick)
    assert report.status == "ok", report.exception
    assert report.stderr.count("ran for validation at 76x43 px, at most 4 samples") == 1
    assert "Saved:" in report.stdout and "paperclips.png" in report.stdout


def test_new_socket_takes_keywords_and_settings_go_on_the_socket(blender_run) -> None:
    """A small model's inverters: the socket type by position (where description goes) and min_value as a keyword."""
    old = (
        "import bpy\n"
        "ng = bpy.data.node_groups.new('Scatter', 'GeometryNodeTree')\n"
        "ng.interface.new_socket('Grid Size', 'NodeSocketFloat', description=6.0, min_value=0.1)\n"
        "size = ng.interface.new_socket('Cube Size', 'NodeSocketFloat', 'INPUT', default_value=0.5)\n"
        "ng.interface.new_socket('Geometry', in_out='OUTPUT', socket_type='NodeSocketGeometry')\n"
    )
    assert "new-socket-args" in fired(old)
    new = fixed(old)
    assert "_socket = ng.interface.new_socket(name='Grid Size', in_out='INPUT', socket_type='NodeSocketFloat')\n" in new
    assert "_socket.default_value = 6.0\n_socket.min_value = 0.1\n" in new
    assert (
        "size = ng.interface.new_socket(name='Cube Size', in_out='INPUT', socket_type='NodeSocketFloat')\nsize.default_value = 0.5\n" in new
    )
    assert "ng.interface.new_socket('Geometry', in_out='OUTPUT', socket_type='NodeSocketGeometry')\n" in new  # valid: left alone
    check = "items = ng.interface.items_tree\nassert items['Grid Size'].default_value == 6.0 and abs(items['Grid Size'].min_value - 0.1) < 1e-6\n"
    healed_in_blender(blender_run, old, check=check + "assert items['Cube Size'].default_value == 0.5\n")


def test_a_node_type_blender_lacks_is_found_however_the_script_spells_it() -> None:
    """nodes.new() of a name no 4.5 node has raises "Node type … undefined": found as a literal, through a class of
    node type names and through bpy.types; names nodes.new() still accepts (an alias, a group, a node type a later rule
    renames) are not."""
    from bpywright.rules.sockets import check_node_sockets

    source = src("""
        import bpy
        N = bpy.types
        class Nodes:
            Math = "ShaderNodeMath"
            Ramp = "ShaderNodeValToRGBB"
        tree = bpy.data.node_groups.new("g", "ShaderNodeTree")
        tree.nodes.new("ShaderNodeBsdfGlossy").inputs["Roughness"].default_value = 0.2
        tree.nodes.new("ShaderNodeGroup")
        tree.nodes.new("ShaderNodeTexMusgrave")
        tree.nodes.new(Nodes.Math)
        tree.nodes.new(Nodes.Ramp)
        tree.nodes.new(type=N.ShaderNodeMapRange.bl_rna.identifier)
        tree.nodes.new("ShaderNodeMixx")
        """)
    found = {(d.line, d.severity, d.fix) for d in check_node_sockets(source) if d.code == "node-type"}
    assert found == {(11, "blocking", 'use "ShaderNodeValToRGB"'), (13, "blocking", 'use "ShaderNodeMix"')}
