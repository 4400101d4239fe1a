import bmesh
import bpy


def trunk(bm, height, detail=8):
    bmesh.ops.create_cone(bm, cap_ends=True, cap_tris=False, segments=detail / 2 + 4,
                          diameter1=0.3, diameter2=0.2, depth=height)


def crown(bm, size, detail=8):
    ret = bmesh.ops.create_icosphere(bm, subdivisions=detail / 4, diameter=size)
    bmesh.ops.translate(bm, verts=ret["verts"], vec=(0, 0, size * 1.5))


def make_tree(name, height=2.0, detail=8):
    bm = bmesh.new()
    trunk(bm, height, detail)
    crown(bm, height / 2, detail)
    me = bpy.data.meshes.new(name)
    bm.to_mesh(me)
    bm.free()
    ob = bpy.data.objects.new(name, me)
    bpy.context.scene.objects.link(ob)
    return ob
