# LLM-style: a camera on a circle looking at the origin (uses radians/Vector without importing them).
import bpy

bpy.ops.mesh.primitive_monkey_add(size=1.5, location=(0, 0, 1))
target = Vector((0, 0, 1))

bpy.ops.object.camera_add(location=(6, 0, 3))
cam = bpy.context.active_object
angle = radians(30)
cam.location = Vector((6 * cos(angle), 6 * sin(angle), 3))
direction = target - cam.location
cam.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()
bpy.context.scene.camera = cam
