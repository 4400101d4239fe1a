# LLM-style: set up an EEVEE render with soft shadows and motion blur.
import bpy

scene = bpy.context.scene
scene.render.engine = "BLENDER_EEVEE"
scene.eevee.taa_render_samples = 64
scene.eevee.use_soft_shadows = True
scene.eevee.use_motion_blur = True
scene.render.resolution_x = 1280
scene.render.resolution_y = 720
bpy.ops.mesh.primitive_cube_add(size=2)
bpy.ops.object.light_add(type="AREA", location=(3, -3, 4))
bpy.context.object.data.energy = 500
