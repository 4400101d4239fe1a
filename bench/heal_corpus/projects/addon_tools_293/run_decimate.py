import bpy
from tools import mesh_ops

bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=4)
ob = bpy.context.active_object
mesh_ops.decimate(ob, 0.3)
print("top faces:", mesh_ops.top_faces(ob))
