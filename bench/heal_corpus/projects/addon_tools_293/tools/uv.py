import bpy


def grid_material(name="UVGrid"):
    img = bpy.data.images.new(name, 256, 256)
    img.generated_type = 'UV_GRID'
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    tex = mat.node_tree.nodes.new('ShaderNodeTexImage')
    tex.image = img
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    bsdf.inputs["Specular"].default_value = 0.1
    return mat
