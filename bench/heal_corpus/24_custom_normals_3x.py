# 3.x: read split (custom) normals of the default cube after enabling auto smooth.
import bpy

mesh = bpy.data.objects["Cube"].data
mesh.use_auto_smooth = True
mesh.calc_normals_split()
normals = [tuple(round(c, 3) for c in loop.normal) for loop in mesh.loops]
print(len(set(normals)), "distinct loop normals")
mesh.free_normals_split()
