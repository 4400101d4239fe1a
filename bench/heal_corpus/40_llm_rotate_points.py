# LLM-style: place markers on a ring by rotating a vector with a quaternion.
import bpy
from mathutils import Quaternion, Vector
import math

base = Vector((2.0, 0.0, 0.0))
for i in range(8):
    q = Quaternion((0.0, 0.0, 1.0), i * math.pi / 4)
    p = q * base
    bpy.ops.mesh.primitive_ico_sphere_add(radius=0.15, location=p)
print(len(bpy.data.objects), "objects")
