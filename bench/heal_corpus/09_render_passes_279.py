# 2.79 render setup: Cycles with tiles, a Z pass on the default render layer, output settings.
import bpy

scene = bpy.context.scene
scene.render.engine = "CYCLES"
scene.cycles.samples = 32
scene.render.tile_x = 64
scene.render.tile_y = 64
scene.render.resolution_x = 640
scene.render.resolution_y = 360
scene.render.resolution_percentage = 50

layer = scene.render.layers["RenderLayer"]
layer.use_pass_z = True
layer.use_pass_normal = True
scene.render.image_settings.file_format = "PNG"
print(scene.render.engine, layer.name)
