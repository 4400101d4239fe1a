import bpy


def point(x, y, z, size=0.1):
    bpy.ops.mesh.primitive_uv_sphere_add(size=size, location=(x, y, z))
    return bpy.context.active_object
