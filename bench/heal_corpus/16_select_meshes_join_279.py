# 2.79: select every mesh in the scene, make the largest one active and join them.
import bpy

scene = bpy.context.scene
bpy.ops.mesh.primitive_torus_add(location=(3, 0, 0))
bpy.ops.mesh.primitive_monkey_add(radius=0.8, location=(-3, 0, 0))

largest = None
for ob in scene.objects:
    ob.select = ob.type == "MESH"
    if ob.select and (
        largest is None or len(ob.data.vertices) > len(largest.data.vertices)
    ):
        largest = ob
scene.objects.active = largest
bpy.ops.object.join()
print("active:", scene.objects.active.name, len(scene.objects.active.data.vertices))
