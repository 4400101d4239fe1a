# 2.7x bmesh: an icosphere with a cone on top built with bmesh.ops, then the tip vertex pulled up.
import bpy
import bmesh
from mathutils import Matrix

mesh = bpy.data.meshes.new("Blob")
bm = bmesh.new()
bmesh.ops.create_icosphere(bm, subdivisions=3, diameter=1.0)
bmesh.ops.create_cone(
    bm,
    cap_ends=True,
    segments=16,
    diameter1=0.6,
    diameter2=0.0,
    depth=1.5,
    matrix=Matrix.Translation((0, 0, 1.5)),
)
tip = max(bm.verts, key=lambda v: v.co.z)
bm.verts.index_update()
bm.verts[tip.index].co.z += 0.5
bm.to_mesh(mesh)
bm.free()

ob = bpy.data.objects.new("Blob", mesh)
bpy.context.scene.objects.link(ob)
