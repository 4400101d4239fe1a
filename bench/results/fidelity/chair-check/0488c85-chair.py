# wooden dining chair: built from a part plan by bpywright, for Blender 4.5 (runs on 4.2 to 5.2).
# Edit PARTS and run again: blender -b --factory-startup --python this_file.py
import math

import bpy
from mathutils import Vector

# name, shape, size (x, y, z metres, full extents before rotation), centre (x, y, z), rotation (degrees), colour (r, g, b)
PARTS = [
    ('seat', 'box', (0.4, 0.3, 0.05), (0.0, 0.0, 0.425), (0, 0, 0), (0.7, 0.5, 0.3)),
    ('leg_front_left', 'box', (0.06, 0.06, 0.4), (-0.17, -0.12, 0.2), (0, 0, 0), (0.2, 0.2, 0.2)),
    ('leg_front_right', 'box', (0.06, 0.06, 0.4), (0.17, -0.12, 0.2), (0, 0, 0), (0.2, 0.2, 0.2)),
    ('leg_back_left', 'box', (0.06, 0.06, 0.4), (-0.17, 0.12, 0.2), (0, 0, 0), (0.2, 0.2, 0.2)),
    ('leg_back_right', 'box', (0.06, 0.06, 0.4), (0.17, 0.12, 0.2), (0, 0, 0), (0.2, 0.2, 0.2)),
    ('backrest', 'box', (0.4, 0.04, 0.4), (0.0, 0.13, 0.65), (0, 0, 0), (0.7, 0.5, 0.3)),
]


def clear_scene():
    """Remove what the factory scene (or an earlier run) holds, so running the script twice gives the same scene."""
    for data in (bpy.data.objects, bpy.data.meshes, bpy.data.materials, bpy.data.cameras, bpy.data.lights):
        for block in list(data):
            data.remove(block)


def material(color):
    """One material per colour: Base Color for Cycles and EEVEE, diffuse_color for the viewport and Workbench."""
    name = "color_%02x%02x%02x" % tuple(round(c * 255) for c in color)
    mat = bpy.data.materials.get(name)
    if mat is None:
        mat = bpy.data.materials.new(name)
        mat.diffuse_color = (*color, 1.0)
        if mat.node_tree is None:  # Blender 4.x starts a material without nodes; 5.x always has them
            mat.use_nodes = True
        bsdf = mat.node_tree.nodes.get("Principled BSDF")
        if bsdf is not None:
            bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    return mat


def add_part(name, shape, size, location, rotation, color):
    """One part: a primitive of size 1 along each axis, scaled to `size`, moved to `location`, turned by `rotation`."""
    if shape == "box":
        bpy.ops.mesh.primitive_cube_add(size=1.0)
    elif shape == "cylinder":
        bpy.ops.mesh.primitive_cylinder_add(radius=0.5, depth=1.0, vertices=32)
    elif shape == "cone":
        bpy.ops.mesh.primitive_cone_add(radius1=0.5, radius2=0.0, depth=1.0, vertices=32)
    elif shape == "sphere":
        bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, segments=32, ring_count=16)
    elif shape == "torus":  # a ring 1 across and 0.25 thick, lying flat
        bpy.ops.mesh.primitive_torus_add(major_radius=0.375, minor_radius=0.125)
    elif shape == "plane":
        bpy.ops.mesh.primitive_plane_add(size=1.0)
    else:
        raise ValueError(f"unknown shape {shape!r} for part {name!r}")
    obj = bpy.context.active_object
    obj.name = name
    obj.data.name = name
    unit_height = {"torus": 0.25, "plane": 0.0}.get(shape, 1.0)
    obj.scale = (size[0], size[1], size[2] / unit_height if unit_height else 1.0)
    obj.location = location
    obj.rotation_euler = [math.radians(angle) for angle in rotation]
    if shape != "box" and shape != "plane":  # round sides smooth, cap edges sharp
        for polygon in obj.data.polygons:
            polygon.use_smooth = True
        obj.data.set_sharp_from_angle(angle=math.radians(40))
    obj.data.materials.append(material(color))
    return obj


def add_camera_and_sun(objects):
    """A camera that frames every part (seen from the front right, above) and a sun."""
    scene = bpy.context.scene
    bpy.context.view_layer.update()
    corners = [obj.matrix_world @ Vector(corner) for obj in objects for corner in obj.bound_box]
    low = Vector([min(c[i] for c in corners) for i in range(3)])
    high = Vector([max(c[i] for c in corners) for i in range(3)])
    centre = (low + high) / 2
    radius = max((high - low).length / 2, 0.01)
    lens = bpy.data.cameras.new("Camera")
    camera = bpy.data.objects.new("Camera", lens)
    scene.collection.objects.link(camera)
    distance = radius / math.sin(lens.angle / 2) * 1.05
    direction = Vector((0.55, -1.0, 0.6)).normalized()
    camera.location = centre + direction * distance
    camera.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
    lens.clip_start = min(lens.clip_start, max(distance - radius * 2, 0.001))  # as the harness frames: a 2 cm die is nearer than 0.1 m
    lens.clip_end = max(100.0, distance * 4)
    scene.camera = camera
    light = bpy.data.lights.new("Sun", type="SUN")
    light.energy = 3.0
    sun = bpy.data.objects.new("Sun", light)
    scene.collection.objects.link(sun)
    sun.rotation_euler = (math.radians(40), math.radians(10), math.radians(30))


clear_scene()
parts = [add_part(*part) for part in PARTS]
add_camera_and_sun(parts)
