import bpy


def eevee(scene, bloom=True):
    scene.render.engine = 'BLENDER_EEVEE'
    scene.eevee.use_bloom = bloom
    scene.eevee.use_ssr = True
    return scene
