# 3.x: a bevelled cylinder, smooth shaded with auto smooth so the caps stay flat.
import bpy
import math

bpy.ops.mesh.primitive_cylinder_add(vertices=48, radius=1, depth=2)
obj = bpy.context.active_object
bevel = obj.modifiers.new("Bevel", "BEVEL")
bevel.width = 0.05
bevel.segments = 3
bpy.ops.object.shade_smooth()
obj.data.use_auto_smooth = True
obj.data.auto_smooth_angle = math.radians(35)
print(obj.name, len(obj.data.polygons))
