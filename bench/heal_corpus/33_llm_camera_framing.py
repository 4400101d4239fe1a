# LLM-style: frame the selection from the camera using viewport operators.
import bpy

bpy.ops.mesh.primitive_torus_add(location=(2, 1, 0))
bpy.ops.object.select_all(action="SELECT")
bpy.ops.view3d.snap_cursor_to_selected()
bpy.ops.object.camera_add(location=(8, -8, 6))
cam = bpy.context.active_object
bpy.context.scene.camera = cam
bpy.ops.view3d.object_as_camera()
bpy.ops.view3d.view_selected()
print("cursor at", tuple(bpy.context.scene.cursor.location))
