"""Crystal clusters: a geometry-node group carves random prisms with a Mesh Boolean node and a helper picks inputs."""

import bpy
import numpy as np


def io_node(tree, kind):
    """The group's input or output node, or a constant input node of the kind asked for."""
    if kind == "input":
        return tree.nodes.new("NodeGroupInput")
    if kind == "output":
        return tree.nodes.new("NodeGroupOutput")
    if kind == "int":
        return tree.nodes.new("FunctionNodeInputInt")
    return tree.nodes.new("FunctionNodeInputVector")


def nodegroup_crystal(name, sides, seed):
    tree = bpy.data.node_groups.new(name, "GeometryNodeTree")
    tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    count = io_node(tree, "int")
    count.integer = sides
    offset = io_node(tree, "vector")
    offset.vector = (0.1, 0.0, 0.4)
    prism = tree.nodes.new("GeometryNodeMeshCylinder")
    prism.fill_type = "TRIANGLE_FAN"
    prism.inputs["Radius"].default_value = 0.3
    prism.inputs["Depth"].default_value = 2.0
    tree.links.new(count.outputs[0], prism.inputs["Vertices"])
    cutter = tree.nodes.new("GeometryNodeMeshCube")
    cutter.inputs["Size"].default_value = (1.0, 1.0, 1.0)
    move = tree.nodes.new("GeometryNodeTransform")
    tree.links.new(cutter.outputs["Mesh"], move.inputs["Geometry"])
    tree.links.new(offset.outputs[0], move.inputs["Translation"])
    move.inputs["Rotation"].default_value = tuple(np.random.default_rng(seed).uniform(0.2, 0.8, 3))
    boolean = tree.nodes.new("GeometryNodeMeshBoolean")
    boolean.operation = "DIFFERENCE"
    boolean.solver = "FLOAT"
    tree.links.new(prism.outputs["Mesh"], boolean.inputs["Mesh 1"])
    tree.links.new(move.outputs["Geometry"], boolean.inputs["Mesh 2"])
    out = io_node(tree, "output")
    tree.links.new(boolean.outputs["Mesh"], out.inputs["Geometry"])
    return tree


def crystal_material():
    mat = bpy.data.materials.new("crystal")
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Transmission Weight"].default_value = 0.9
    bsdf.inputs["Roughness"].default_value = 0.05
    bsdf.inputs["IOR"].default_value = 1.55
    return mat


rng = np.random.default_rng(11)
material = crystal_material()
for i in range(4):
    mesh = bpy.data.meshes.new(f"crystal_{i}")
    obj = bpy.data.objects.new(f"crystal_{i}", mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = (float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1)), 0.0)
    obj.rotation_euler = tuple(rng.uniform(-0.4, 0.4, 3))
    obj.scale = (1.0, 1.0, float(rng.uniform(0.6, 1.4)))
    modifier = obj.modifiers.new("crystal", "NODES")
    modifier.node_group = nodegroup_crystal(f"crystal_group_{i}", int(rng.integers(5, 8)), i)
    obj.data.materials.append(material)
depsgraph = bpy.context.evaluated_depsgraph_get()
print("crystal faces:", sum(len(o.evaluated_get(depsgraph).data.polygons) for o in bpy.data.objects if o.name.startswith("crystal")))
