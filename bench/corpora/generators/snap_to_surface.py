"""Snap scattered points to a surface with proximity, raycast and nearest-surface sampling nodes."""

import bpy


def new_group(name):
    group = bpy.data.node_groups.new(name, "GeometryNodeTree")
    group.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
    group.interface.new_socket("Target", in_out="INPUT", socket_type="NodeSocketObject")
    group.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    return group


def build_snap(name):
    group = new_group(name)
    nodes, links = group.nodes, group.links
    gin = nodes.new("NodeGroupInput")
    gout = nodes.new("NodeGroupOutput")
    info = nodes.new("GeometryNodeObjectInfo")
    info.transform_space = "RELATIVE"
    position = nodes.new("GeometryNodeInputPosition")
    proximity = nodes.new("GeometryNodeProximity")
    proximity.target_element = "FACES"
    links.new(gin.outputs["Target"], info.inputs["Object"])
    links.new(info.outputs["Geometry"], proximity.inputs["Target"])
    links.new(position.outputs["Position"], proximity.inputs["Source Position"])
    raycast = nodes.new("GeometryNodeRaycast")
    links.new(info.outputs["Geometry"], raycast.inputs["Target Geometry"])
    links.new(position.outputs["Position"], raycast.inputs["Source Position"])
    raycast.inputs["Ray Direction"].default_value = (0.0, 0.0, -1.0)
    raycast.inputs["Ray Length"].default_value = 10.0
    mix = nodes.new("ShaderNodeMix")
    mix.data_type = "VECTOR"
    mix.inputs["Factor"].default_value = 0.5
    links.new(proximity.outputs["Position"], mix.inputs["A"])
    links.new(raycast.outputs["Hit Position"], mix.inputs["B"])
    set_position = nodes.new("GeometryNodeSetPosition")
    links.new(gin.outputs["Geometry"], set_position.inputs["Geometry"])
    links.new(mix.outputs["Result"], set_position.inputs["Position"])
    links.new(set_position.outputs["Geometry"], gout.inputs["Geometry"])
    return group


bpy.ops.mesh.primitive_uv_sphere_add(radius=1.0)
target = bpy.context.active_object
bpy.ops.mesh.primitive_grid_add(x_subdivisions=10, y_subdivisions=10, size=3, location=(0, 0, 2))
grid = bpy.context.active_object
modifier = grid.modifiers.new("snap", "NODES")
modifier.node_group = build_snap("snap_to_surface")
socket = modifier.node_group.interface.items_tree["Target"]
modifier[socket.identifier] = target
bpy.context.view_layer.update()
print("snapped:", len(grid.evaluated_get(bpy.context.evaluated_depsgraph_get()).data.vertices))
