import random
import bpy
import utils
from utils import material

utils.clear_scene()
scene = utils.setup_scene(bpy.context.scene)
mat = material.concrete()
random.seed(4)
for x in range(6):
    for y in range(6):
        h = random.uniform(1, 6)
        bpy.ops.mesh.primitive_cube_add(location=(x * 3, y * 3, h / 2))
        ob = bpy.context.object
        ob.scale = (1, 1, h / 2)
        ob.data.materials.append(mat)
