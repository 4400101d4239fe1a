import bpy
import treegen

tree = treegen.make_tree("Tree", height=3.0, detail=12)
tree.select = True
bpy.context.scene.objects.active = tree
