# 3.x: a terrain material driven by a Musgrave texture into a colour ramp.
import bpy

bpy.ops.mesh.primitive_grid_add(x_subdivisions=64, y_subdivisions=64, size=10)
terrain = bpy.context.active_object

mat = bpy.data.materials.new("Terrain")
mat.use_nodes = True
nt = mat.node_tree
musgrave = nt.nodes.new("ShaderNodeTexMusgrave")
musgrave.inputs["Scale"].default_value = 3.0
musgrave.inputs["Detail"].default_value = 8.0
ramp = nt.nodes.new("ShaderNodeValToRGB")
ramp.color_ramp.elements[0].color = (0.05, 0.2, 0.05, 1)
ramp.color_ramp.elements[1].color = (0.6, 0.55, 0.45, 1)
nt.links.new(musgrave.outputs["Fac"], ramp.inputs["Fac"])
nt.links.new(ramp.outputs["Color"], nt.nodes["Principled BSDF"].inputs["Base Color"])
terrain.data.materials.append(mat)
