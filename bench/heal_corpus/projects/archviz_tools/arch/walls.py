import bpy


def wall(name, size, location):
    bpy.ops.mesh.primitive_cube_add(location=location)
    ob = bpy.context.active_object
    ob.name = name
    ob.scale = size
    return ob


def cut(target, cutter):
    mod = target.modifiers.new("cut", 'BOOLEAN')
    mod.operation = 'DIFFERENCE'
    mod.solver = 'BMESH'
    mod.object = cutter
    bpy.context.view_layer.objects.active = target
    bpy.ops.object.modifier_apply(apply_as='DATA', modifier="cut")
    cutter.hide_render = True
