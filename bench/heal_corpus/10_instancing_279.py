# 2.79: instance a small sphere on the vertices of an icosphere, shown as wire with X-ray.
import bpy

bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=1, size=2.0, location=(0, 0, 0))
parent = bpy.context.object
parent.draw_type = "WIRE"
parent.show_x_ray = True
parent.dupli_type = "VERTS"

bpy.ops.mesh.primitive_uv_sphere_add(
    segments=12, ring_count=6, size=0.2, location=(0, 0, 0)
)
child = bpy.context.object
child.parent = parent

bpy.ops.object.empty_add(type="PLAIN_AXES", location=(0, 0, 3))
marker = bpy.context.object
marker.empty_draw_type = "ARROWS"
marker.empty_draw_size = 0.5
