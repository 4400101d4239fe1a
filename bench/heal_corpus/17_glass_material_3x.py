# Blender 3.x: a clear-coated glass sphere with the Principled BSDF (pre-4.0 socket names).
import bpy

bpy.ops.mesh.primitive_uv_sphere_add(radius=1.0, location=(0, 0, 1))
sphere = bpy.context.active_object
bpy.ops.object.shade_smooth()

mat = bpy.data.materials.new(name="Glass")
mat.use_nodes = True
bsdf = mat.node_tree.nodes["Principled BSDF"]
bsdf.inputs["Base Color"].default_value = (0.8, 0.9, 1.0, 1.0)
bsdf.inputs["Roughness"].default_value = 0.02
bsdf.inputs["Transmission"].default_value = 1.0
bsdf.inputs["Specular"].default_value = 0.6
bsdf.inputs["Clearcoat"].default_value = 0.4
bsdf.inputs["Clearcoat Roughness"].default_value = 0.05
bsdf.inputs["IOR"].default_value = 1.45
sphere.data.materials.append(mat)
