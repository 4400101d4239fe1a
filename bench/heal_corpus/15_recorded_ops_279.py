# Operators recorded from the 2.79 Info editor, pasted into a script (a stretched, extruded, turned cube).
import bpy

bpy.ops.mesh.primitive_cube_add(
    radius=1,
    view_align=False,
    enter_editmode=False,
    location=(0, 0, 0),
    layers=(
        True,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
    ),
)
bpy.ops.transform.resize(
    value=(1, 1, 2.5),
    constraint_axis=(False, False, True),
    constraint_orientation="GLOBAL",
    mirror=False,
    proportional="DISABLED",
    proportional_edit_falloff="SMOOTH",
    proportional_size=1,
)
bpy.ops.object.editmode_toggle()
bpy.ops.mesh.select_all(action="SELECT")
bpy.ops.mesh.extrude_region_move(
    MESH_OT_extrude_region={"mirror": False},
    TRANSFORM_OT_translate={
        "value": (0, 0, 1),
        "constraint_axis": (False, False, True),
        "constraint_orientation": "GLOBAL",
        "mirror": False,
        "proportional": "DISABLED",
        "proportional_edit_falloff": "SMOOTH",
        "proportional_size": 1,
        "snap": False,
        "snap_target": "CLOSEST",
        "snap_point": (0, 0, 0),
        "snap_align": False,
        "snap_normal": (0, 0, 0),
        "gpencil_strokes": False,
        "texture_space": False,
        "remove_on_cancel": False,
        "release_confirm": False,
    },
)
bpy.ops.object.editmode_toggle()
bpy.ops.transform.rotate(
    value=0.785398,
    axis=(0, 0, 1),
    constraint_axis=(False, False, True),
    constraint_orientation="GLOBAL",
    mirror=False,
    proportional="DISABLED",
    proportional_edit_falloff="SMOOTH",
    proportional_size=1,
)
