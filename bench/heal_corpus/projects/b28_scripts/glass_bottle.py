import bpy
from helpers import shading

bpy.ops.mesh.primitive_cylinder_add(vertices=32, radius=0.4, depth=1.5)
bottle = bpy.context.active_object
shading.smooth(bottle)
bottle.data.materials.append(shading.clear_glass())
