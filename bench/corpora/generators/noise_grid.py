"""A displaced grid: geometry nodes sample a noise field, store it as an attribute and offset points along it."""

import bpy


def link_chain(tree, *pairs):
    for out_socket, in_socket in pairs:
        tree.links.new(out_socket, in_socket)


def noise_grid_group(scale=3.0, strength=0.4):
    tree = bpy.data.node_groups.new("noise_grid", "GeometryNodeTree")
    tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    nodes = tree.nodes
    grid = nodes.new("GeometryNodeMeshGrid")
    grid.inputs["Size X"].default_value = 4.0
    grid.inputs["Size Y"].default_value = 4.0
    grid.inputs["Vertices X"].default_value = 40
    grid.inputs["Vertices Y"].default_value = 40
    position = nodes.new("GeometryNodeInputPosition")
    noise = nodes.new("ShaderNodeTexNoise")
    noise.noise_dimensions = "3D"
    noise.inputs["Scale"].default_value = scale
    height = nodes.new("ShaderNodeMath")
    height.operation = "MULTIPLY_ADD"
    height.inputs[1].default_value = strength
    height.inputs[2].default_value = -strength / 2
    offset = nodes.new("ShaderNodeCombineXYZ")
    store = nodes.new("GeometryNodeStoreNamedAttribute")
    store.data_type = "FLOAT"
    store.domain = "POINT"
    store.inputs["Name"].default_value = "height"
    set_position = nodes.new("GeometryNodeSetPosition")
    out = nodes.new("NodeGroupOutput")
    link_chain(
        tree,
        (position.outputs["Position"], noise.inputs["Vector"]),
        (noise.outputs["Fac"], height.inputs[0]),
        (height.outputs["Value"], offset.inputs["Z"]),
        (grid.outputs["Mesh"], store.inputs["Geometry"]),
        (height.outputs["Value"], store.inputs["Value"]),
        (store.outputs["Geometry"], set_position.inputs["Geometry"]),
        (offset.outputs["Vector"], set_position.inputs["Offset"]),
        (set_position.outputs["Geometry"], out.inputs["Geometry"]),
    )
    return tree


host = bpy.data.objects.new("noise_grid", bpy.data.meshes.new("noise_grid"))
bpy.context.scene.collection.objects.link(host)
host.modifiers.new("grid", "NODES").node_group = noise_grid_group()
evaluated = host.evaluated_get(bpy.context.evaluated_depsgraph_get()).data
print("grid:", len(evaluated.vertices), "vertices, attribute:", "height" in evaluated.attributes)
