"""A torus lit with a classic three-point setup: key, fill and rim lights.

The key and fill are area lights, the rim is a spot light behind the subject,
and the camera is aimed with a Track To constraint on an empty at the torus.
"""

import math

import bpy


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def link(obj):
    bpy.context.scene.collection.objects.link(obj)
    return obj


def track_to(obj, target):
    """Keep obj's -Z axis (where lights and cameras point) aimed at target."""
    constraint = obj.constraints.new("TRACK_TO")
    constraint.target = target
    constraint.track_axis = "TRACK_NEGATIVE_Z"
    constraint.up_axis = "UP_Y"
    return constraint


def add_light(name, kind, energy, azimuth_deg, elevation_deg, distance, target, color=(1.0, 1.0, 1.0)):
    """Place a light on a sphere around the target, given angles in degrees."""
    data = bpy.data.lights.new(name, kind)
    data.energy = energy
    data.color = color
    light = link(bpy.data.objects.new(name, data))
    azimuth, elevation = math.radians(azimuth_deg), math.radians(elevation_deg)
    light.location = (
        distance * math.cos(elevation) * math.cos(azimuth),
        distance * math.cos(elevation) * math.sin(azimuth),
        distance * math.sin(elevation),
    )
    track_to(light, target)
    return light


def add_torus():
    bpy.ops.mesh.primitive_torus_add(major_radius=1.0, minor_radius=0.35, major_segments=64, minor_segments=24, location=(0.0, 0.0, 0.0))
    torus = bpy.context.active_object
    torus.name = "Torus"
    # Stand it partly upright so the rim light can catch its edge.
    torus.rotation_euler = (math.radians(60), 0.0, math.radians(20))
    torus.data.shade_smooth()

    mat = bpy.data.materials.new("Ceramic")
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (0.15, 0.35, 0.8, 1.0)
    bsdf.inputs["Roughness"].default_value = 0.3
    mat.diffuse_color = (0.15, 0.35, 0.8, 1.0)
    torus.data.materials.append(mat)
    return torus


def main():
    clear_scene()
    scene = bpy.context.scene
    add_torus()

    # An empty gives every constraint the same clean aim point.
    target = link(bpy.data.objects.new("Aim", None))
    target.empty_display_type = "PLAIN_AXES"

    camera = link(bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera")))
    camera.location = (0.0, -6.5, 2.0)
    camera.data.lens = 55
    track_to(camera, target)
    scene.camera = camera

    # Angles are measured from +X; the camera sits at -90 degrees.
    key = add_light("Key", "AREA", 400.0, -45, 35, 5.0, target, color=(1.0, 0.95, 0.88))
    key.data.size = 2.0
    fill = add_light("Fill", "AREA", 120.0, -150, 15, 5.0, target, color=(0.85, 0.9, 1.0))
    fill.data.size = 3.0
    rim = add_light("Rim", "SPOT", 900.0, 80, 40, 5.0, target)
    rim.data.spot_size = math.radians(40)
    rim.data.spot_blend = 0.3


main()
