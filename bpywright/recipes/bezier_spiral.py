"""A copper spiral tube coiling upward, made from a bezier curve with a bevel depth.

The curve points are placed along a conical helix and given automatic handles,
so the curve is smooth; bevel_depth turns the curve into a round tube.
"""

import math

import bpy
from mathutils import Vector


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.curves, bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def spiral_points(turns, points_per_turn, height, radius_start, radius_end):
    count = turns * points_per_turn + 1
    for i in range(count):
        t = i / (count - 1)
        angle = 2.0 * math.pi * turns * t
        radius = radius_start + (radius_end - radius_start) * t
        yield (radius * math.cos(angle), radius * math.sin(angle), height * t)


def add_spiral_tube(name, points):
    curve = bpy.data.curves.new(name, "CURVE")
    curve.dimensions = "3D"
    curve.bevel_depth = 0.12
    curve.bevel_resolution = 6
    curve.resolution_u = 16
    curve.use_fill_caps = True

    spline = curve.splines.new("BEZIER")
    spline.bezier_points.add(len(points) - 1)  # a new spline already has one point
    for bp, co in zip(spline.bezier_points, points, strict=True):
        bp.co = co
        bp.handle_left_type = "AUTO"
        bp.handle_right_type = "AUTO"

    obj = bpy.data.objects.new(name, curve)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def make_material(name, color, metallic=0.0):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = 0.3
    bsdf.inputs["Metallic"].default_value = metallic
    mat.diffuse_color = (*color, 1.0)
    return mat


def add_ground(size):
    mesh = bpy.data.meshes.new("Ground")
    mesh.from_pydata([(-size, -size, 0), (size, -size, 0), (size, size, 0), (-size, size, 0)], [], [(0, 1, 2, 3)])
    ground = bpy.data.objects.new("Ground", mesh)
    bpy.context.scene.collection.objects.link(ground)
    ground.data.materials.append(make_material("Ground", (0.2, 0.2, 0.22)))
    return ground


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene

    points = list(spiral_points(turns=5, points_per_turn=8, height=3.0, radius_start=1.5, radius_end=0.4))
    spiral = add_spiral_tube("Spiral", points)
    spiral.location.z = 0.15
    spiral.data.materials.append(make_material("Copper", (0.95, 0.45, 0.2), metallic=1.0))
    add_ground(6.0)

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.location = (5.5, -5.5, 4.0)
    aim(camera, (0.0, 0.0, 1.4))
    scene.collection.objects.link(camera)
    scene.camera = camera

    light = bpy.data.objects.new("Key", bpy.data.lights.new("Key", "AREA"))
    light.data.energy = 600.0
    light.data.size = 3.0
    light.location = (3.0, -2.0, 6.0)
    aim(light, (0.0, 0.0, 1.0))
    scene.collection.objects.link(light)


main()
