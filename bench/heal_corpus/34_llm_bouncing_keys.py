# LLM-style: a bouncing ball keyed with the keyframe operator.
import bpy

bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, location=(0, 0, 3))
ball = bpy.context.active_object
scene = bpy.context.scene
scene.frame_start, scene.frame_end = 1, 48
for frame, height in [(1, 3.0), (12, 0.5), (24, 2.0), (36, 0.5), (48, 1.2)]:
    scene.frame_set(frame)
    ball.location.z = height
    bpy.ops.anim.keyframe_insert_menu(type="Location")
print(ball.animation_data.action.name)
