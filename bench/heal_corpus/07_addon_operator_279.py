bl_info = {"name": "Add Ring of Cubes", "blender": (2, 79, 0), "category": "Add Mesh"}

import bpy
import math


class AddCubeRing(bpy.types.Operator):
    """Add a ring of cubes"""

    bl_idname = "mesh.add_cube_ring"
    bl_label = "Cube Ring"
    bl_options = {"REGISTER", "UNDO"}

    count = bpy.props.IntProperty(name="Count", default=8, min=3)
    radius = bpy.props.FloatProperty(name="Radius", default=3.0)

    def execute(self, context):
        for i in range(self.count):
            a = 2 * math.pi * i / self.count
            bpy.ops.mesh.primitive_cube_add(
                radius=0.3,
                location=(self.radius * math.cos(a), self.radius * math.sin(a), 0),
            )
        return {"FINISHED"}


def menu_func(self, context):
    self.layout.operator(AddCubeRing.bl_idname, icon="MESH_CUBE")


def register():
    bpy.utils.register_module(__name__)
    bpy.types.INFO_MT_mesh_add.append(menu_func)


def unregister():
    bpy.types.INFO_MT_mesh_add.remove(menu_func)
    bpy.utils.unregister_module(__name__)


if __name__ == "__main__":
    register()
    bpy.ops.mesh.add_cube_ring(count=12)
