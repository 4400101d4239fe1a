# 2.79: a title text on layer 2, a backdrop plane on layer 1; layer 2 selected and extruded.
import bpy

layers = [False] * 20
layers[1] = True
bpy.ops.object.text_add(
    view_align=False, enter_editmode=False, location=(0, 0, 0.1), layers=layers
)
title = bpy.context.object
title.data.body = "Hello 2.8"
title.data.extrude = 0.05

bpy.ops.mesh.primitive_plane_add(radius=4, view_align=False, location=(0, 0, 0))
backdrop = bpy.context.object
backdrop.layers[0] = True

bpy.context.scene.layers[1] = True
bpy.ops.object.select_by_layer(layers=2)
print([o.name for o in bpy.context.selected_objects])
