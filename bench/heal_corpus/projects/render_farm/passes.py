import bpy
import config

scene = config.configure(bpy.context.scene)
config.enable_passes(scene)
