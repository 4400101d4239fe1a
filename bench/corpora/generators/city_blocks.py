"""City blocks: buildings from bmesh boxes, window cut-outs with Boolean modifiers, everything under one scene root."""

import random

import bmesh
import bpy


def make_empty(name, size=1.0):
    empty = bpy.data.objects.new(name, None)
    empty.empty_display_size = size
    bpy.context.scene.collection.objects.link(empty)
    return empty


def box_mesh(name, sx, sy, sz):
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=(sx, sy, sz), verts=bm.verts)
    bmesh.ops.translate(bm, vec=(0.0, 0.0, sz / 2), verts=bm.verts)
    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def building(name, rng, parent):
    sx, sy, sz = rng.uniform(1.0, 2.0), rng.uniform(1.0, 2.0), rng.uniform(2.0, 6.0)
    body = bpy.data.objects.new(name, box_mesh(name, sx, sy, sz))
    bpy.context.scene.collection.objects.link(body)
    body.parent = parent
    cutter = bpy.data.objects.new(f"{name}_windows", box_mesh(f"{name}_windows", sx * 1.1, 0.2, 0.3))
    bpy.context.scene.collection.objects.link(cutter)
    cutter.parent = parent
    cutter.hide_render = True
    cutter.display_type = "WIRE"
    array = cutter.modifiers.new("floors", "ARRAY")
    array.count = max(1, int(sz / 0.8))
    array.relative_offset_displace = (0.0, 0.0, 2.5)
    cut = body.modifiers.new("windows", "BOOLEAN")
    cut.operation = "DIFFERENCE"
    cut.solver = "EXACT"
    cut.object = cutter
    bevel = body.modifiers.new("bevel", "BEVEL")
    bevel.width = 0.02
    bevel.segments = 2
    bevel.limit_method = "ANGLE"
    return body


def city(seed, rows=3, cols=3, spacing=3.0):
    rng = random.Random(seed)
    scene_root = make_empty("scene_root", 2.0)
    scene_root.location = (-(cols - 1) * spacing / 2, -(rows - 1) * spacing / 2, 0.0)
    scene_root.scale = (1.0, 1.0, 1.0)
    buildings = []
    for r in range(rows):
        for c in range(cols):
            b = building(f"building_{r}_{c}", rng, scene_root)
            b.location = (c * spacing, r * spacing, 0.0)
            buildings.append(b)
    return scene_root, buildings


root, buildings = city(2)
depsgraph = bpy.context.evaluated_depsgraph_get()
print("buildings:", len(buildings), "faces:", sum(len(b.evaluated_get(depsgraph).data.polygons) for b in buildings))
