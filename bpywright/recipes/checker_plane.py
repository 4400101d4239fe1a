"""A plane with a procedural black-and-white checker material, with a small sphere resting on it.

The checker is built from shader nodes: Texture Coordinate -> Mapping ->
Checker Texture -> Principled BSDF Base Color. Solid-mode (Workbench) renders
show only the material's viewport colour; Cycles and EEVEE show the pattern.
"""

import math

import bpy
from mathutils import Vector


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def checker_material(name, color1, color2, scale):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    bsdf.inputs["Roughness"].default_value = 0.5

    coords = nodes.new("ShaderNodeTexCoord")
    coords.location = (-900, 300)
    mapping = nodes.new("ShaderNodeMapping")
    mapping.location = (-700, 300)
    # Turn the squares 45 degrees so the pattern runs diagonally in the shot.
    mapping.inputs["Rotation"].default_value = (0.0, 0.0, math.radians(45))
    checker = nodes.new("ShaderNodeTexChecker")
    checker.location = (-450, 300)
    checker.inputs["Color1"].default_value = (*color1, 1.0)
    checker.inputs["Color2"].default_value = (*color2, 1.0)
    checker.inputs["Scale"].default_value = scale

    # UV coordinates keep the square count fixed however the plane is scaled.
    links.new(coords.outputs["UV"], mapping.inputs["Vector"])
    links.new(mapping.outputs["Vector"], checker.inputs["Vector"])
    links.new(checker.outputs["Color"], bsdf.inputs["Base Color"])

    mat.diffuse_color = tuple((a + b) / 2 for a, b in zip(color1, color2, strict=True)) + (1.0,)
    return mat


def plain_material(name, color, roughness=0.3):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    mat.diffuse_color = (*color, 1.0)
    return mat


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene

    bpy.ops.mesh.primitive_plane_add(size=6.0, location=(0.0, 0.0, 0.0))
    plane = bpy.context.active_object
    plane.name = "Checker Plane"
    plane.data.materials.append(checker_material("Checker", (0.9, 0.9, 0.9), (0.05, 0.05, 0.05), scale=8.0))

    radius = 0.6
    bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, segments=48, ring_count=24, location=(0.0, 0.0, radius))
    sphere = bpy.context.active_object
    sphere.name = "Sphere"
    sphere.data.shade_smooth()
    sphere.data.materials.append(plain_material("Orange", (0.95, 0.35, 0.05)))

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.location = (5.0, -7.0, 5.0)
    aim(camera, (0.0, 0.0, 0.3))
    scene.collection.objects.link(camera)
    scene.camera = camera

    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 3.0
    sun.rotation_euler = (math.radians(45), 0.0, math.radians(35))
    scene.collection.objects.link(sun)


main()
