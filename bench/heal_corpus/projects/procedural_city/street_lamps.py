import math
import bpy
import ut

for i in range(8):
    pos = ut.rotate_about_z(i * math.pi / 4, (10, 0, 0))
    lamp_data = bpy.data.lamps.new(name="street_%d" % i, type='POINT')
    lamp_data.energy = 200
    lamp = bpy.data.objects.new("street_%d" % i, lamp_data)
    lamp.location = pos.to_3d() + ut.Vector((0, 0, 4))
    bpy.context.scene.objects.link(lamp)
