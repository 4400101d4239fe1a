import bpy


def concrete(name="Concrete", color=(0.5, 0.5, 0.5, 1.0)):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    principled = mat.node_tree.nodes["Principled BSDF"]
    principled.inputs["Base Color"].default_value = color
    principled.inputs["Specular"].default_value = 0.2
    return mat


def glass(name="Glass"):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    principled = mat.node_tree.nodes["Principled BSDF"]
    principled.inputs["Transmission"].default_value = 1.0
    principled.inputs["Subsurface"].default_value = 0.0
    return mat
