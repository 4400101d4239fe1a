# LLM-style: hide helper objects and select the hero object.
import bpy

bpy.ops.mesh.primitive_cube_add(size=1, location=(3, 0, 0))
helper = bpy.context.active_object
helper.name = "Helper"
bpy.ops.mesh.primitive_monkey_add(size=1, location=(0, 0, 0))
hero = bpy.context.active_object

helper.hide = True
helper.hide_render = True
hero.select = True
bpy.context.scene.objects.active = hero
print(hero.name, hero.select, helper.hide)
