import bpy


def colored(name, rgb):
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = rgb
    return mat


def bar(x, height, mat):
    bpy.ops.mesh.primitive_cube_add(radius=0.4, location=(x, 0, height / 2.0))
    ob = bpy.context.active_object
    ob.scale.z = height / 0.8
    ob.data.materials.append(mat)
    return ob
