import bpy
import lights

bpy.ops.mesh.primitive_monkey_add(location=(0, 0, 1))
head = bpy.context.active_object
bpy.ops.object.shade_smooth()
rig = lights.three_point()
lights.rainbowLights(3, radius=8)
bpy.context.scene.render.engine = 'BLENDER_EEVEE'
