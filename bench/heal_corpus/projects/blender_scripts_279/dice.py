import bpy
import bhelper

cube = bhelper.add_cube((0, 0, 1), 1)
cube.data.materials.append(bhelper.new_material("Ivory", (1, 1, 0.9)))
bhelper.cursor_to((0, 0, 0))
bpy.ops.object.modifier_add(type='BEVEL')
cube.modifiers["Bevel"].width = 0.1
