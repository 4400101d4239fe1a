bl_info = {"name": "Quick Export", "blender": (2, 79, 0), "category": "Import-Export"}

import bpy


class QuickExportSettings(bpy.types.PropertyGroup):
    scale = bpy.props.FloatProperty(name="Scale", default=1.0)
    selected_only = bpy.props.BoolProperty(name="Selected only", default=True)


class EXPORT_OT_quick(bpy.types.Operator):
    bl_idname = "export_scene.quick"
    bl_label = "Quick Export"

    def execute(self, context):
        settings = context.scene.quick_export
        print(
            "export at scale",
            settings.scale * 2,
            "selected only:",
            settings.selected_only,
        )
        return {"FINISHED"}


class VIEW3D_PT_quick(bpy.types.Panel):
    bl_label = "Quick Export"
    bl_space_type = "VIEW_3D"
    bl_region_type = "TOOLS"

    def draw(self, context):
        self.layout.prop(context.scene.quick_export, "scale")


def menu_func(self, context):
    self.layout.operator(EXPORT_OT_quick.bl_idname)


def register():
    bpy.utils.register_module(__name__)
    bpy.types.Scene.quick_export = bpy.props.PointerProperty(type=QuickExportSettings)
    bpy.types.INFO_MT_file_export.append(menu_func)


if __name__ == "__main__":
    register()
    bpy.ops.export_scene.quick()
