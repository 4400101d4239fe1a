# 2.8x: project UVs from the view in edit mode, then add a checker image texture.
import bpy

bpy.ops.mesh.primitive_cube_add(size=2)
cube = bpy.context.active_object
bpy.ops.object.mode_set(mode="EDIT")
bpy.ops.mesh.select_all(action="SELECT")
bpy.ops.uv.project_from_view(scale_to_bounds=True)
bpy.ops.object.mode_set(mode="OBJECT")
img = bpy.data.images.new("Checker", 256, 256)
img.generated_type = "COLOR_GRID"
print(len(cube.data.uv_layers), "uv layers")
