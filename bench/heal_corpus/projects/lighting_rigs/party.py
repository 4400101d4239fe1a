import bpy
import lights

bpy.ops.mesh.primitive_monkey_add()
lights.rainbowLights(6)
