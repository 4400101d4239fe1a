"""Scatter rocks over a ground plane with a geometry-node group built through a small node-wrangler class."""

import random

import bpy
import numpy as np


class Nodes:
    """Node type names, spelled once."""

    GroupInput = "NodeGroupInput"
    GroupOutput = "NodeGroupOutput"
    DistributePoints = "GeometryNodeDistributePointsOnFaces"
    InstanceOnPoints = "GeometryNodeInstanceOnPoints"
    RandomValue = "FunctionNodeRandomValue"
    IcoSphere = "GeometryNodeMeshIcoSphere"
    JoinGeometry = "GeometryNodeJoinGeometry"
    SetMaterial = "GeometryNodeSetMaterial"
    RealizeInstances = "GeometryNodeRealizeInstances"


class NodeWrangler:
    """Adds nodes to a tree and links their inputs from keyword arguments."""

    def __init__(self, tree):
        self.tree = tree
        self.nodes = tree.nodes
        self.links = tree.links

    def new_node(self, node_type, input_kwargs=None, attrs=None, label=None):
        node = self.nodes.new(node_type)
        for name, value in (attrs or {}).items():
            setattr(node, name, value)
        for key, value in (input_kwargs or {}).items():
            socket = node.inputs[key]
            if isinstance(value, bpy.types.Node):
                value = value.outputs[0]
            if hasattr(value, "is_output"):
                self.links.new(value, socket)
            else:
                socket.default_value = value
        if label:
            node.label = label
        return node


def rock_material(seed):
    rng = np.random.default_rng(seed)
    mat = bpy.data.materials.new(f"rock_{seed}")
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    grey = float(rng.uniform(0.25, 0.45))
    bsdf.inputs["Base Color"].default_value = (grey, grey * 0.95, grey * 0.9, 1.0)
    bsdf.inputs["Roughness"].default_value = float(rng.uniform(0.6, 0.9))
    return mat


def build_scatter_group(material, density=20.0, seed=0):
    group = bpy.data.node_groups.new("rock_scatter", "GeometryNodeTree")
    group.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
    group.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    nw = NodeWrangler(group)
    group_input = nw.new_node(Nodes.GroupInput)
    points = nw.new_node(
        Nodes.DistributePoints,
        input_kwargs={"Mesh": group_input.outputs["Geometry"], "Density": density, "Seed": seed},
    )
    rock = nw.new_node(Nodes.IcoSphere, input_kwargs={"Radius": 0.2, "Subdivisions": 2})
    scale = nw.new_node(Nodes.RandomValue, attrs={"data_type": "FLOAT_VECTOR"})
    scale.inputs["Min"].default_value = (0.4, 0.4, 0.3)
    scale.inputs["Max"].default_value = (1.2, 1.0, 0.8)
    rotation = nw.new_node(Nodes.RandomValue, attrs={"data_type": "FLOAT_VECTOR"})
    rotation.inputs["Max"].default_value = (0.3, 0.3, 6.28)
    instances = nw.new_node(
        Nodes.InstanceOnPoints,
        input_kwargs={
            "Points": points.outputs["Points"],
            "Instance": rock.outputs["Mesh"],
            "Rotation": rotation.outputs[0],
            "Scale": scale.outputs[0],
        },
    )
    realized = nw.new_node(Nodes.RealizeInstances, input_kwargs={"Geometry": instances})
    shaded = nw.new_node(Nodes.SetMaterial, input_kwargs={"Geometry": realized.outputs[0], "Material": material})
    joined = nw.new_node(Nodes.JoinGeometry)
    group.links.new(group_input.outputs["Geometry"], joined.inputs["Geometry"])
    group.links.new(shaded.outputs["Geometry"], joined.inputs["Geometry"])
    group_output = nw.new_node(Nodes.GroupOutput)
    group.links.new(joined.outputs[0], group_output.inputs[0])
    return group


def main(seed=3):
    random.seed(seed)
    bpy.ops.mesh.primitive_plane_add(size=8)
    ground = bpy.context.active_object
    ground.name = "ground"
    group = build_scatter_group(rock_material(seed), density=6.0, seed=seed)
    modifier = ground.modifiers.new("rocks", "NODES")
    modifier.node_group = group
    evaluated = ground.evaluated_get(bpy.context.evaluated_depsgraph_get())
    print("rock scatter vertices:", len(evaluated.data.vertices))


main()
