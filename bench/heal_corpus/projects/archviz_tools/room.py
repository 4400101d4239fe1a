import bpy
from arch.walls import wall

wall("Floor", (5, 5, 0.1), (0, 0, 0))
wall("Back", (5, 0.1, 3), (0, 5, 3))
wall("Left", (0.1, 5, 3), (-5, 0, 3))
bpy.context.scene.layers[1] = True
