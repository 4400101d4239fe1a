"""A spiral staircase: one step mesh, an array modifier driven by an empty's rotation, a railing curve."""

import math

import bpy


def step_mesh(width=1.0, depth=0.3, height=0.05):
    verts = [(x, y, z) for z in (0, height) for y in (0, depth) for x in (0.2, 0.2 + width)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    mesh = bpy.data.meshes.new("step")
    mesh.from_pydata(verts, [], faces)
    return mesh


def staircase(steps=16, rise=0.18, turn=math.radians(22.5)):
    step = bpy.data.objects.new("stairs", step_mesh())
    bpy.context.scene.collection.objects.link(step)
    pivot = bpy.data.objects.new("stairs_pivot", None)
    bpy.context.scene.collection.objects.link(pivot)
    pivot.location = (0, 0, rise)
    pivot.rotation_euler = (0, 0, turn)
    array = step.modifiers.new("array", "ARRAY")
    array.count = steps
    array.use_relative_offset = False
    array.use_object_offset = True
    array.offset_object = pivot
    return step, pivot


def railing(steps=16, rise=0.18, turn=math.radians(22.5), radius=1.15):
    curve = bpy.data.curves.new("railing", "CURVE")
    curve.dimensions = "3D"
    curve.bevel_depth = 0.02
    curve.fill_mode = "FULL"
    spline = curve.splines.new("NURBS")
    spline.points.add(steps - 1)
    for i, point in enumerate(spline.points):
        a = i * turn + 0.15
        point.co = (radius * math.cos(a), radius * math.sin(a), i * rise + 0.9, 1.0)
    spline.use_endpoint_u = True
    obj = bpy.data.objects.new("railing", curve)
    bpy.context.scene.collection.objects.link(obj)
    return obj


stairs, pivot = staircase()
rail = railing()
column = bpy.data.meshes.new("column")
bpy.ops.mesh.primitive_cylinder_add(radius=0.2, depth=3.2, location=(0, 0, 1.6))
depsgraph = bpy.context.evaluated_depsgraph_get()
print("stairs vertices:", len(stairs.evaluated_get(depsgraph).data.vertices), "railing points:", len(rail.data.splines[0].points))
