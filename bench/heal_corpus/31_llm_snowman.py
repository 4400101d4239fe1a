# LLM-style: a snowman with misremembered primitive parameters.
import bpy

bpy.ops.object.select_all(action="SELECT")
bpy.ops.object.delete()

body_sizes = [1.0, 0.7, 0.45]
z = 0.0
for i, size in enumerate(body_sizes):
    z += size
    bpy.ops.mesh.primitive_uv_sphere_add(size=size, location=(0, 0, z))
    bpy.context.active_object.name = f"Snow_{i}"
    z += size * 0.8

bpy.ops.mesh.primitive_cone_add(
    radius=0.08, depth=0.5, location=(0, -0.5, z - 0.45), rotation=(1.5708, 0, 0)
)
bpy.context.active_object.name = "Nose"
bpy.ops.mesh.primitive_cylinder_add(diameter=0.6, depth=0.4, location=(0, 0, z + 0.2))
bpy.context.active_object.name = "Hat"
