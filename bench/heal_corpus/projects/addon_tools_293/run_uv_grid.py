import bpy
from tools.uv import grid_material

bpy.ops.mesh.primitive_cube_add()
ob = bpy.context.active_object
ob.data.materials.append(grid_material())
ob.data.use_auto_smooth = True
