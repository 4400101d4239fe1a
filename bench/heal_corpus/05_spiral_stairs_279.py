# 2.79: a spiral staircase - steps rotated around Z with a rotation matrix.
import bpy
import math
from mathutils import Matrix, Vector

steps = 16
scene = bpy.context.scene
for i in range(steps):
    angle = i * (2 * math.pi / 12)
    rot = Matrix.Rotation(angle, 4, "Z")
    pos = rot * Vector((1.5, 0.0, 0.0))
    bpy.ops.mesh.primitive_cube_add(radius=0.5, location=(pos.x, pos.y, i * 0.25))
    step = bpy.context.object
    step.scale = (1.0, 0.35, 0.08)
    step.rotation_euler.z = angle
    step.name = "Step.%02d" % i

bpy.ops.mesh.primitive_cylinder_add(
    radius=0.2, depth=steps * 0.25, location=(0, 0, steps * 0.125)
)
scene.update()
