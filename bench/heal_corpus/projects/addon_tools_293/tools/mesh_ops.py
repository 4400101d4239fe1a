import bpy
import bmesh


def decimate(ob, ratio=0.5):
    mod = ob.modifiers.new("Decimate", 'DECIMATE')
    mod.ratio = ratio
    bpy.context.view_layer.objects.active = ob
    bpy.ops.object.modifier_apply(apply_as='DATA', modifier=mod.name)


def top_faces(ob):
    bm = bmesh.new()
    bm.from_mesh(ob.data)
    faces = [bm.faces[i] for i in range(len(bm.faces)) if bm.faces[i].normal.z > 0.5]
    count = len(faces)
    bm.free()
    return count
