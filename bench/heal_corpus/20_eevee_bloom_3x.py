# 3.x EEVEE look-dev: bloom, screen-space reflections, ambient occlusion and soft shadows.
import bpy

scene = bpy.context.scene
scene.render.engine = "BLENDER_EEVEE"
eevee = scene.eevee
eevee.use_bloom = True
eevee.bloom_intensity = 0.08
eevee.bloom_threshold = 0.9
eevee.use_ssr = True
eevee.use_ssr_refraction = True
eevee.use_gtao = True
eevee.gtao_distance = 0.4
eevee.use_soft_shadows = True
eevee.shadow_cube_size = "1024"
eevee.taa_render_samples = 32
print("engine:", scene.render.engine)
