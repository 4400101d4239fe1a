"""A procedural generator in the style of real-world scripts (helper class, numpy, node builders, guards): it runs on 4.5."""

import bpy
import numpy as np
from mathutils import Matrix, Vector


class NodeHelper:
    def __init__(self, tree):
        self.tree = tree
        self.nodes = tree.nodes
        self.links = tree.links

    def new_node(self, node_type, inputs=None, attrs=None):
        node = self.nodes.new(node_type)
        for k, v in (attrs or {}).items():
            setattr(node, k, v)
        for k, v in (inputs or {}).items():
            if isinstance(v, bpy.types.NodeSocket):
                self.links.new(v, node.inputs[k])
            else:
                node.inputs[k].default_value = v
        return node


def make_pair(h):
    a = h.new_node("ShaderNodeMath", attrs={"operation": "MULTIPLY"})
    b = h.new_node("ShaderNodeMath")
    return a, b


def shader_bark(mat, rng):
    mat.use_nodes = True
    h = NodeHelper(mat.node_tree)
    tex = h.new_node("ShaderNodeTexNoise", inputs={"Scale": float(rng.uniform(2, 5))})
    ramp = mat.node_tree.nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].color = (0.1, 0.05, 0.02, 1.0)
    for node in mat.node_tree.nodes:
        if node.type == "VALTORGB":
            node.color_ramp.interpolation = "EASE"
        if node.bl_idname == "ShaderNodeMath":
            node.operation = "ADD"
    a, b = make_pair(h)
    mat.node_tree.links.new(tex.outputs["Fac"], ramp.inputs["Fac"])
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    key = "Specular IOR Level" if bpy.app.version >= (4, 0, 0) else "Specular"
    bsdf.inputs[key].default_value = 0.3
    if bpy.app.version < (4, 0, 0):
        bsdf.inputs["Subsurface Color"].default_value = (1, 1, 1, 1)
    return a


def geo_scatter(obj, kind="GeometryNodeMeshIcoSphere", domain="POINT"):
    mod = obj.modifiers.new("scatter", "NODES")
    tree = bpy.data.node_groups.new("scatter", "GeometryNodeTree")
    tree.interface.new_socket("Geometry", in_out="INPUT", socket_type="NodeSocketGeometry")
    tree.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    mod.node_group = tree
    gi = tree.nodes.new("NodeGroupInput")
    go = tree.nodes.new("NodeGroupOutput")
    inst = tree.nodes.new(kind)
    store = tree.nodes.new("GeometryNodeStoreNamedAttribute")
    store.data_type = "FLOAT"
    store.domain = domain
    val = tree.nodes.new("FunctionNodeInputInt")
    val.integer = 3
    tree.links.new(gi.outputs[0], store.inputs[0])
    tree.links.new(store.outputs[0], go.inputs[0])
    return inst


rng = np.random.default_rng(0)
bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=3)
obj = bpy.context.active_object
obj.location = np.array([0.0, 0.0, 1.0])
obj.scale = rng.uniform(0.5, 1.5, size=3)
obj.rotation_euler[2] = np.float32(0.3)
mesh = obj.data
co = np.zeros(len(mesh.vertices) * 3)
mesh.vertices.foreach_get("co", co)
co = co.reshape(-1, 3) * 1.1
mesh.vertices.foreach_set("co", co.ravel())
for v in mesh.vertices:
    v.co = v.co + Vector(rng.normal(0, 0.01, 3))
attr = mesh.attributes.new("height", "FLOAT", "POINT")
attr.data.foreach_set("value", co[:, 2])
for i, item in enumerate(mesh.attributes["height"].data):
    item.value = float(co[i, 2])
d = (obj.matrix_world @ Vector((0, 0, 1)) - obj.location).normalized()
n = d.cross(Vector((1, 0, 0))).normalized()
print(n.length, (Matrix.Rotation(0.2, 4, "Z") @ obj.matrix_world).translation.length)
mat = bpy.data.materials.new("bark")
shader_bark(mat, rng)
obj.data.materials.append(mat)
geo_scatter(obj)
if hasattr(mesh, "use_auto_smooth"):
    mesh.use_auto_smooth = True
try:
    mesh.auto_smooth_angle = 0.5
except AttributeError:
    pass
mode = "OBJECT"
bpy.ops.object.mode_set(mode=mode)
