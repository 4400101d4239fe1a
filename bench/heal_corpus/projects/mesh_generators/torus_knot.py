import math
import bpy
from mathutils import Vector, Matrix
import mesh_utils

p, q, n = 2, 3, 200
pts = []
for i in range(n):
    t = 2 * math.pi * i / n
    r = math.cos(q * t) + 2
    pts.append(Vector((r * math.cos(p * t), r * math.sin(p * t), -math.sin(q * t))))
rot = Matrix.Rotation(0.3, 3, 'X')
pts = [rot * v for v in pts]
edges = [(i, (i + 1) % n) for i in range(n)]
knot = mesh_utils.mesh_object("Knot", [tuple(v) for v in pts], [], edges)
