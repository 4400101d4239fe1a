# LLM-style: a low-poly pine tree (forgot to import math).
import bpy

bpy.ops.object.select_all(action="SELECT")
bpy.ops.object.delete()

bpy.ops.mesh.primitive_cylinder_add(
    vertices=8, radius=0.15, depth=1.0, location=(0, 0, 0.5)
)
trunk = bpy.context.active_object
trunk.name = "Trunk"

for i, (radius, height) in enumerate([(1.2, 1.4), (0.9, 2.2), (0.6, 2.9)]):
    bpy.ops.mesh.primitive_cone_add(
        vertices=8, radius1=radius, depth=1.2, location=(0, 0, height)
    )
    cone = bpy.context.active_object
    cone.rotation_euler[2] = math.radians(15 * i)
    cone.name = f"Foliage_{i}"
