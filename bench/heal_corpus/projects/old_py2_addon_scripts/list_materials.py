import bpy
import common

mats = sorted(m.name for m in bpy.data.materials)
print(", ".join(mats))
print(bpy.data.objects["Lamp"].data.energy)
