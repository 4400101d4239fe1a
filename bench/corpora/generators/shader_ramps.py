"""Procedural marble and wood materials from helper functions that return the nodes they add."""

import bpy
import numpy as np


def add_node(tree, node_type, location=(0, 0), **attrs):
    node = tree.nodes.new(node_type)
    node.location = location
    for key, value in attrs.items():
        setattr(node, key, value)
    return node


def link(tree, from_socket, to_socket):
    tree.links.new(from_socket, to_socket)


def make_ramp(tree, colors, positions, location=(0, 0)):
    ramp = add_node(tree, "ShaderNodeValToRGB", location)
    ramp.color_ramp.interpolation = "EASE"
    elements = ramp.color_ramp.elements
    while len(elements) < len(colors):
        elements.new(0.5)
    for element, color, pos in zip(elements, colors, positions):
        element.position = pos
        element.color = (*color, 1.0)
    return ramp


def marble(name, seed):
    rng = np.random.default_rng(seed)
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    tree = mat.node_tree
    bsdf = tree.nodes["Principled BSDF"]
    coords = add_node(tree, "ShaderNodeTexCoord", (-900, 0))
    mapping = add_node(tree, "ShaderNodeMapping", (-700, 0))
    mapping.inputs["Scale"].default_value = rng.uniform(0.5, 2.0, 3)
    noise = add_node(tree, "ShaderNodeTexNoise", (-500, 0), noise_dimensions="4D")
    noise.inputs["Scale"].default_value = 4.0
    noise.inputs["Detail"].default_value = 12.0
    wave = add_node(tree, "ShaderNodeTexWave", (-300, 0), wave_type="BANDS", bands_direction="DIAGONAL")
    ramp = make_ramp(tree, [(0.9, 0.9, 0.88), (0.3, 0.3, 0.32), (0.95, 0.95, 0.95)], [0.0, 0.5, 1.0], (-100, 0))
    bump = add_node(tree, "ShaderNodeBump", (-100, -300))
    bump.inputs["Strength"].default_value = 0.05
    link(tree, coords.outputs["Object"], mapping.inputs["Vector"])
    link(tree, mapping.outputs["Vector"], noise.inputs["Vector"])
    link(tree, noise.outputs["Fac"], wave.inputs["Distortion"])
    link(tree, wave.outputs["Fac"], ramp.inputs["Fac"])
    link(tree, ramp.outputs["Color"], bsdf.inputs["Base Color"])
    link(tree, wave.outputs["Fac"], bump.inputs["Height"])
    link(tree, bump.outputs["Normal"], bsdf.inputs["Normal"])
    return mat


def wood(name):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    tree = mat.node_tree
    bsdf = tree.nodes["Principled BSDF"]
    wave = add_node(tree, "ShaderNodeTexWave", (-500, 0), wave_type="RINGS", rings_direction="Z")
    wave.inputs["Scale"].default_value = 3.0
    mix = add_node(tree, "ShaderNodeMix", (-300, 0), data_type="RGBA", blend_type="MULTIPLY")
    mix.inputs["A"].default_value = (0.45, 0.25, 0.1, 1.0)
    mix.inputs["B"].default_value = (0.3, 0.15, 0.05, 1.0)
    link(tree, wave.outputs["Fac"], mix.inputs["Factor"])
    link(tree, mix.outputs["Result"], bsdf.inputs["Base Color"])
    return mat


for i, maker in enumerate((lambda: marble("marble", 7), lambda: wood("oak"))):
    bpy.ops.mesh.primitive_uv_sphere_add(location=(i * 2.5, 0, 0))
    bpy.context.active_object.data.materials.append(maker())
print("materials:", [m.name for m in bpy.data.materials])
