# 2.79: a handler that keeps a label object in sync with the current frame.
import bpy

scene = bpy.context.scene
bpy.ops.object.text_add(location=(0, 0, 2))
label = bpy.context.object
label.name = "FrameLabel"


def update_label(scene):
    label = scene.objects.get("FrameLabel")
    if label is not None:
        label.data.body = "frame %d" % scene.frame_current


bpy.app.handlers.scene_update_post.append(update_label)
bpy.app.handlers.frame_change_post.append(update_label)
scene.frame_set(12)
scene.update()
print(label.data.body)
