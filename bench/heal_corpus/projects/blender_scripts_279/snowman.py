import bhelper

white = bhelper.new_material("Snow", (1, 1, 1))
for z, s in ((1, 1.0), (2.6, 0.7), (3.7, 0.45)):
    ball = bhelper.add_sphere((0, 0, z), s)
    ball.data.materials.append(white)
