# 2.79: put two objects in a group and instance the group three times with empties.
import bpy

scene = bpy.context.scene
grp = bpy.data.groups.new("Tree")
bpy.ops.mesh.primitive_cone_add(radius1=1, depth=2, location=(0, 0, 1.5))
grp.objects.link(bpy.context.object)
bpy.ops.mesh.primitive_cylinder_add(radius=0.2, depth=1, location=(0, 0, 0.5))
grp.objects.link(bpy.context.object)

for i in range(3):
    inst = bpy.data.objects.new("TreeInstance%d" % i, None)
    inst.dupli_type = "GROUP"
    inst.dupli_group = grp
    inst.location = (i * 3.0 + 4, 0, 0)
    scene.objects.link(inst)
