# 3.x: run viewport operators from a script with a context override dict (the pre-4.0 way).
import bpy

for area in bpy.context.screen.areas:
    if area.type == "VIEW_3D":
        region = next(r for r in area.regions if r.type == "WINDOW")
        override = bpy.context.copy()
        override["area"] = area
        override["region"] = region
        bpy.ops.view3d.snap_cursor_to_center(override)
        bpy.ops.view3d.view_all(override, center=True)
        break

bpy.ops.mesh.primitive_monkey_add(location=(0, 0, 2))
print(tuple(bpy.context.scene.cursor.location))
