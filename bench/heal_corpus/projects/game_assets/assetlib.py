import bpy


def make_crate(size=1.0):
    bpy.ops.mesh.primitive_cube_add(size=size)
    crate = bpy.context.active_object
    bevel = crate.modifiers.new("bevel", 'BEVEL')
    bevel.width = size * 0.05
    return crate


def make_barrel(radius=0.5, height=1.2):
    bpy.ops.mesh.primitive_cylinder_add(vertices=24, radius=radius, depth=height)
    return bpy.context.active_object
