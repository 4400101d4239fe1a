"""A brick-red wall with a row of square windows cut through it.

One cutter cube is repeated along the wall by an Array modifier, and a Boolean
DIFFERENCE modifier on the wall subtracts the whole row in one go. The cutter
stays in the scene (the boolean needs it) but is hidden from render.
"""

import math

import bpy
from mathutils import Vector

WINDOW_COUNT = 5
WINDOW_SIZE = 0.8
WINDOW_SPACING = 1.5


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def add_box(name, size, location):
    """A cube primitive whose mesh, not object scale, has the given size."""
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=location)
    box = bpy.context.active_object
    box.name = name
    box.data.name = name
    # Scaling the vertices keeps object scale at 1, so modifiers see true sizes.
    for vert in box.data.vertices:
        vert.co = Vector(c * s for c, s in zip(vert.co, size, strict=True))
    return box


def make_material(name, color, roughness=0.8):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    mat.diffuse_color = (*color, 1.0)
    return mat


def build_wall():
    wall_length = WINDOW_COUNT * WINDOW_SPACING + 1.0
    wall = add_box("Wall", (wall_length, 0.3, 3.0), (0.0, 0.0, 1.5))
    wall.data.materials.append(make_material("Brick", (0.6, 0.2, 0.12)))

    first_x = -(WINDOW_COUNT - 1) * WINDOW_SPACING / 2
    cutter = add_box("WindowCutter", (WINDOW_SIZE, 1.0, WINDOW_SIZE), (first_x, 0.0, 1.7))
    array = cutter.modifiers.new("Row", "ARRAY")
    array.count = WINDOW_COUNT
    array.use_relative_offset = False
    array.use_constant_offset = True
    array.constant_offset_displace = (WINDOW_SPACING, 0.0, 0.0)
    cutter.hide_render = True
    cutter.display_type = "WIRE"

    boolean = wall.modifiers.new("Windows", "BOOLEAN")
    boolean.operation = "DIFFERENCE"
    boolean.solver = "EXACT"
    boolean.object = cutter
    return wall, cutter


def add_ground(size):
    mesh = bpy.data.meshes.new("Ground")
    mesh.from_pydata([(-size, -size, 0), (size, -size, 0), (size, size, 0), (-size, size, 0)], [], [(0, 1, 2, 3)])
    ground = bpy.data.objects.new("Ground", mesh)
    bpy.context.scene.collection.objects.link(ground)
    ground.data.materials.append(make_material("Grass", (0.25, 0.45, 0.2)))


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene
    build_wall()
    add_ground(20.0)

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.data.lens = 35
    camera.location = (3.5, -8.0, 2.6)
    aim(camera, (0.0, 0.0, 1.5))
    scene.collection.objects.link(camera)
    scene.camera = camera

    # A low sun from behind-left throws light through the windows onto the ground.
    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 4.0
    sun.rotation_euler = (math.radians(55), 0.0, math.radians(200))
    scene.collection.objects.link(sun)


main()
