# LLM-style: lights added with the old lamp operator and data names.
import bpy

bpy.ops.object.lamp_add(type="POINT", location=(2, 2, 3))
point = bpy.context.object
point.data.energy = 300
bpy.ops.object.lamp_add(type="SUN", location=(0, 0, 10))
sun = bpy.context.object
print([l.name for l in bpy.data.lamps])
bpy.ops.object.select_by_type(type="LAMP")
print(len(bpy.context.selected_objects), "lamps selected")
