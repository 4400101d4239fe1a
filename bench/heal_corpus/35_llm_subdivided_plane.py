# LLM-style: subdivide and randomise a plane with mesh operators (forgot to enter edit mode).
import bpy
import random

bpy.ops.mesh.primitive_plane_add(size=6)
plane = bpy.context.active_object
bpy.ops.mesh.subdivide(number_cuts=12)
bpy.ops.mesh.vertices_smooth(factor=0.5)
for v in plane.data.vertices:
    v.co.z = random.uniform(0.0, 0.3)
print(len(plane.data.vertices), "vertices")
