import random
import bpy
import bmesh

size = 20
bpy.ops.mesh.primitive_grid_add(x_subdivisions=size, y_subdivisions=size, radius=10)
ob = bpy.context.active_object
bm = bmesh.new()
bm.from_mesh(ob.data)
random.seed(2)
for v in bm.verts:
    v.co.z = random.random() * 0.8
bm.to_mesh(ob.data)
