# 3.x: a velvet cushion - a flattened subdivided cube mixing Velvet and Diffuse BSDFs.
import bpy

bpy.ops.mesh.primitive_cube_add(size=1.0)
cushion = bpy.context.active_object
cushion.scale = (1.0, 1.0, 0.25)
cushion.modifiers.new("Subdiv", "SUBSURF").levels = 3

mat = bpy.data.materials.new("Velvet")
mat.use_nodes = True
nodes, links = mat.node_tree.nodes, mat.node_tree.links
velvet = nodes.new("ShaderNodeBsdfVelvet")
velvet.inputs["Color"].default_value = (0.5, 0.02, 0.1, 1.0)
diffuse = nodes.new("ShaderNodeBsdfDiffuse")
mix = nodes.new("ShaderNodeMixShader")
mix.inputs["Fac"].default_value = 0.3
links.new(velvet.outputs[0], mix.inputs[1])
links.new(diffuse.outputs[0], mix.inputs[2])
links.new(mix.outputs[0], nodes["Material Output"].inputs["Surface"])
cushion.data.materials.append(mat)
