import bpy
from lights import threePoint

bpy.ops.mesh.primitive_uv_sphere_add(segments=32, ring_count=16)
key, fill, rim = threePoint()
key.data.size = 2.0
