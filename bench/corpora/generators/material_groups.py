"""A material library built from shader node groups: a reusable 'weathering' group instanced in several materials."""

import bpy


def group_socket(group, name, in_out, kind, default=None):
    socket = group.interface.new_socket(name, in_out=in_out, socket_type=kind)
    if default is not None:
        socket.default_value = default
    return socket


def weathering_group():
    group = bpy.data.node_groups.new("weathering", "ShaderNodeTree")
    group_socket(group, "Color", "INPUT", "NodeSocketColor", (0.5, 0.5, 0.5, 1.0))
    group_socket(group, "Amount", "INPUT", "NodeSocketFloat", 0.3)
    group_socket(group, "Color", "OUTPUT", "NodeSocketColor")
    nodes, links = group.nodes, group.links
    gin, gout = nodes.new("NodeGroupInput"), nodes.new("NodeGroupOutput")
    noise = nodes.new("ShaderNodeTexNoise")
    noise.inputs["Scale"].default_value = 12.0
    ramp = nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].position = 0.45
    ramp.color_ramp.elements[1].position = 0.6
    scale = nodes.new("ShaderNodeMath")
    scale.operation = "MULTIPLY"
    mix = nodes.new("ShaderNodeMix")
    mix.data_type = "RGBA"
    mix.blend_type = "DARKEN"
    links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
    links.new(ramp.outputs["Color"], scale.inputs[0])
    links.new(gin.outputs["Amount"], scale.inputs[1])
    links.new(scale.outputs["Value"], mix.inputs["Factor"])
    links.new(gin.outputs["Color"], mix.inputs["A"])
    mix.inputs["B"].default_value = (0.1, 0.08, 0.05, 1.0)
    links.new(mix.outputs["Result"], gout.inputs["Color"])
    return group


def weathered_material(name, color, amount, group):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    tree = mat.node_tree
    node = tree.nodes.new("ShaderNodeGroup")
    node.node_tree = group
    node.inputs["Color"].default_value = color
    node.inputs["Amount"].default_value = amount
    tree.links.new(node.outputs["Color"], tree.nodes["Principled BSDF"].inputs["Base Color"])
    return mat


group = weathering_group()
library = [weathered_material(n, c, a, group) for n, c, a in (("painted_metal", (0.2, 0.3, 0.6, 1), 0.4), ("plaster", (0.9, 0.88, 0.8, 1), 0.2))]
for i, mat in enumerate(library):
    bpy.ops.mesh.primitive_cube_add(location=(i * 2.5, 0, 0))
    bpy.context.active_object.data.materials.append(mat)
print("library:", [m.name for m in library], "group users:", group.users)
