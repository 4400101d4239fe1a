"""Suzanne the monkey, smoothed with a Subdivision Surface modifier, sitting on a bevelled pedestal.

The pedestal is a flattened cube whose hard edges are softened by a Bevel
modifier; Suzanne gets a Subdivision Surface modifier and smooth shading.
"""

import bpy
from mathutils import Vector


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def make_material(name, color, roughness=0.5):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    # Workbench renders show the viewport colour, so keep it in sync.
    mat.diffuse_color = (*color, 1.0)
    return mat


def look_at(obj, target):
    direction = Vector(target) - obj.location
    obj.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()


def add_pedestal():
    bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0.0, 0.0, -0.5))
    pedestal = bpy.context.active_object
    pedestal.name = "Pedestal"
    pedestal.scale = (1.2, 1.2, 0.5)
    bevel = pedestal.modifiers.new("Bevel", "BEVEL")
    bevel.width = 0.08
    bevel.segments = 4
    # Bevel works on the unscaled mesh, so clamp keeps corners from overlapping.
    bevel.use_clamp_overlap = True
    pedestal.data.materials.append(make_material("Marble", (0.85, 0.84, 0.8), 0.3))
    return pedestal


def add_suzanne():
    bpy.ops.mesh.primitive_monkey_add(size=1.8, location=(0.0, 0.0, 0.75))
    monkey = bpy.context.active_object
    monkey.name = "Suzanne"
    # Turn her a little towards the camera, which sits front-right.
    monkey.rotation_euler = (0.15, 0.0, 0.45)
    subsurf = monkey.modifiers.new("Subdivision", "SUBSURF")
    subsurf.levels = 2
    subsurf.render_levels = 2
    for poly in monkey.data.polygons:
        poly.use_smooth = True
    monkey.data.materials.append(make_material("Bronze", (0.7, 0.42, 0.2), 0.35))
    return monkey


def add_camera_and_light(scene, target):
    cam_data = bpy.data.cameras.new("Camera")
    cam_data.lens = 50
    camera = bpy.data.objects.new("Camera", cam_data)
    camera.location = (3.6, -4.8, 2.6)
    look_at(camera, target)
    scene.collection.objects.link(camera)
    scene.camera = camera

    sun_data = bpy.data.lights.new("Sun", "SUN")
    sun_data.energy = 3.0
    sun = bpy.data.objects.new("Sun", sun_data)
    sun.rotation_euler = (0.7, 0.2, 0.8)
    scene.collection.objects.link(sun)


def main():
    clear_scene()
    scene = bpy.context.scene
    add_pedestal()
    add_suzanne()
    add_camera_and_light(scene, target=(0.0, 0.0, 0.3))


main()
