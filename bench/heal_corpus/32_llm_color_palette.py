# LLM-style: a palette of coloured cubes; colours given as RGB triples.
import bpy

palette = {
    "Coral": (1.0, 0.5, 0.31),
    "Teal": (0.0, 0.5, 0.5),
    "Gold": (1.0, 0.84, 0.0),
}
for i, (name, rgb) in enumerate(palette.items()):
    bpy.ops.mesh.primitive_cube_add(size=1, location=(i * 1.5, 0, 0))
    cube = bpy.context.active_object
    cube.name = name
    cube.color = rgb
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = rgb
    mat.use_nodes = True
    mat.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = rgb
    cube.data.materials.append(mat)
