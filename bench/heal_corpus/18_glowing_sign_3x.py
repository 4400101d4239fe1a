# 3.x: a glowing neon sign - emission on the Principled BSDF, subsurface for the tube look.
import bpy

bpy.ops.curve.primitive_bezier_circle_add(radius=1.5, location=(0, 0, 1))
sign = bpy.context.object
sign.data.bevel_depth = 0.05
sign.rotation_euler.x = 1.5708

mat = bpy.data.materials.new("Neon")
mat.use_nodes = True
nodes = mat.node_tree.nodes
principled = nodes.get("Principled BSDF")
principled.inputs["Emission"].default_value = (1.0, 0.1, 0.6, 1.0)
principled.inputs["Emission Strength"].default_value = 8.0
principled.inputs["Subsurface"].default_value = 0.3
principled.inputs["Subsurface Color"].default_value = (1.0, 0.2, 0.7, 1.0)
sign.data.materials.append(mat)
