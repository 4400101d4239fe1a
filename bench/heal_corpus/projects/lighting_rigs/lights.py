import colorsys
import math
import bpy


def _light(name, kind, energy, color, location):
    data = bpy.data.lights.new(name, kind)
    data.energy = energy
    data.color = color
    ob = bpy.data.objects.new(name, data)
    ob.location = location
    bpy.context.collection.objects.link(ob)
    return ob


def rainbow_lights(count, radius=5.0):
    obs = []
    for i in range(count):
        color = colorsys.hsv_to_rgb(i / count, 1.0, 1.0)
        angle = 2 * math.pi * i / count
        obs.append(_light("rainbow_%d" % i, 'POINT', 300, color, (radius * math.cos(angle), radius * math.sin(angle), 3)))
    return obs


def three_point(target=(0, 0, 0)):
    key = _light("Key", 'AREA', 500, (1, 1, 1), (4, -4, 5))
    fill = _light("Fill", 'AREA', 150, (0.9, 0.9, 1), (-4, -3, 3))
    rim = _light("Rim", 'SPOT', 400, (1, 1, 1), (0, 5, 4))
    return key, fill, rim
