"""A field of flowers: petals from a 2D filled curve, stems from curve lines, scattered by a geometry-node group."""

import math

import bpy


class N:
    """Short names for the node types this generator uses."""

    GroupInput = "NodeGroupInput"
    GroupOutput = "NodeGroupOutput"
    Distribute = "GeometryNodeDistributePointsOnFaces"
    Instance = "GeometryNodeInstanceOnPoints"
    ObjectInfo = "GeometryNodeObjectInfo"
    Random = "FunctionNodeRandomValue"
    InputNormal = "GeometryNodeInputNormal"
    AlignRotation = "FunctionNodeAlignRotationToVector"


def petal_object(name, length=0.25, width=0.08):
    curve = bpy.data.curves.new(name, "CURVE")
    curve.dimensions = "2D"
    curve.fill_mode = "BOTH"
    spline = curve.splines.new("BEZIER")
    spline.bezier_points.add(1)
    spline.bezier_points[0].co = (0.0, 0.0, 0.0)
    spline.bezier_points[1].co = (0.0, length, 0.0)
    for point, side in zip(spline.bezier_points, (1, -1)):
        point.handle_left = (width * side, point.co.y - 0.05, 0.0)
        point.handle_right = (-width * side, point.co.y + 0.05, 0.0)
    spline.use_cyclic_u = True
    obj = bpy.data.objects.new(name, curve)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def flower_object(name, petals=6):
    stem = bpy.data.curves.new(f"{name}_stem", "CURVE")
    stem.dimensions = "3D"
    stem.bevel_depth = 0.01
    line = stem.splines.new("POLY")
    line.points.add(1)
    line.points[1].co = (0.0, 0.0, 0.5, 1.0)
    flower = bpy.data.objects.new(name, stem)
    bpy.context.scene.collection.objects.link(flower)
    for i in range(petals):
        petal = petal_object(f"{name}_petal_{i}")
        petal.parent = flower
        petal.location = (0.0, 0.0, 0.5)
        petal.rotation_euler = (math.radians(60), 0.0, i * 2 * math.pi / petals)
    return flower


def add(tree, kind, **inputs):
    node = tree.nodes.new(kind)
    for key, value in inputs.items():
        node.inputs[key].default_value = value
    return node


def scatter_group(flower):
    tree = bpy.data.node_groups.new("flower_field", "GeometryNodeTree")
    tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
    tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    gin, gout = add(tree, N.GroupInput), add(tree, N.GroupOutput)
    points = add(tree, N.Distribute, Density=3.0)
    info = add(tree, N.ObjectInfo)
    info.inputs["Object"].default_value = flower
    info.transform_space = "RELATIVE"
    normal = add(tree, N.InputNormal)
    align = add(tree, N.AlignRotation)
    align.axis = "Z"
    scale = add(tree, N.Random, Min=0.6, Max=1.3)
    instances = add(tree, N.Instance)
    links = tree.links
    links.new(gin.outputs["Geometry"], points.inputs["Mesh"])
    links.new(points.outputs["Points"], instances.inputs["Points"])
    links.new(info.outputs["Geometry"], instances.inputs["Instance"])
    links.new(normal.outputs["Normal"], align.inputs["Vector"])
    links.new(align.outputs["Rotation"], instances.inputs["Rotation"])
    links.new(scale.outputs["Value"], instances.inputs["Scale"])
    join = add(tree, "GeometryNodeJoinGeometry")
    links.new(gin.outputs["Geometry"], join.inputs["Geometry"])
    links.new(instances.outputs["Instances"], join.inputs["Geometry"])
    links.new(join.outputs["Geometry"], gout.inputs["Geometry"])
    return tree


flower = flower_object("flower")
flower.hide_render = True
bpy.ops.mesh.primitive_plane_add(size=4, location=(0, 0, -1))
field = bpy.context.active_object
field.modifiers.new("flowers", "NODES").node_group = scatter_group(flower)
depsgraph = bpy.context.evaluated_depsgraph_get()
print("field vertices:", len(field.evaluated_get(depsgraph).data.vertices))
