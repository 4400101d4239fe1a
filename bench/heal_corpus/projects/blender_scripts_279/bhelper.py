import bpy
from mathutils import Vector


def new_material(name, color):
    mat = bpy.data.materials.get(name) or bpy.data.materials.new(name)
    mat.diffuse_color = color
    return mat


def add_sphere(location, size):
    bpy.ops.mesh.primitive_uv_sphere_add(size=size, location=location)
    ob = bpy.context.scene.objects.active
    return ob


def add_cube(location, size):
    bpy.ops.mesh.primitive_cube_add(radius=size, location=location)
    return bpy.context.scene.objects.active


def cursor_to(co):
    bpy.context.scene.cursor_location = Vector(co)
