# 2.7x mesh data: build a quad strip from python data, add UVs, count tessellated faces.
import bpy

verts = [(x, y, 0.0) for x in range(4) for y in range(2)]
faces = [(i * 2, i * 2 + 2, i * 2 + 3, i * 2 + 1) for i in range(3)]
me = bpy.data.meshes.new("Strip")
me.from_pydata(verts, [], faces)
me.uv_textures.new("UVMap")
me.update(calc_tessface=True)
me.calc_normals()
print("tessfaces:", len(me.tessfaces))

ob = bpy.data.objects.new("Strip", me)
bpy.context.scene.objects.link(ob)
