import bpy


def select_layer(layer):
    bpy.ops.object.select_by_layer(layers=layer + 1)
    return bpy.context.selected_objects


def set_engine(scene):
    scene.render.engine = 'BLENDER_EEVEE'
