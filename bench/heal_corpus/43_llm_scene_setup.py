# LLM-style: scene setup mixing 2.7x and 2.8 calls.
import bpy

scene = bpy.context.scene
mesh = bpy.data.meshes.new("Floor")
mesh.from_pydata([(-5, -5, 0), (5, -5, 0), (5, 5, 0), (-5, 5, 0)], [], [(0, 1, 2, 3)])
floor = bpy.data.objects.new("Floor", mesh)
bpy.context.view_layer.objects.link(floor)
scene.cursor_location = (0, 0, 0)
scene.update()
print(len(scene.objects))
