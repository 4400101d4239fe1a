import bpy
from helpers.render import eevee
from helpers.shading import smooth

bpy.ops.mesh.primitive_uv_sphere_add(segments=48, ring_count=24)
smooth(bpy.context.active_object, angle=0.8)
eevee(bpy.context.scene, bloom=False)
