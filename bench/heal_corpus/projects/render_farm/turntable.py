import math
import bpy
import config

scene = config.configure(bpy.context.scene, samples=16)
cube = bpy.data.objects["Cube"]
cube.rotation_euler = (0, 0, 0)
cube.keyframe_insert("rotation_euler", frame=1)
cube.rotation_euler = (0, 0, 2 * math.pi)
cube.keyframe_insert("rotation_euler", frame=scene.frame_end)
