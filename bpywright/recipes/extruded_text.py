"""Extruded 3D text reading "bpy" with bevelled edges, standing on a floor.

The text is a FONT object created through the data API; extrude gives it depth
and bevel_depth rounds the letter edges.
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


def make_material(name, color, roughness=0.4):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    mat.diffuse_color = (*color, 1.0)
    return mat


def add_text(body):
    curve = bpy.data.curves.new("Title", "FONT")
    curve.body = body
    curve.size = 1.6
    curve.extrude = 0.2
    curve.bevel_depth = 0.03
    curve.bevel_resolution = 3
    curve.align_x = "CENTER"
    # Baseline alignment would leave the "p" and "y" descenders below the floor.
    curve.align_y = "BOTTOM"
    text = bpy.data.objects.new("Title", curve)
    # Stand the letters upright, facing -Y towards the camera.
    text.rotation_euler = (math.radians(90), 0.0, 0.0)
    text.location = (0.0, 0.0, 0.0)
    bpy.context.scene.collection.objects.link(text)
    return text


def add_floor(size):
    mesh = bpy.data.meshes.new("Floor")
    mesh.from_pydata([(-size, -size, 0), (size, -size, 0), (size, size, 0), (-size, size, 0)], [], [(0, 1, 2, 3)])
    floor = bpy.data.objects.new("Floor", mesh)
    bpy.context.scene.collection.objects.link(floor)
    return floor


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene

    text = add_text("bpy")
    text.data.materials.append(make_material("Teal", (0.05, 0.55, 0.6), roughness=0.25))
    floor = add_floor(10.0)
    floor.data.materials.append(make_material("Floor", (0.8, 0.8, 0.78), roughness=0.7))

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.location = (1.2, -5.5, 2.2)
    aim(camera, (0.0, 0.0, 0.7))
    scene.collection.objects.link(camera)
    scene.camera = camera

    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 3.5
    sun.rotation_euler = (math.radians(50), 0.0, math.radians(-30))
    scene.collection.objects.link(sun)


main()
