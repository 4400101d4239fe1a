"""Three spheres side by side: polished gold, clear glass and glossy red plastic.

Each sphere gets its own Principled BSDF material using the Blender 4.x socket
names ("Base Color", "Metallic", "Roughness", "Transmission Weight", "IOR").
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


def principled_material(name, base_color, inputs=None, viewport_color=None):
    """A material whose Principled BSDF inputs are set by socket name."""
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*base_color, 1.0)
    for socket, value in (inputs or {}).items():
        bsdf.inputs[socket].default_value = value
    # Workbench shows the viewport colour, not the node tree.
    mat.diffuse_color = (*(viewport_color or base_color), 1.0)
    return mat


def add_sphere(name, location, material):
    bpy.ops.mesh.primitive_uv_sphere_add(segments=48, ring_count=24, radius=0.9, location=location)
    sphere = bpy.context.active_object
    sphere.name = name
    sphere.data.shade_smooth()
    sphere.data.materials.append(material)
    return sphere


def add_floor():
    mesh = bpy.data.meshes.new("Floor")
    size = 8.0
    verts = [(-size, -size, 0.0), (size, -size, 0.0), (size, size, 0.0), (-size, size, 0.0)]
    mesh.from_pydata(verts, [], [(0, 1, 2, 3)])
    floor = bpy.data.objects.new("Floor", mesh)
    bpy.context.scene.collection.objects.link(floor)
    floor.data.materials.append(principled_material("Floor", (0.5, 0.5, 0.52), {"Roughness": 0.8}))
    return floor


def add_camera(scene, location, target):
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.location = location
    direction = Vector(target) - camera.location
    camera.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()
    scene.collection.objects.link(camera)
    scene.camera = camera


def add_area_light(scene, name, location, energy, size):
    data = bpy.data.lights.new(name, "AREA")
    data.energy = energy
    data.size = size
    light = bpy.data.objects.new(name, data)
    light.location = location
    # Area lights shine down their local -Z; point it back at the origin.
    light.rotation_euler = (-light.location).to_track_quat("-Z", "Y").to_euler()
    scene.collection.objects.link(light)


def main():
    clear_scene()
    scene = bpy.context.scene

    gold = principled_material("Gold", (1.0, 0.71, 0.29), {"Metallic": 1.0, "Roughness": 0.2})
    glass = principled_material(
        "Glass",
        (1.0, 1.0, 1.0),
        {"Roughness": 0.0, "Transmission Weight": 1.0, "IOR": 1.45},
        viewport_color=(0.6, 0.8, 0.9),
    )
    plastic = principled_material("Red Plastic", (0.8, 0.05, 0.04), {"Metallic": 0.0, "Roughness": 0.35})

    for index, (name, mat) in enumerate((("Gold", gold), ("Glass", glass), ("Plastic", plastic))):
        add_sphere(name, ((index - 1) * 2.1, 0.0, 0.9), mat)
    add_floor()

    add_camera(scene, location=(0.0, -11.0, 4.0), target=(0.0, 0.0, 0.8))
    add_area_light(scene, "Key", (3.0, -4.0, 5.0), energy=800.0, size=3.0)
    add_area_light(scene, "Fill", (-5.0, -2.0, 3.0), energy=250.0, size=4.0)


main()
