"""The scene facts a technique check reads, from real scenes run through the harness: each fact where the scene has it,
and where it does not (keyframes vs a frame_set, gold vs a default material, a modifier's settings vs none ...)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bpywright.harness.job import MAX_REPORT_BYTES
from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.harness.report import RunReport, SceneSummary

pytestmark = pytest.mark.blender

# Version-portable helpers (3.4 to 5.2) the scene scripts share: socket names differ by version.
HELPERS = """
import math
import bpy

def clear():
    for obj in list(bpy.data.objects):
        if obj.type not in {"CAMERA", "LIGHT"}:
            bpy.data.objects.remove(obj, do_unlink=True)

def principled(name, **values):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    node = next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
    for key, value in values.items():
        for socket in key.split("|"):
            if socket in node.inputs:
                node.inputs[socket].default_value = value
                break
    return mat

def shader(name, kind, **values):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    tree = mat.node_tree
    tree.nodes.remove(next(n for n in tree.nodes if n.type == "BSDF_PRINCIPLED"))
    node = tree.nodes.new(kind)
    for key, value in values.items():
        node.inputs[key].default_value = value
    output = next(n for n in tree.nodes if n.type == "OUTPUT_MATERIAL")
    tree.links.new(node.outputs[0], output.inputs["Surface"])
    return mat

def mesh_with(mat, location):
    bpy.ops.mesh.primitive_cube_add(location=location)
    obj = bpy.context.object
    obj.data.materials.append(mat)
    return obj
"""

# Every technique at once: run on 4.5 (the wheel), 5.2 (layered actions only) and Debian's 3.4.
TECHNIQUES = (
    HELPERS
    + """
clear()
bpy.ops.mesh.primitive_uv_sphere_add(location=(0, 0, 1))
ball = bpy.context.object
ball.name = "Ball"
for frame, z in ((1, 1.0), (24, 4.0), (48, 1.0)):
    ball.location.z = z
    ball.keyframe_insert("location", index=2, frame=frame)
ball.data.materials.append(principled("Gold", **{"Base Color": (1.0, 0.766, 0.336, 1.0), "Metallic": 1.0, "Roughness": 0.2}))
mesh_with(principled("Glass", **{"Transmission Weight|Transmission": 1.0, "Roughness": 0.0, "IOR": 1.45}), (3, 0, 0))
mesh_with(shader("Glow", "ShaderNodeEmission", Color=(0.0, 1.0, 0.2, 1.0), Strength=5.0), (6, 0, 0))
mesh_with(shader("Crystal", "ShaderNodeBsdfGlass", IOR=1.5), (9, 0, 0))
bpy.ops.mesh.primitive_cube_add(location=(0, 5, 0))
block = bpy.context.object
block.name = "Block"
block.modifiers.new("Smooth", "SUBSURF").levels = 2
block.modifiers["Smooth"].render_levels = 2
block.modifiers.new("Row", "ARRAY").count = 10
bpy.ops.object.text_add(location=(0, -5, 0))
sign = bpy.context.object
sign.name = "Sign"
sign.data.body = "HELLO"
sign.data.extrude = 0.1
curve = bpy.data.curves.new("Spiral", "CURVE")
curve.dimensions = "3D"
curve.bevel_depth = 0.05
spline = curve.splines.new("POLY")
spline.points.add(63)
for i, point in enumerate(spline.points):
    point.co = (math.cos(i / 4) * (1 + i / 32), math.sin(i / 4) * (1 + i / 32), i / 16, 1.0)
spiral = bpy.data.objects.new("Spiral", curve)
bpy.context.scene.collection.objects.link(spiral)
sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
sun.data.energy = 3.0
sun.data.color = (1.0, 0.9, 0.8)
bpy.context.scene.collection.objects.link(sun)
cam = bpy.data.objects.new("Shot", bpy.data.cameras.new("Shot"))
cam.data.lens = 35.0
bpy.context.scene.collection.objects.link(cam)
bpy.context.scene.camera = cam
points = bpy.data.meshes.new("Points")
points.from_pydata([(x, y, 0.0) for x in range(3) for y in range(3)], [], [])
grid = bpy.data.objects.new("Scatter", points)
bpy.context.scene.collection.objects.link(grid)
bpy.ops.mesh.primitive_cone_add(radius1=0.1, depth=0.3)
cone = bpy.context.object
cone.parent = grid
grid.instance_type = "VERTS"
"""
)


def run(pool: WorkerPool, source: str) -> SceneSummary:
    """The scene summary of one script run on the pool (failing the test when the script failed)."""
    report = pool.run(source=source)
    assert report.ok and report.scene is not None, report.failure + report.stderr
    assert "scene summary" not in report.stderr, report.stderr
    return report.scene


def objects(scene: SceneSummary) -> dict:
    return {o.name: o for o in scene.objects}


def materials(scene: SceneSummary) -> dict:
    return {m.name: m for m in scene.materials}


def check_techniques(scene: SceneSummary) -> None:
    """What TECHNIQUES built, read back from the summary (the same on every Blender version)."""
    objs, mats = objects(scene), materials(scene)
    [bounce] = objs["Ball"].fcurves
    assert (bounce.owner, bounce.data_path, bounce.index, bounce.keyframes) == ("object", "location", 2, 3)
    assert (bounce.frame_min, bounce.frame_max, bounce.value_min, bounce.value_max) == (1.0, 48.0, 1.0, 4.0)
    gold = mats["Gold"]
    assert gold.base_color == (1.0, 0.766, 0.336, 1.0) and gold.metallic == 1.0 and gold.roughness == 0.2
    assert gold.users == 1 and gold.use_nodes and "BSDF_PRINCIPLED" in gold.node_types and gold.linked == []
    assert mats["Glass"].transmission == 1.0 and mats["Glass"].ior == 1.45 and mats["Gold"].transmission == 0.0
    glow = mats["Glow"]
    assert glow.emission_strength == 5.0 and glow.emission_color == (0.0, 1.0, 0.2, 1.0) and "EMISSION" in glow.node_types
    assert mats["Crystal"].transmission == 1.0 and mats["Crystal"].ior == 1.5 and "BSDF_GLASS" in mats["Crystal"].node_types
    block = objs["Block"]
    assert block.modifiers == ["SUBSURF", "ARRAY"]
    smooth, row = block.modifier_settings
    assert (smooth.name, smooth.type, smooth.settings["levels"], smooth.settings["render_levels"]) == ("Smooth", "SUBSURF", 2, 2)
    assert (row.type, row.settings["count"], row.settings["fit_type"]) == ("ARRAY", 10, "FIXED_COUNT")
    assert row.settings["use_relative_offset"] is True and row.settings["relative_offset_displace"] == [1.0, 0.0, 0.0]
    assert "name" not in row.settings and "show_expanded" not in row.settings and row.settings["show_render"] is True
    assert objs["Sign"].type == "FONT" and objs["Sign"].text == "HELLO" and objs["Sign"].text_extrude == 0.1
    spiral = objs["Spiral"].curve
    assert spiral is not None and (spiral.dimensions, spiral.splines, spiral.points) == ("3D", 1, 64)
    assert spiral.bevel_depth == 0.05 and spiral.extrude == 0.0 and not spiral.bevel_object and not spiral.cyclic
    sun = objs["Sun"].light
    assert sun is not None and (sun.type, sun.energy, sun.color) == ("SUN", 3.0, (1.0, 0.9, 0.8))
    assert objs["Shot"].camera is not None and objs["Shot"].camera.lens == 35.0 and scene.active_camera == "Shot"
    assert objs["Scatter"].instances == 9 and scene.instance_count == 9
    assert objs["Sign"].instances == 0 and objs["Spiral"].instances == 0  # their own meshes are not instances
    assert objs["Cone"].parent == "Scatter" and objs["Ball"].location == (0.0, 0.0, 1.0) and objs["Ball"].scale == (1.0, 1.0, 1.0)
    assert scene.fps == 24 and scene.world_color is not None and scene.world_strength == 1.0


def test_every_technique_reads_back_on_the_wheel(pool: WorkerPool) -> None:
    check_techniques(run(pool, TECHNIQUES))


def test_the_factory_scene_has_none_of_them(pool: WorkerPool) -> None:
    scene = run(pool, "import bpy\n")
    cube = objects(scene)["Cube"]
    assert cube.fcurves == [] and cube.modifier_settings == [] and cube.instances == 0 and scene.instance_count == 0
    assert cube.text is None and cube.curve is None and cube.light is None and cube.camera is None and cube.parent is None
    [default] = scene.materials
    assert default.metallic == 0.0 and default.transmission == 0.0 and default.emission_strength == 0.0
    assert default.base_color is not None and default.base_color[0] == default.base_color[2]  # grey, not gold
    assert objs_light(scene).type == "POINT" and scene.active_camera == "Camera" and scene.material_fcurves == []


def objs_light(scene: SceneSummary):
    light = objects(scene)["Light"].light
    assert light is not None
    return light


def test_frame_set_and_a_location_are_no_keyframes(pool: WorkerPool) -> None:
    scene = run(
        pool,
        "import bpy\nball = bpy.data.objects['Cube']\nfor f in range(1, 49):\n    bpy.context.scene.frame_set(f)\n    ball.location.z = f / 10\n",
    )
    assert objects(scene)["Cube"].fcurves == [] and objects(scene)["Cube"].location == (0.0, 0.0, 4.8)


def test_rotation_reads_as_euler_xyz_whatever_the_rotation_mode(pool: WorkerPool) -> None:
    source = """
import math, bpy
cube = bpy.data.objects["Cube"]
cube.rotation_mode = "QUATERNION"
cube.rotation_quaternion = (math.cos(math.pi / 4), 0.0, 0.0, math.sin(math.pi / 4))
cube.scale = (2.0, 2.0, 2.0)
bpy.data.objects["Camera"].rotation_euler = (0.5, 0.0, 0.25)
"""
    objs = objects(run(pool, source))
    rotation = objs["Cube"].rotation
    assert rotation is not None and rotation[:2] == pytest.approx((0.0, 0.0), abs=1e-6) and rotation[2] == pytest.approx(math.pi / 2)
    assert objs["Camera"].rotation == (0.5, 0.0, 0.25) and objs["Cube"].scale == (2.0, 2.0, 2.0)


def test_a_light_and_a_material_keyframed_read_as_data_and_material_curves(pool: WorkerPool) -> None:
    source = (
        HELPERS
        + """
light = bpy.data.objects["Light"].data
light.energy = 10.0
light.keyframe_insert("energy", frame=1)
light.energy = 500.0
light.keyframe_insert("energy", frame=60)
mat = principled("Pulse")
bpy.data.objects["Cube"].data.materials[0] = mat
socket = next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED").inputs["Roughness"]
socket.keyframe_insert("default_value", frame=1)
socket.default_value = 0.9
socket.keyframe_insert("default_value", frame=30)
"""
    )
    scene = run(pool, source)
    [energy] = objects(scene)["Light"].fcurves
    assert (energy.owner, energy.data_path, energy.keyframes, energy.value_min, energy.value_max) == ("data", "energy", 2, 10.0, 500.0)
    [rough] = scene.material_fcurves
    assert rough.owner == "material:Pulse" and rough.data_path.endswith("inputs[2].default_value") and rough.value_max == 0.9


def test_a_textured_principled_names_its_linked_inputs_and_a_node_setup_without_output_still_reads(pool: WorkerPool) -> None:
    source = (
        HELPERS
        + """
mat = principled("Noisy")
noise = mat.node_tree.nodes.new("ShaderNodeTexNoise")
node = next(n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED")
mat.node_tree.links.new(noise.outputs["Color"], node.inputs["Base Color"])
bpy.data.objects["Cube"].data.materials[0] = mat
bare = bpy.data.materials.new("Bare")
bare.use_nodes = True
bare.node_tree.nodes.clear()
bare.diffuse_color = (0.1, 0.2, 0.3, 1.0)
bpy.ops.mesh.primitive_plane_add()
bpy.context.object.data.materials.append(bare)
bpy.context.object.data.materials.append(bare)
"""
    )
    mats = materials(run(pool, source))
    assert mats["Noisy"].linked == ["Base Color"] and "TEX_NOISE" in mats["Noisy"].node_types
    bare = mats["Bare"]
    assert bare.node_types == [] and bare.base_color == (0.1, 0.2, 0.3, 1.0) and bare.transmission is None and bare.users == 2


def test_geometry_node_instances_count_for_their_instancer(pool: WorkerPool) -> None:
    source = """
import bpy
grid = bpy.data.objects["Cube"]
tree = bpy.data.node_groups.new("Scatter", "GeometryNodeTree")
tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
inp, out = tree.nodes.new("NodeGroupInput"), tree.nodes.new("NodeGroupOutput")
points, cube = tree.nodes.new("GeometryNodeInstanceOnPoints"), tree.nodes.new("GeometryNodeMeshIcoSphere")
tree.links.new(inp.outputs[0], points.inputs["Points"])
tree.links.new(cube.outputs[0], points.inputs["Instance"])
tree.links.new(points.outputs[0], out.inputs[0])
grid.modifiers.new("Scatter", "NODES").node_group = tree
"""
    scene = run(pool, source)
    cube = objects(scene)["Cube"]
    assert cube.instances == 8 and scene.instance_count == 8 and cube.modifier_settings[0].type == "NODES"


def test_caps_and_hostile_values_read_as_bounded_or_none(pool: WorkerPool) -> None:
    source = """
import bpy
cube = bpy.data.objects["Cube"]
cube.location = (float("nan"), 0.0, 0.0)
for i in range(40):
    cube.modifiers.new(f"M{i}", "BEVEL").show_viewport = False
action = bpy.data.actions.new("Many")
cube.animation_data_create().action = action
for i in range(100):
    curve = action.fcurves.new('["' + "\\u2603" * 300 + '"]', index=i)
    curve.keyframe_points.insert(1, 0.0).co.y = float("nan")
bpy.ops.object.text_add()
bpy.context.object.data.body = "x" * 5000
bpy.data.objects["Light"].data.energy = float("nan")
"""
    scene = run(pool, source)
    cube, text = objects(scene)["Cube"], next(o for o in scene.objects if o.type == "FONT")
    assert cube.location is None and cube.rotation == (0.0, 0.0, 0.0) and objects(scene)["Light"].light is None
    assert len(cube.modifiers) == 40 and len(cube.modifier_settings) == 32 and cube.modifier_settings[0].settings["segments"] == 1
    assert len(cube.fcurves) == 64 and all(len(f.data_path) == 200 for f in cube.fcurves)
    assert cube.fcurves[0].keyframes == 1 and cube.fcurves[0].value_min is None and cube.fcurves[0].frame_min == 1.0
    assert text.text == "x" * 200


def test_a_scene_at_every_cap_fits_the_report(pool: WorkerPool, tmp_path: Path) -> None:
    """200 objects, each with 32 modifiers and 64 F-curves of 200-character paths, and 64 materials."""
    source = """
import bpy
mesh = bpy.data.meshes.new("m")
mesh.from_pydata([(0, 0, 0)], [], [])
for i in range(64):
    mesh.materials.append(bpy.data.materials.new(f"{'M' * 50}{i:03d}"))
for i in range(200):
    obj = bpy.data.objects.new(f"{'O' * 50}{i:03d}", mesh)
    bpy.context.scene.collection.objects.link(obj)
    for j in range(32):
        obj.modifiers.new(f"{'N' * 55}{j:03d}", "DATA_TRANSFER").show_viewport = False
    action = bpy.data.actions.new(f"a{i}")
    obj.animation_data_create().action = action
    for j in range(64):
        curve = action.fcurves.new('["' + "\\u2603" * 200 + '"]', index=j)
        curve.keyframe_points.insert(1, 0.0)
"""
    report = pool.run(source=source, options=RunOptions(render=False, timeout=120))
    assert report.ok and report.scene is not None, report.failure + report.stderr
    size = len(report.model_dump_json())
    assert size < MAX_REPORT_BYTES and len(report.scene.objects) == 200 and len(report.scene.materials) == 64
    kept = [o for o in report.scene.objects if o.fcurves]
    assert 0 < len(kept) < 200 and all(len(o.modifier_settings) == 32 and len(o.fcurves) == 64 for o in kept)
    assert f"F-curves of {200 - len(kept)} objects to fit the report" in report.stderr
    assert RunReport.model_validate_json(report.model_dump_json()).scene == report.scene


@pytest.mark.runtimes
def test_blender_5_2_reads_layered_actions(runtime) -> None:
    with WorkerPool(1, runtime("5.2").run_options(RunOptions(render=False, timeout=60))) as pool:
        report = pool.run(source=TECHNIQUES)
    assert (report.blender_version or "").startswith("5.2") and report.ok and report.scene is not None, report.failure + report.stderr
    check_techniques(report.scene)


@pytest.mark.runtimes
def test_blender_3_4_reads_the_old_socket_names(blender_exe: Path) -> None:
    with WorkerPool(1, RunOptions(blender=blender_exe, render=False, timeout=60)) as pool:
        report = pool.run(source=TECHNIQUES)
    assert report.backend == "blender-exe" and report.ok and report.scene is not None, report.failure + report.stderr
    check_techniques(report.scene)
