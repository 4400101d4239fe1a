# 2.6x mesh API: count quads and triangles through mesh.faces.
import bpy

me = bpy.data.objects["Cube"].data
quads = tris = 0
for f in me.faces:
    if len(f.vertices) == 4:
        quads += 1
    else:
        tris += 1
print(quads, "quads", tris, "triangles")
