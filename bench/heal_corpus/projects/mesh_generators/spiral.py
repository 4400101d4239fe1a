import math
import mesh_utils

turns, steps = 5, 40
verts = [(math.cos(t * 0.2) * t * 0.05, math.sin(t * 0.2) * t * 0.05, t * 0.02) for t in range(turns * steps)]
edges = [(i, i + 1) for i in range(len(verts) - 1)]
ob = mesh_utils.mesh_object("Spiral", verts, [], edges)
ob.select = True
