import math
import bmesh
import bpy

values = [30, 20, 50]
total = float(sum(values))
start = 0.0
for i, v in enumerate(values):
    bm = bmesh.new()
    bmesh.ops.create_circle(bm, cap_ends=True, segments=v / 2, diameter=2.0)
    me = bpy.data.meshes.new("slice%d" % i)
    bm.to_mesh(me)
    ob = bpy.data.objects.new("slice%d" % i, me)
    ob.rotation_euler.z = start
    start += 2 * math.pi * v / total
    bpy.context.scene.objects.link(ob)
