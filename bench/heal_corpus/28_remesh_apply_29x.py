# 2.9x: add and apply a remesh modifier (the apply_as keyword predates 2.90).
import bpy

bpy.ops.mesh.primitive_monkey_add(size=2)
monkey = bpy.context.active_object
bpy.ops.object.modifier_add(type="REMESH")
monkey.modifiers["Remesh"].mode = "VOXEL"
monkey.modifiers["Remesh"].voxel_size = 0.08
bpy.ops.object.modifier_apply(apply_as="DATA", modifier="Remesh")
print(len(monkey.data.vertices), "vertices after remesh")
