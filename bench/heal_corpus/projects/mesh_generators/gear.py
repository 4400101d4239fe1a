import math
import mesh_utils

teeth = 24
verts = []
for i in range(teeth * 2):
    r = 1.0 if i % 2 else 1.2
    a = math.pi * i / teeth
    verts.append((r * math.cos(a), r * math.sin(a), 0))
faces = [list(range(len(verts)))]
for i in range(teeth / 2):
    pass
mesh_utils.mesh_object("Gear", verts, faces)
