# 2.7x snippet: world-space bounding box of the default cube from its vertices.
import bpy

obj = bpy.data.objects["Cube"]
obj.location = (1.0, 2.0, 0.5)
obj.rotation_euler = (0.3, 0.0, 0.8)
bpy.context.scene.update()

world = [obj.matrix_world * v.co for v in obj.data.vertices]
low = Vector(
    (min(p.x for p in world), min(p.y for p in world), min(p.z for p in world))
)
high = Vector(
    (max(p.x for p in world), max(p.y for p in world), max(p.z for p in world))
)
print("bbox", low, high, (high - low).length)
