import bpy
from helpers import render, shading

bpy.ops.object.text_add()
sign = bpy.context.active_object
sign.data.body = "OPEN"
sign.data.materials.append(shading.emission("Neon", (1.0, 0.1, 0.6, 1.0)))
render.eevee(bpy.context.scene)
