# 2.79: colour vertices by world height, using the object's matrix (Matrix * Vector) and RGB colours.
import bpy

bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=3, size=1.5, location=(0, 0, 1))
ob = bpy.context.object
mesh = ob.data
vcol = mesh.vertex_colors.new("Height")
mw = ob.matrix_world
for poly in mesh.polygons:
    for li in poly.loop_indices:
        co = mw * mesh.vertices[mesh.loops[li].vertex_index].co
        t = max(0.0, min(1.0, co.z / 2.5))
        vcol.data[li].color = (t, 0.2, 1.0 - t)
mat = bpy.data.materials.new("VertexColors")
mat.use_vertex_color_paint = True
mesh.materials.append(mat)
