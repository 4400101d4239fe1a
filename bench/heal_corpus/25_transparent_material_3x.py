# 3.x EEVEE: a semi-transparent plastic material with hashed shadows and screen-space refraction.
import bpy

bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=3, radius=1)
ball = bpy.context.object
mat = bpy.data.materials.new("Plastic")
mat.use_nodes = True
mat.blend_method = "BLEND"
mat.shadow_method = "HASHED"
mat.show_transparent_back = False
mat.use_screen_refraction = True
bsdf = mat.node_tree.nodes["Principled BSDF"]
bsdf.inputs["Alpha"].default_value = 0.4
ball.data.materials.append(mat)
bpy.context.scene.eevee.use_ssr_refraction = True
