import math
import bpy
from mathutils import Vector

TOP_SIZE = (2.4, 1.4, 0.1)  # width, depth, thickness in metres
LEG_THICKNESS = 0.12
TABLE_HEIGHT = 0.8
LEG_INSET = 0.12  # how far the legs sit in from the edges of the top

CUBE_VERTS = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
# Counter-clockwise seen from outside, so the normals point outwards.
CUBE_FACES = [
    (0, 1, 3, 2),  # -X
    (4, 6, 7, 5),  # +X
    (0, 4, 5, 1),  # -Y
    (2, 3, 7, 6),  # +Y
    (0, 2, 6, 4),  # -Z
    (1, 5, 7, 3),  # +Z
]


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for block in (bpy.data.meshes, bpy.data.materials, bpy.data.lights, bpy.data.cameras):
        for item in list(block):
            if item.users == 0:
                block.remove(item)


def make_material(name, color, roughness=0.6):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = roughness
    mat.diffuse_color = (*color, 1.0)
    return mat


def add_block(name, size, location, material, parent=None):
    """A unit cube mesh scaled by its object to the given size, in metres."""
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(CUBE_VERTS, [], CUBE_FACES)
    mesh.materials.append(material)
    block = bpy.data.objects.new(name, mesh)
    block.scale = size
    block.location = location
    block.parent = parent
    bpy.context.scene.collection.objects.link(block)
    return block


def build_table(wood):
    table = bpy.data.objects.new("Table", None)  # an empty to move the table as one piece
    bpy.context.scene.collection.objects.link(table)

    top_z = TABLE_HEIGHT - TOP_SIZE[2] / 2
    add_block("Table Top", TOP_SIZE, (0.0, 0.0, top_z), wood, parent=table)

    leg_height = TABLE_HEIGHT - TOP_SIZE[2]
    leg_x = TOP_SIZE[0] / 2 - LEG_INSET - LEG_THICKNESS / 2
    leg_y = TOP_SIZE[1] / 2 - LEG_INSET - LEG_THICKNESS / 2
    for index, (sx, sy) in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1)), start=1):
        add_block(
            f"Leg {index}",
            (LEG_THICKNESS, LEG_THICKNESS, leg_height),
            (sx * leg_x, sy * leg_y, leg_height / 2),
            wood,
            parent=table,
        )
    return table


def aim(obj, target):
    obj.rotation_euler = (Vector(target) - obj.location).to_track_quat("-Z", "Y").to_euler()


def main():
    clear_scene()
    scene = bpy.context.scene

    build_table(make_material("Oak", (0.42, 0.24, 0.11), roughness=0.55))
    add_block("Floor", (10.0, 10.0, 0.02), (0.0, 0.0, -0.01), make_material("Floor", (0.75, 0.73, 0.7), 0.9))

    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    camera.location = (2.6, -3.4, 2.0)
    aim(camera, (0.0, 0.0, 0.45))
    scene.collection.objects.link(camera)
    scene.camera = camera

    lamp = bpy.data.objects.new("Key", bpy.data.lights.new("Key", "AREA"))
    lamp.data.energy = 300.0
    lamp.data.size = 2.0
    lamp.location = (1.5, -2.0, 3.0)
    aim(lamp, (0.0, 0.0, 0.5))
    scene.collection.objects.link(lamp)

    sun = bpy.data.objects.new("Sun", bpy.data.lights.new("Sun", "SUN"))
    sun.data.energy = 1.5
    sun.rotation_euler = (math.radians(45), 0.0, math.radians(-40))
    scene.collection.objects.link(sun)


main()
