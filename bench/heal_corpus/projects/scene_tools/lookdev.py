import bpy
import utils
from utils.material import skin

utils.set_engine(bpy.context.scene)
bpy.ops.mesh.primitive_monkey_add()
bpy.context.object.data.materials.append(skin())
