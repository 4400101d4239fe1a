"""Rebuild a part-plan script from its own data and compare it byte for byte: the check that lets the add-on vouch for
what such a script does in the user's Blender without screening its code.

bpywright's part-plan builder writes a fixed script around one data literal (PARTS: name, shape, size, centre,
rotation, colour per part). This module is a standard-library copy of that builder: it reads the header and the PARTS
literal with `ast.literal_eval` (no code runs), checks every value's type, writes the script again and compares. Equal
bytes mean the only things that came from a model are literal data; any other edit, however small, is not a plan
script and is screened instead. tests/addon checks that this copy matches the service's builder.
Standard library only (no bpy).
"""

from __future__ import annotations

import ast
import math
import re

SHAPES = ("box", "cylinder", "cone", "sphere", "torus", "plane")
MAX_NAME = 40
HEADER = re.compile(r"# ([\x20-\x7e]*): built from a part plan by bpywright, for Blender ([\x20-\x7e]*) \(runs on 4\.2 to 5\.2\)\.")
OPENING = (
    "# Edit PARTS and run again: blender -b --factory-startup --python this_file.py\n"
    "import math\n\nimport bpy\nfrom mathutils import Vector\n\n"
    "# name, shape, size (x, y, z metres, full extents before rotation), centre (x, y, z), rotation (degrees), colour (r, g, b)\n"
    "PARTS = [\n"
)

# The builder's fixed body, exactly as the service's part-plan builder writes it.
BODY = '''

def clear_scene():
    """Remove what the factory scene (or an earlier run) holds, so running the script twice gives the same scene."""
    for data in (bpy.data.objects, bpy.data.meshes, bpy.data.materials, bpy.data.cameras, bpy.data.lights):
        for block in list(data):
            data.remove(block)


def material(color):
    """One material per colour: Base Color for Cycles and EEVEE, diffuse_color for the viewport and Workbench."""
    name = "color_%02x%02x%02x" % tuple(round(c * 255) for c in color)
    mat = bpy.data.materials.get(name)
    if mat is None:
        mat = bpy.data.materials.new(name)
        mat.diffuse_color = (*color, 1.0)
        if mat.node_tree is None:  # Blender 4.x starts a material without nodes; 5.x always has them
            mat.use_nodes = True
        bsdf = mat.node_tree.nodes.get("Principled BSDF")
        if bsdf is not None:
            bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    return mat


def add_part(name, shape, size, location, rotation, color):
    """One part: a primitive of size 1 along each axis, scaled to `size`, moved to `location`, turned by `rotation`."""
    if shape == "box":
        bpy.ops.mesh.primitive_cube_add(size=1.0)
    elif shape == "cylinder":
        bpy.ops.mesh.primitive_cylinder_add(radius=0.5, depth=1.0, vertices=32)
    elif shape == "cone":
        bpy.ops.mesh.primitive_cone_add(radius1=0.5, radius2=0.0, depth=1.0, vertices=32)
    elif shape == "sphere":
        bpy.ops.mesh.primitive_uv_sphere_add(radius=0.5, segments=32, ring_count=16)
    elif shape == "torus":  # a ring 1 across and 0.25 thick, lying flat
        bpy.ops.mesh.primitive_torus_add(major_radius=0.375, minor_radius=0.125)
    elif shape == "plane":
        bpy.ops.mesh.primitive_plane_add(size=1.0)
    else:
        raise ValueError(f"unknown shape {shape!r} for part {name!r}")
    obj = bpy.context.active_object
    obj.name = name
    obj.data.name = name
    unit_height = {"torus": 0.25, "plane": 0.0}.get(shape, 1.0)
    obj.scale = (size[0], size[1], size[2] / unit_height if unit_height else 1.0)
    obj.location = location
    obj.rotation_euler = [math.radians(angle) for angle in rotation]
    if shape != "box" and shape != "plane":  # round sides smooth, cap edges sharp
        for polygon in obj.data.polygons:
            polygon.use_smooth = True
        obj.data.set_sharp_from_angle(angle=math.radians(40))
    obj.data.materials.append(material(color))
    return obj


def add_camera_and_sun(objects):
    """A camera that frames every part (seen from the front right, above) and a sun."""
    scene = bpy.context.scene
    bpy.context.view_layer.update()
    corners = [obj.matrix_world @ Vector(corner) for obj in objects for corner in obj.bound_box]
    low = Vector([min(c[i] for c in corners) for i in range(3)])
    high = Vector([max(c[i] for c in corners) for i in range(3)])
    centre = (low + high) / 2
    radius = max((high - low).length / 2, 0.01)
    lens = bpy.data.cameras.new("Camera")
    camera = bpy.data.objects.new("Camera", lens)
    scene.collection.objects.link(camera)
    distance = radius / math.sin(lens.angle / 2) * 1.05
    direction = Vector((0.55, -1.0, 0.6)).normalized()
    camera.location = centre + direction * distance
    camera.rotation_euler = (-direction).to_track_quat("-Z", "Y").to_euler()
    lens.clip_start = min(lens.clip_start, max(distance - radius * 2, 0.001))  # as the harness frames: a 2 cm die is nearer than 0.1 m
    lens.clip_end = max(100.0, distance * 4)
    scene.camera = camera
    light = bpy.data.lights.new("Sun", type="SUN")
    light.energy = 3.0
    sun = bpy.data.objects.new("Sun", light)
    scene.collection.objects.link(sun)
    sun.rotation_euler = (math.radians(40), math.radians(10), math.radians(30))


clear_scene()
parts = [add_part(*part) for part in PARTS]
add_camera_and_sun(parts)
'''


def _num(value: float) -> str:
    text = repr(round(value, 4))
    return "0.0" if text == "-0.0" else text


def _vec(values: tuple) -> str:
    return "(" + ", ".join(_num(v) for v in values) + ")"


def _part_line(name: str, shape: str, size: tuple, location: tuple, rotation: tuple, color: tuple) -> str:
    turned = "(0, 0, 0)" if not any(rotation) else _vec(rotation)
    colour = "(" + ", ".join(repr(round(c, 3)) for c in color) + ")"
    return f"    ({name!r}, {shape!r}, {_vec(size)}, {_vec(location)}, {turned}, {colour}),"


def _vector(value: object) -> bool:
    return (
        isinstance(value, tuple)
        and len(value) == 3
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
    )


def _row(row: object) -> bool:
    """A PARTS row of the builder's types: name, shape, then four vectors of finite numbers."""
    if not isinstance(row, tuple) or len(row) != 6:
        return False
    name, shape, *vectors = row
    return isinstance(name, str) and 0 < len(name) <= MAX_NAME and shape in SHAPES and all(_vector(v) for v in vectors)


def rebuild(script: str) -> str | None:
    """The script the builder writes for the data in `script`'s header and PARTS, or None when it has no such data."""
    first, _, rest = script.partition("\n")
    header = HEADER.fullmatch(first)
    if header is None or not rest.startswith(OPENING):
        return None
    start = len(first) + 1 + len(OPENING) - 2  # the '[' that opens PARTS
    end = script.find("\n]\n", start)
    if end < 0:
        return None
    try:
        rows = ast.literal_eval(script[start : end + 2])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(rows, list) or not rows or not all(_row(r) for r in rows):
        return None
    try:
        lines = [_part_line(*row) for row in rows]
    except (TypeError, ValueError, OverflowError):
        return None
    return f"{first}\n{OPENING}" + "\n".join(lines) + "\n]\n" + BODY


def is_plan_script(script: str) -> bool:
    """True when the script is, byte for byte, what the part-plan builder writes for the data it holds."""
    return rebuild(script) == script
