# LLM-style: build a mesh with the data API, then add modifiers with operators (no active object).
import bpy

bpy.ops.object.select_all(action="SELECT")
bpy.ops.object.delete()

verts = [(0, 0, 0), (2, 0, 0), (2, 2, 0), (0, 2, 0), (1, 1, 1.5)]
faces = [(0, 1, 2, 3), (0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4)]
mesh = bpy.data.meshes.new("Pyramid")
mesh.from_pydata(verts, [], faces)
pyramid = bpy.data.objects.new("Pyramid", mesh)
bpy.context.collection.objects.link(pyramid)

bpy.ops.object.modifier_add(type="BEVEL")
bpy.context.object.modifiers["Bevel"].width = 0.1
bpy.ops.object.shade_smooth()
