# 3.x: a satin fabric - sheen and specular tints on the Principled BSDF (floats before 4.0).
import bpy

bpy.ops.mesh.primitive_plane_add(size=4)
cloth = bpy.context.object
mat = bpy.data.materials.new("Satin")
mat.use_nodes = True
bsdf = mat.node_tree.nodes["Principled BSDF"]
bsdf.inputs["Base Color"].default_value = (0.7, 0.6, 0.9, 1)
bsdf.inputs["Sheen"].default_value = 0.8
bsdf.inputs["Sheen Tint"].default_value = 0.5
bsdf.inputs["Specular Tint"].default_value = 0.3
bsdf.inputs["Roughness"].default_value = 0.35
cloth.data.materials.append(mat)
