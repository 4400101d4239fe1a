import bpy


def select_only(ob):
    for o in bpy.context.scene.objects:
        o.select = False
    ob.select = True
    bpy.context.scene.objects.active = ob


def key_location(ob, frame, loc):
    ob.location = loc
    ob.keyframe_insert(data_path="location", frame=frame)
