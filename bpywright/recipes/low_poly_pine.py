"""A low-poly pine tree on snowy white ground.

Three stacked cones of shrinking size form the foliage above a cylinder trunk,
on a white snow plane, with green, brown and white materials.
"""

import math

import bpy
from mathutils import Vector

CONE_VERTICES = 7  # few sides keeps the faceted low-poly look


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def make_material(name, color, roughness=0.8):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    mat.diffuse_color = (*color, 1.0)
    return mat


def active_with(name, material):
    obj = bpy.context.active_object
    obj.name = name
    obj.data.materials.append(material)
    return obj


def build_tree(bark, needles):
    bpy.ops.mesh.primitive_cylinder_add(vertices=8, radius=0.18, depth=1.0, location=(0.0, 0.0, 0.5))
    active_with("Trunk", bark)

    # (bottom radius, height, base z) for each tier; tiers overlap so no trunk shows between them.
    tiers = [(1.3, 1.6, 0.7), (1.0, 1.4, 1.6), (0.7, 1.2, 2.4)]
    for index, (radius, height, base_z) in enumerate(tiers):
        bpy.ops.mesh.primitive_cone_add(
            vertices=CONE_VERTICES,
            radius1=radius,
            radius2=0.0,
            depth=height,
            location=(0.0, 0.0, base_z + height / 2),
            # Twist alternate tiers so their facets do not line up.
            rotation=(0.0, 0.0, index * math.pi / CONE_VERTICES),
        )
        active_with(f"Foliage {index + 1}", needles)


def add_snow_ground(material):
    bpy.ops.mesh.primitive_plane_add(size=12.0, location=(0.0, 0.0, 0.0))
    return active_with("Snow", material)


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene

    bark = make_material("Bark", (0.3, 0.17, 0.08))
    needles = make_material("Needles", (0.08, 0.35, 0.15))
    snow = make_material("Snow", (0.95, 0.96, 1.0), roughness=0.6)
    build_tree(bark, needles)
    add_snow_ground(snow)

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.location = (5.0, -6.5, 4.5)
    aim(camera, (0.0, 0.0, 1.3))
    scene.collection.objects.link(camera)
    scene.camera = camera

    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 3.0
    sun.data.color = (1.0, 0.96, 0.9)
    sun.rotation_euler = (math.radians(50), 0.0, math.radians(30))
    scene.collection.objects.link(sun)

    # A blue sky for the cold winter feel: world.color for Workbench, the Background node for Cycles/EEVEE.
    sky = (0.3, 0.45, 0.7)
    world = scene.world or bpy.data.worlds.new("World")
    scene.world = world
    world.color = sky
    world.use_nodes = True
    world.node_tree.nodes["Background"].inputs["Color"].default_value = (*sky, 1.0)
    # AgX, the default view transform, greys out near-white surfaces; keep the snow white.
    scene.view_settings.view_transform = "Standard"
    # For solid (Workbench) renders, the outdoor studio light brightens upward faces like snow.
    if "outdoor.sl" in bpy.context.preferences.studio_lights:
        scene.display.shading.studio_light = "outdoor.sl"


main()
