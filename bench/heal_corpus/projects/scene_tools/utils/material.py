import bpy


def skin(name="Skin"):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    principled = mat.node_tree.nodes["Principled BSDF"]
    principled.inputs["Subsurface"].default_value = 0.3
    principled.inputs["Subsurface Color"].default_value = (0.9, 0.3, 0.3, 1)
    return mat
