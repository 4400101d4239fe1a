import bpy


def configure(scene, samples=64):
    scene.render.engine = 'BLENDER_RENDER'
    scene.render.resolution_percentage = 50
    scene.render.use_antialiasing = True
    return scene


def enable_passes(scene):
    layer = scene.render.layers[0]
    layer.use_pass_z = True
    layer.use_pass_normal = True
    return layer
