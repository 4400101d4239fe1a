import bpy
import utils
import ut
from utils import material

utils.clear_scene()
utils.setup_scene(bpy.context.scene)
bpy.ops.mesh.primitive_cylinder_add(vertices=12, radius=2, depth=20, location=(0, 0, 10))
tower = bpy.context.object
tower.data.materials.append(material.glass())
top = ut.local_to_world(tower, (0, 0, 1))
bpy.ops.mesh.primitive_cone_add(vertices=12, radius1=2, depth=3, location=top)
