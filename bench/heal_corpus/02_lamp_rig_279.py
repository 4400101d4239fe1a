# 2.79: three-point lighting built from lamp datablocks, placed around the 3D cursor.
import bpy

scene = bpy.context.scene
scene.cursor_location = (0.0, 0.0, 1.0)


def add_lamp(name, kind, location, energy):
    data = bpy.data.lamps.new(name=name, type=kind)
    data.energy = energy
    lamp = bpy.data.objects.new(name, data)
    lamp.location = location
    scene.objects.link(lamp)
    return lamp


key = add_lamp("Key", "SUN", (4, -4, 6), 3.0)
fill = add_lamp("Fill", "HEMI", (-4, -3, 3), 0.5)
rim = add_lamp("Rim", "SPOT", (0, 5, 4), 800.0)
rim.data.spot_size = 0.9

lamps = [o for o in scene.objects if o.type == "LAMP"]
print(len(lamps), "lamps around", scene.cursor_location)
