import os
import sys
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

import bpy
import bmesh
import mylib

steps = 12
bm = bmesh.new()
for i in range(steps):
    ret = bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.translate(bm, verts=ret["verts"], vec=(0, i * 0.3, i * 0.2))
mylib.link_new("Stairs", bm)
bpy.context.scene.update()
