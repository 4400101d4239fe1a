# A 2.79 scene script with many outdated calls: lamp, material colour, selection, layers, render.
import bpy
import math

scene = bpy.context.scene
scene.render.engine = "BLENDER_RENDER"

bpy.ops.mesh.primitive_cube_add(radius=1, location=(0, 0, 1))
box = bpy.context.object
mat = bpy.data.materials.new("Box")
mat.diffuse_color = (0.8, 0.4, 0.1)
box.data.materials.append(mat)

lamp_data = bpy.data.lamps.new("Sun", "SUN")
lamp = bpy.data.objects.new("Sun", lamp_data)
lamp.rotation_euler = (math.radians(45), 0, math.radians(30))
scene.objects.link(lamp)

bpy.ops.object.select_all(action="DESELECT")
box.select = True
scene.objects.active = box
box.layers[0] = True
scene.update()
