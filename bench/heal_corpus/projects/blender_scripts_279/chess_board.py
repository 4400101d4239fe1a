import bpy
import bhelper

black = bhelper.new_material("Black", (0.05, 0.05, 0.05))
white = bhelper.new_material("White", (0.95, 0.95, 0.95))
for i in range(8):
    for j in range(8):
        sq = bhelper.add_cube((i, j, 0), 0.5)
        sq.scale.z = 0.1
        sq.data.materials.append(black if (i + j) % 2 else white)
bpy.context.scene.update()
