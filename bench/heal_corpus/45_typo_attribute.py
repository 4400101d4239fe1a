# LLM-style: a misspelt property name next to real drift.
import bpy

bpy.ops.mesh.primitive_cylinder_add(radius=0.5, depth=3)
pillar = bpy.context.active_object
pillar.locaton = (0, 0, 1.5)
pillar.data.use_auto_smooth = True
print(pillar.location)
