import random
import bpy
import treegen

random.seed(1)
for i in range(20):
    t = treegen.make_tree("Tree%02d" % i, height=random.uniform(1.5, 4.0))
    t.location = (random.uniform(-10, 10), random.uniform(-10, 10), 0)
bpy.context.scene.update()
