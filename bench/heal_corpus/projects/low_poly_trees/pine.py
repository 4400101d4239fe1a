import bmesh
import bpy

levels = 5
bm = bmesh.new()
for i in range(levels):
    r = (levels - i) / 2.0
    ret = bmesh.ops.create_cone(bm, cap_ends=True, segments=levels * 3 / 2, diameter1=r, diameter2=0.0, depth=1.2)
    bmesh.ops.translate(bm, verts=ret["verts"], vec=(0, 0, i * 0.8 + 1))
me = bpy.data.meshes.new("Pine")
bm.to_mesh(me)
ob = bpy.data.objects.new("Pine", me)
bpy.context.scene.objects.link(ob)
