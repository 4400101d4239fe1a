import bpy
from arch import walls

w = walls.wall("Wall", (4, 0.2, 3), (0, 0, 3))
hole = walls.wall("Hole", (1, 1, 1), (0, 0, 3))
walls.cut(w, hole)
