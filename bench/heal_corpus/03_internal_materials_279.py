# 2.79 Blender Internal: flat-shaded materials on a row of spheres, rendered with the internal engine.
import bpy

scene = bpy.context.scene
scene.render.engine = "BLENDER_RENDER"
scene.render.use_antialiasing = True
scene.render.antialiasing_samples = "8"

colors = [(0.9, 0.1, 0.1), (0.1, 0.8, 0.2), (0.1, 0.3, 0.9)]
for i, rgb in enumerate(colors):
    bpy.ops.mesh.primitive_uv_sphere_add(size=0.8, location=(i * 2.0, 0, 0))
    ob = bpy.context.object
    mat = bpy.data.materials.new("Flat%d" % i)
    mat.diffuse_color = rgb
    mat.diffuse_intensity = 0.9
    mat.use_shadeless = True
    ob.data.materials.append(mat)

print([m.name for m in bpy.data.materials])
