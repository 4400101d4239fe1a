# A genuine bug (not API drift): averaging an empty selection divides by zero.
import bpy

bpy.ops.object.select_all(action="DESELECT")
selected = [o for o in bpy.context.scene.objects if o.select_get()]
center_x = sum(o.location.x for o in selected) / len(selected)
print(center_x)
