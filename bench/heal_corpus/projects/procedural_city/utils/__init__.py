import bpy


def setup_scene(scene, engine='BLENDER_EEVEE'):
    """Common render settings for all city scripts."""
    scene.render.engine = engine
    scene.render.resolution_x = 960
    scene.render.resolution_y = 540
    return scene


def clear_scene():
    for ob in list(bpy.data.objects):
        bpy.data.objects.remove(ob, do_unlink=True)
