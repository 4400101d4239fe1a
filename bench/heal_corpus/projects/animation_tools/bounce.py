import bpy
import anim

bpy.ops.mesh.primitive_uv_sphere_add(location=(0, 0, 5))
ball = bpy.context.object
anim.select_only(ball)
for f, z in ((1, 5), (12, 0.5), (24, 4), (36, 0.5)):
    anim.key_location(ball, f, (0, 0, z))
bpy.context.scene.frame_end = 36
