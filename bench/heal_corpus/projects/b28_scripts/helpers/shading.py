import bpy


def smooth(ob, angle=0.6):
    ob.data.use_auto_smooth = True
    ob.data.auto_smooth_angle = angle
    for p in ob.data.polygons:
        p.use_smooth = True


def emission(name, color, strength=10.0):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Emission"].default_value = color
    bsdf.inputs["Emission Strength"].default_value = strength
    return mat


def clear_glass(name="Bottle"):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Transmission"].default_value = 1.0
    bsdf.inputs["Roughness"].default_value = 0.02
    mat.blend_method = 'BLEND'
    return mat
