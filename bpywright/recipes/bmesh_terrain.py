"""A flat-shaded low-poly terrain of hills and valleys, built with bmesh and noise.

A bmesh grid is displaced with mathutils.noise fractal noise, each face gets a
grass, rock or snow material by height, and the result is written to a mesh
with bm.to_mesh. Faces are left flat-shaded for the faceted low-poly look.
"""

import math

import bmesh
import bpy
from mathutils import Vector, noise

SIZE = 10.0
SUBDIVISIONS = 24
HEIGHT = 3.5
NOISE_SCALE = 0.22
SEED = 11


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def make_material(name, color, roughness=0.9):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    mat.diffuse_color = (*color, 1.0)
    return mat


def terrain_height(x, y, offset):
    point = Vector((x * NOISE_SCALE, y * NOISE_SCALE, 0.0)) + offset
    value = noise.fractal(point, 1.0, 2.0, 4, noise_basis="PERLIN_NEW")
    # Fall off towards the edges so the terrain reads as an island of hills.
    falloff = max(0.0, 1.0 - (math.hypot(x, y) / (SIZE * 0.55)) ** 2)
    return (value * 0.6 + 0.5) * HEIGHT * falloff


def build_terrain_mesh(name):
    bm = bmesh.new()
    bmesh.ops.create_grid(bm, x_segments=SUBDIVISIONS, y_segments=SUBDIVISIONS, size=SIZE / 2)

    noise.seed_set(SEED)
    offset = noise.random_unit_vector() * 10.0
    for vert in bm.verts:
        vert.co.z = terrain_height(vert.co.x, vert.co.y, offset)

    # Material slots: 0 grass, 1 rock, 2 snow, by each face's height relative to the peak.
    peak = max(vert.co.z for vert in bm.verts)
    for face in bm.faces:
        z = face.calc_center_median().z / peak
        face.material_index = 2 if z > 0.72 else 1 if z > 0.4 else 0
        face.smooth = False

    mesh = bpy.data.meshes.new(name)
    bm.to_mesh(mesh)
    bm.free()
    return mesh


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene

    mesh = build_terrain_mesh("Terrain")
    for name, color in (("Grass", (0.25, 0.5, 0.18)), ("Rock", (0.42, 0.36, 0.3)), ("Snow", (0.92, 0.94, 0.97))):
        mesh.materials.append(make_material(name, color))
    terrain = bpy.data.objects.new("Terrain", mesh)
    scene.collection.objects.link(terrain)

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.data.lens = 35
    camera.location = (7.5, -8.5, 6.5)
    aim(camera, (0.0, 0.0, 0.5))
    scene.collection.objects.link(camera)
    scene.camera = camera

    # A low sun makes the individual facets catch the light differently.
    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 3.0
    sun.rotation_euler = (math.radians(60), 0.0, math.radians(45))
    scene.collection.objects.link(sun)


main()
