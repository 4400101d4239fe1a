# 3.x: export the scene's meshes to OBJ and import them back (the legacy io_scene_obj operators).
import bpy
import os
import tempfile

path = os.path.join(tempfile.gettempdir(), "roundtrip.obj")
bpy.ops.object.select_all(action="SELECT")
bpy.ops.export_scene.obj(
    filepath=path,
    use_selection=True,
    use_materials=False,
    axis_forward="-Z",
    axis_up="Y",
)
bpy.ops.object.select_all(action="DESELECT")
bpy.ops.import_scene.obj(filepath=path, axis_forward="-Z", axis_up="Y")
print([o.name for o in bpy.context.selected_objects])
