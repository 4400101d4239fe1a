import math
import bpy
import anim

cam = bpy.data.objects["Camera"]
anim.select_only(cam)
for f in range(0, 100, 10):
    a = f / 100.0 * 2 * math.pi
    anim.key_location(cam, f, (10 * math.cos(a), 10 * math.sin(a), 5))
bpy.context.scene.cursor_location = (0, 0, 0)
