"""A ring of twelve stone pillars around a round plinth, like a small temple.

The pillars are linked duplicates: twelve objects that all share one mesh, so
editing that mesh changes every pillar at once. They are spaced evenly on a
circle with math.cos and math.sin.
"""

import math

import bpy
from mathutils import Vector

PILLAR_COUNT = 12
RING_RADIUS = 4.0
PILLAR_HEIGHT = 3.0


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for collection in list(bpy.context.scene.collection.children):
        bpy.data.collections.remove(collection)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def make_material(name, color, roughness=0.7):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    mat.diffuse_color = (*color, 1.0)
    return mat


def pillar_mesh(material):
    """One shared column mesh; the operator's throwaway object is removed, the mesh kept."""
    bpy.ops.mesh.primitive_cylinder_add(vertices=16, radius=0.35, depth=PILLAR_HEIGHT)
    temp = bpy.context.active_object
    mesh = temp.data
    mesh.name = "Pillar"
    # Move the mesh up so each pillar's origin is at its foot.
    for vert in mesh.vertices:
        vert.co.z += PILLAR_HEIGHT / 2
    mesh.materials.append(material)
    bpy.data.objects.remove(temp, do_unlink=True)
    return mesh


def ring_of_pillars(mesh, base_z):
    collection = bpy.data.collections.new("Pillars")
    bpy.context.scene.collection.children.link(collection)
    for i in range(PILLAR_COUNT):
        angle = 2.0 * math.pi * i / PILLAR_COUNT
        pillar = bpy.data.objects.new(f"Pillar.{i:02d}", mesh)  # same mesh: a linked duplicate
        pillar.location = (RING_RADIUS * math.cos(angle), RING_RADIUS * math.sin(angle), base_z)
        pillar.rotation_euler.z = angle
        collection.objects.link(pillar)
    return collection


def add_plinth(material):
    bpy.ops.mesh.primitive_cylinder_add(vertices=48, radius=RING_RADIUS + 0.8, depth=0.4, location=(0, 0, 0.2))
    plinth = bpy.context.active_object
    plinth.name = "Plinth"
    plinth.data.materials.append(material)
    return plinth


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene

    stone = make_material("Stone", (0.82, 0.78, 0.7))
    add_plinth(make_material("Plinth", (0.3, 0.28, 0.26), roughness=0.9))
    ring_of_pillars(pillar_mesh(stone), base_z=0.4)

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.data.lens = 35
    camera.location = (7.5, -9.0, 5.5)
    aim(camera, (0.0, 0.0, 1.2))
    scene.collection.objects.link(camera)
    scene.camera = camera

    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 4.0
    sun.rotation_euler = (math.radians(50), 0.0, math.radians(-20))
    scene.collection.objects.link(sun)


main()
