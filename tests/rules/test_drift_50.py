"""5.x drift rules, confirmed on the real runtimes: the old form fails on the version the rule targets, the fix passes there."""

from __future__ import annotations

import textwrap

import pytest

from bpywright.harness.pool import WorkerPool
from bpywright.rules.pack import BY_ID, detect, fix_all, rules_for

pytestmark = pytest.mark.blender

# rule id → (target version, a script whose old form fails there)
FORWARD = {
    "cycles-object-flags": """
        import bpy
        bpy.ops.mesh.primitive_plane_add()
        floor = bpy.context.object
        floor.cycles.is_shadow_catcher = True
        floor.cycles.is_holdout = False
    """,
    "grease-pencil-v3-data": """
        import bpy
        gp = bpy.data.grease_pencils_v3.new("Sketch")
        bpy.context.scene.collection.objects.link(bpy.data.objects.new("Sketch", gp))
    """,
    "vse-strips": """
        import bpy
        scene = bpy.context.scene
        scene.sequence_editor_create()
        print(len(scene.sequence_editor.sequences), len(scene.sequence_editor.sequences_all))
    """,
    "boolean-solver-float": """
        import bpy
        bpy.ops.mesh.primitive_cube_add()
        cut = bpy.context.object.modifiers.new("Cut", "BOOLEAN")
        cut.solver = 'FAST'
    """,
    "legacy-color-nodes": """
        import bpy
        mat = bpy.data.materials.new("M")
        mat.use_nodes = True
        nodes, links = mat.node_tree.nodes, mat.node_tree.links
        split = nodes.new('ShaderNodeSeparateHSV')
        join = nodes.new("ShaderNodeCombineRGB")
        links.new(split.outputs['H'], join.inputs['R'])
        links.new(join.outputs['Image'], nodes["Principled BSDF"].inputs["Base Color"])
    """,
    "action-fcurves": """
        import bpy
        bpy.ops.mesh.primitive_cube_add()
        cube = bpy.context.object
        cube.keyframe_insert("location", frame=1)
        cube.location.x = 2
        cube.keyframe_insert("location", frame=20)
        for curve in cube.animation_data.action.fcurves:
            for point in curve.keyframe_points:
                point.interpolation = 'LINEAR'
    """,
    "gn-modifier-inputs": """
        import bpy
        group = bpy.data.node_groups.new("Scatter", "GeometryNodeTree")
        size = group.interface.new_socket(name="Size", in_out="INPUT", socket_type="NodeSocketFloat")
        group.interface.new_socket(name="Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
        host = bpy.data.objects.new("Host", bpy.data.meshes.new("Host"))
        bpy.context.scene.collection.objects.link(host)
        modifier = host.modifiers.new("Scatter", "NODES")
        modifier.node_group = group
        modifier[size.identifier] = 0.4
    """,
    "python-313-modules": """
        import imp
        import json
        import bpy
        imp.reload(json)
    """,
}
BACKWARD = {  # a 5.x script on the bundled 4.5
    "boolean-solver-fast": """
        import bpy
        bpy.ops.mesh.primitive_cube_add()
        cut = bpy.context.object.modifiers.new("Cut", "BOOLEAN")
        cut.solver = "FLOAT"
    """,
    "gn-modifier-idprops": """
        import bpy
        group = bpy.data.node_groups.new("Scatter", "GeometryNodeTree")
        size = group.interface.new_socket(name="Size", in_out="INPUT", socket_type="NodeSocketFloat")
        group.interface.new_socket(name="Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
        host = bpy.data.objects.new("Host", bpy.data.meshes.new("Host"))
        bpy.context.scene.collection.objects.link(host)
        modifier = host.modifiers.new("Scatter", type="NODES")
        modifier.node_group = group
        getattr(modifier.properties.inputs, size.identifier).value = 0.4
    """,
    "socket-factor-fac": """
        import bpy
        mat = bpy.data.materials.new("M")
        mat.use_nodes = True
        mix = mat.node_tree.nodes.new("ShaderNodeMixShader")
        mix.inputs['Factor'].default_value = 0.25
        blend = mat.node_tree.nodes.new("ShaderNodeMix")
        blend.inputs['Factor'].default_value = 0.5
    """,
}


def _src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def _confirm(runtime, cases: dict[str, str], target: str) -> None:
    """Each old script fails on the runtime with an error its rule explains; the fixed script runs."""
    options = runtime.run_options(render=False, timeout=60)
    with WorkerPool(1, options) as pool:
        for rule_id, text in cases.items():
            old = _src(text)
            before = pool.run(source=old, options=options)
            assert before.status == "error", (rule_id, before.status)
            error = f"{before.exception.type}: {before.exception.message}"
            assert BY_ID[rule_id].explains_error(error), (rule_id, error)
            new, hits = fix_all(old, target)
            assert rule_id in {h.rule for h in hits} and new != old, rule_id
            after = pool.run(source=new, options=options)
            assert after.ok, (rule_id, after.exception, new)
            assert before.blender_version.startswith(target)


@pytest.mark.runtimes
def test_forward_rules_fail_on_5_2_and_their_fixes_pass(runtime) -> None:
    _confirm(runtime("5.2"), FORWARD, "5.2")


@pytest.mark.runtimes
def test_backward_rules_heal_5x_scripts_for_4_5(runtime) -> None:
    _confirm(runtime("4.5"), BACKWARD, "4.5")


@pytest.mark.runtimes
def test_old_forms_pass_on_4_5_where_the_forward_rules_stay_quiet(runtime, pool) -> None:
    """The forward rules' old forms are valid 4.5 code: no finding for 4.5 and the scripts run on the bundled wheel."""
    for rule_id, text in FORWARD.items():
        assert rule_id not in {h.rule for h in detect(_src(text), "4.5")}, rule_id
        if rule_id == "grease-pencil-v3-data":
            continue  # linking a GPv3 datablock needs more than 4.5's factory scene offers; the rule's 4.5 side is static
        report = pool.run(source=_src(text))
        assert report.ok, (rule_id, report.exception)


def test_float_solver_of_the_mesh_boolean_node_is_not_a_sure_finding_on_4_5(pool) -> None:
    """'FLOAT' is the Mesh Boolean geometry node's solver on 4.5 too: only a modifier's 'FLOAT' is a sure finding."""
    script = _src("""
        import bpy
        group = bpy.data.node_groups.new("B", "GeometryNodeTree")
        boolean = group.nodes.new("GeometryNodeMeshBoolean")
        boolean.solver = "FLOAT"
    """)
    assert "boolean-solver-fast" not in {h.rule for h in detect(script, "4.5")}
    report = pool.run(source=script)
    assert report.ok, report.exception
    assert "boolean-solver-fast" in {h.rule for h in detect(_src(BACKWARD["boolean-solver-fast"]), "4.5")}


@pytest.mark.parametrize("target", ["5.0", "5.2"])
def test_rules_know_their_versions(target: str) -> None:
    ids = {r.id for r in rules_for(target)}
    assert {"cycles-object-flags", "action-fcurves", "legacy-color-nodes", "vse-strips", "removed-in-5"} <= ids
    assert not {"boolean-solver-fast", "socket-factor-fac", "vse-sequences"} & ids
    assert ("python-313-modules" in ids) == (target == "5.2")  # Python 3.13 arrived with 5.1
    assert ("gn-modifier-inputs" in ids) == (target == "5.2")  # modifier[identifier] still works on 5.0
    assert ("gn-modifier-idprops" in ids) == (target == "5.0")  # and modifier.properties does not exist there yet
    assert "eevee-next" not in ids and "eevee-id-5" in ids


def test_fixes_keep_the_script_meaning() -> None:
    new = fix_all(_src(FORWARD["legacy-color-nodes"]), "5.0")[0]
    assert "nodes.new('ShaderNodeSeparateColor')\nsplit.mode = 'HSV'" in new and "split.outputs['Red']" in new
    assert "join.inputs['Red']" in new and "join.outputs['Color']" in new and "join.mode" not in new
    curves = fix_all(_src(FORWARD["action-fcurves"]), "5.0")[0]
    assert curves.count("from bpy_extras import anim_utils") == 1
    assert "anim_utils.action_get_channelbag_for_slot(cube.animation_data.action, cube.animation_data.action_slot).fcurves" in curves
    assert "import importlib as imp" in fix_all(_src(FORWARD["python-313-modules"]), "5.2")[0]
    mixed = fix_all(_src(BACKWARD["socket-factor-fac"]), "4.5")[0]
    assert "mix.inputs['Fac']" in mixed and "blend.inputs['Factor']" in mixed  # the Mix node has "Factor" in 4.5 too


def test_vse_strips_heal_both_ways() -> None:
    """strips arrived in 4.4 (confirmed on 4.2.23: AttributeError), sequences left in 5.0 (5.0.1, 5.2.3)."""
    newer = "import bpy\nfor s in bpy.context.scene.sequence_editor.strips_all:\n    print(s.name)\n"
    assert "sequence_editor.sequences_all" in fix_all(newer, "4.2")[0]
    assert fix_all(newer, "4.5")[0] == newer and fix_all(newer, "5.2")[0] == newer


def test_manual_removals_are_reported_without_a_rewrite() -> None:
    source = _src("""
        import bpy
        import bgl
        scene = bpy.context.scene
        tree = scene.node_tree
        out = tree.nodes.new("CompositorNodeComposite")
        bpy.ops.wm.collada_export(filepath="/tmp/x.dae")
    """)
    hits = [h for h in detect(source, "5.0") if h.rule == "removed-in-5"]
    assert sorted(h.line for h in hits) == [2, 4, 5, 6]
    assert fix_all(source, "5.0")[0] == source
    assert not [h for h in detect(source, "4.5") if h.rule == "removed-in-5"]


@pytest.mark.filterwarnings("ignore:drift rule:RuntimeWarning")  # the pack skips a rule that recurses too deep, by design
def test_hostile_sources_do_not_break_the_rules() -> None:
    for text in (
        "x = (",
        "import imp as",
        "\x00",
        "a.fcurves = 1\nb.animation_data.action.fcurves.x.y = 2\n",
        "import " + "a." * 400 + "b",
    ):
        detect(text, "5.2")
        fix_all(text, "4.5")
