# 2.79: apply a subdivision modifier non-destructively by converting to a new mesh with to_mesh().
import bpy

src = bpy.data.objects["Cube"]
mod = src.modifiers.new("Smooth", "SUBSURF")
mod.levels = 2

scene = bpy.context.scene
baked_mesh = src.to_mesh(scene, True, "PREVIEW")
baked = bpy.data.objects.new("Cube.baked", baked_mesh)
baked.location.x = 3
scene.objects.link(baked)

bpy.data.objects.remove(src, True)
print(len(baked.data.vertices), "vertices after baking")
