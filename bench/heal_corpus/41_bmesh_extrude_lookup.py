# bmesh (2.7x habits): extrude the top face of a cube twice, indexing faces without a lookup table.
import bpy
import bmesh

me = bpy.data.objects["Cube"].data
bm = bmesh.new()
bm.from_mesh(me)
for step in range(2):
    top = max(range(len(bm.faces)), key=lambda i: bm.faces[i].calc_center_median().z)
    result = bmesh.ops.extrude_face_region(bm, geom=[bm.faces[top]])
    moved = [e for e in result["geom"] if isinstance(e, bmesh.types.BMVert)]
    bmesh.ops.translate(bm, verts=moved, vec=(0, 0, 1.0))
bm.to_mesh(me)
bm.free()
print(len(me.polygons), "faces")
