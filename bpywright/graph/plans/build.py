"""Turn a part plan into a plain bpy script a person can read, edit (its PARTS list) and run again on Blender 4.2–5.2."""

from __future__ import annotations

import math
import re

from .parts import PALETTE, PRIMITIVES, STAGING, Look, Modifier, Part, Plan, has_technique, looks

# The script's body after PARTS: only API that is the same from Blender 4.2 to 5.2 (primitive operators, which run
# headless under --factory-startup; object transforms; Principled BSDF's "Base Color"; a camera aimed by a quaternion).
_CLEAR = '''

def clear_scene():
    """Remove what the factory scene (or an earlier run) holds, so running the script twice gives the same scene."""
    for data in (bpy.data.objects, bpy.data.meshes, bpy.data.materials, bpy.data.cameras, bpy.data.lights):
        for block in list(data):
            data.remove(block)
'''
_MATERIAL = '''

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
'''
_ADD_PART = '''

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
'''
_CAMERA_AND_SUN = '''

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
'''
_MAIN = """

clear_scene()
parts = [add_part(*part) for part in PARTS]
add_camera_and_sun(parts)
"""
BODY = _CLEAR + _MATERIAL + _ADD_PART + _CAMERA_AND_SUN + _MAIN


# A script whose plan names techniques: the same parts table and helpers, then one table a technique (each row data a
# person edits) and a plain function that applies it. Only the tables and functions the plan uses are written.
TABLES_MARK = "# Techniques:"

_CLEAR_ALL = _CLEAR.replace("bpy.data.cameras, bpy.data.lights)", "bpy.data.cameras, bpy.data.lights, bpy.data.curves)")

_FUNCTIONS = {
    "TEXTS": """

def add_text(name, body, height, depth, location, rotation, color):
    \"\"\"Words as a FONT object standing up, facing front (-y): `height` the letter size, extruded `depth` thick.\"\"\"
    curve = bpy.data.curves.new(name, "FONT")
    curve.body = body
    curve.size = height
    curve.extrude = depth / 2
    curve.align_x = "CENTER"
    curve.align_y = "CENTER"
    obj = bpy.data.objects.new(name, curve)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = location
    obj.rotation_euler = (math.radians(90 + rotation[0]), math.radians(rotation[1]), math.radians(rotation[2]))
    curve.materials.append(material(color))
    return obj
""",
    "LATHES": """

def add_lathe(name, profile, size, location, rotation, color):
    \"\"\"A solid turned about z (a vase, bowl, glass): the profile's radii, bottom to top as shares of the half width,
    drawn as a line in x-z from the closed bottom and turned a full circle by a SCREW modifier.\"\"\"
    width, depth, height = size
    step = height / (len(profile) - 1)
    points = [(0.0, 0.0, -height / 2)] + [(r * width / 2, 0.0, -height / 2 + i * step) for i, r in enumerate(profile)]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(points, [(i, i + 1) for i in range(len(points) - 1)], [])
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    screw = obj.modifiers.new("Screw", "SCREW")
    screw.axis = "Z"
    screw.angle = math.radians(360)
    screw.steps = 48
    screw.render_steps = 48
    screw.use_merge_vertices = True
    screw.use_smooth_shade = True
    obj.scale = (1.0, depth / width, 1.0)
    obj.location = location
    obj.rotation_euler = [math.radians(angle) for angle in rotation]
    mesh.materials.append(material(color))
    return obj
""",
    "CURVES": """

def add_curve(name, path, size, turns, thickness, location, rotation, color):
    \"\"\"A curve fitting `size` along a path (line along x, circle, helix rising `turns` times, wave along x), given a
    round section `thickness` across: a rail, tube, pipe or spring.\"\"\"
    width, depth, height = size
    count = max(8, round(32 * turns))
    if path == "helix":
        points = [
            (width / 2 * math.cos(2 * math.pi * turns * i / count), depth / 2 * math.sin(2 * math.pi * turns * i / count), -height / 2 + height * i / count)
            for i in range(count + 1)
        ]
    elif path == "circle":
        points = [(width / 2 * math.cos(2 * math.pi * i / 32), depth / 2 * math.sin(2 * math.pi * i / 32), 0.0) for i in range(32)]
    elif path == "wave":
        points = [(-width / 2 + width * i / count, 0.0, height / 2 * math.sin(2 * math.pi * turns * i / count)) for i in range(count + 1)]
    else:
        points = [(-width / 2, 0.0, 0.0), (width / 2, 0.0, 0.0)]
    curve = bpy.data.curves.new(name, "CURVE")
    curve.dimensions = "3D"
    spline = curve.splines.new("POLY")
    spline.points.add(len(points) - 1)
    for point, (x, y, z) in zip(spline.points, points):
        point.co = (x, y, z, 1.0)
    spline.use_cyclic_u = path == "circle"
    curve.bevel_depth = thickness / 2
    curve.bevel_resolution = 4
    curve.use_fill_caps = True
    obj = bpy.data.objects.new(name, curve)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = location
    obj.rotation_euler = [math.radians(angle) for angle in rotation]
    curve.materials.append(material(color))
    return obj
""",
    "LOOKS": """

def finish(obj, name, color, metallic, roughness, emission, transmission, alpha):
    \"\"\"Give obj a material of its own: Principled BSDF values (an input's name differs between Blender versions).\"\"\"
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = (*color, alpha)
    if mat.node_tree is None:
        mat.use_nodes = True
    bsdf = mat.node_tree.nodes.get("Principled BSDF")
    values = (
        (("Base Color",), (*color, 1.0)),
        (("Metallic",), metallic),
        (("Roughness",), roughness),
        (("Transmission Weight", "Transmission"), transmission),
        (("Emission Color", "Emission"), (*color, 1.0) if emission else (0.0, 0.0, 0.0, 1.0)),
        (("Emission Strength",), emission),
        (("Alpha",), alpha),
    )
    for names, value in values:
        for input_name in names:
            if bsdf is not None and input_name in bsdf.inputs:
                bsdf.inputs[input_name].default_value = value
                break
    if alpha < 1.0 and hasattr(mat, "surface_render_method"):  # EEVEE draws a see-through surface blended
        mat.surface_render_method = "BLENDED"
    obj.data.materials.clear()
    obj.data.materials.append(mat)
""",
    "MODIFIERS": """

def add_modifier(obj, kind, settings):
    \"\"\"A modifier of Blender's type `kind` with its settings by property name (levels, width, segments, count ...).
    A mesh part's size is applied first, so widths and thicknesses are metres.\"\"\"
    if obj.type == "MESH" and tuple(obj.scale) != (1.0, 1.0, 1.0):
        obj.data.transform(Matrix.Diagonal((*obj.scale, 1.0)))
        obj.scale = (1.0, 1.0, 1.0)
    modifier = obj.modifiers.new(kind.title(), kind)
    for key, value in settings.items():
        setattr(modifier, key, value)
    return modifier
""",
    "REPEATS": """

def repeat(obj, count, pattern, rows, spacing, rise, turns, vary, seed):
    \"\"\"obj and count - 1 linked copies (sharing its mesh and material): centred where obj was built on a line along x
    or a grid of `rows`, `spacing` apart, or scattered over a square `spacing` wide; or round a circle or a spiral of
    radius `spacing` whose axis is that far to obj's left (-x), obj the first, each turned to face out, a spiral rising
    `rise` a copy over `turns` turns. vary draws each copy a height, size or turn from random.seed(seed): the same
    scene every run.\"\"\"
    random.seed(seed)
    base = obj.location.copy()
    turn = obj.rotation_euler.z
    scale = obj.scale.copy()
    height = obj.dimensions.z
    columns = math.ceil(count / rows)
    copies = []
    for i in range(count):
        copy = obj
        if i > 0:
            copy = obj.copy()
            copy.name = "%s_%d" % (obj.name, i + 1)
            for collection in obj.users_collection:
                collection.objects.link(copy)
        if pattern == "grid":
            offset = Vector(((i % columns - (columns - 1) / 2) * spacing, (i // columns - (rows - 1) / 2) * spacing, 0.0))
        elif pattern in ("circle", "spiral"):
            angle = 2 * math.pi * (turns * i / count if pattern == "spiral" else i / count)
            offset = Vector(((math.cos(angle) - 1) * spacing, math.sin(angle) * spacing, rise * i))
            copy.rotation_euler.z = turn + angle
        elif pattern == "scatter":
            offset = Vector((random.uniform(-spacing / 2, spacing / 2), random.uniform(-spacing / 2, spacing / 2), 0.0))
        else:
            offset = Vector(((i - (count - 1) / 2) * spacing, 0.0, 0.0))
        copy.location = base + offset
        if vary == "height":
            factor = random.uniform(0.4, 2.5)
            copy.scale = (scale.x, scale.y, scale.z * factor)
            copy.location.z += height * (factor - 1) / 2  # still standing where obj stood
        elif vary == "size":
            factor = random.uniform(0.6, 1.4)
            copy.scale = scale * factor
            copy.location.z += height * (factor - 1) / 2
        elif vary == "rotation":
            copy.rotation_euler.z = turn + random.uniform(0.0, 2 * math.pi)
        copies.append(copy)
    return copies
""",
    "EMPTIES": """

def add_empty(name, size, carried):
    \"\"\"An empty (no geometry, drawn as axes `size` m long) at the centre of the objects it carries.\"\"\"
    empty = bpy.data.objects.new(name, None)
    empty.empty_display_type = "PLAIN_AXES"
    empty.empty_display_size = size
    bpy.context.scene.collection.objects.link(empty)
    if carried:
        empty.location = scene_bounds(carried)[0]
    return empty
""",
    "PARENTS": """

def parent_to(child, parent):
    \"\"\"Make `parent` the child's parent, keeping the child where it is: it now moves, turns and scales with it.\"\"\"
    bpy.context.view_layer.update()
    child.parent = parent
    child.matrix_parent_inverse = parent.matrix_world.inverted()
""",
    "KEYFRAMES": """

def animate(obj, channel, index, keys):
    \"\"\"Keyframes on one channel of obj, (frame, value) each: a location in metres from where obj was built, a rotation
    in degrees added to its turn, a scale as a factor of its size (index -1: all three axes), a light's energy in W.\"\"\"
    if channel == "energy":
        for frame, value in keys:
            obj.data.energy = value
            obj.data.keyframe_insert("energy", frame=frame)
        return
    axes = range(3) if index < 0 else [index]
    start = list(getattr(obj, channel))
    for frame, value in keys:
        target = getattr(obj, channel)
        for axis in axes:
            if channel == "location":
                target[axis] = start[axis] + value
            elif channel == "rotation_euler":
                target[axis] = start[axis] + math.radians(value)
            else:
                target[axis] = start[axis] * value
        obj.keyframe_insert(channel, index=index, frame=frame)
""",
}

_STAGE = """

def scene_bounds(objects):
    \"\"\"The centre and radius of the box around the objects.\"\"\"
    bpy.context.view_layer.update()
    corners = [obj.matrix_world @ Vector(corner) for obj in objects for corner in obj.bound_box]
    low = Vector([min(c[i] for c in corners) for i in range(3)])
    high = Vector([max(c[i] for c in corners) for i in range(3)])
    return (low + high) / 2, max((high - low).length / 2, 0.01)


def direction(side, at):
    \"\"\"A unit vector from the scene's centre: toward `side` (front is -y, left -x, top +z), leaning toward `at`, and up
    a little unless the side is the top or bottom.\"\"\"
    toward = {"front": (0, -1, 0), "back": (0, 1, 0), "left": (-1, 0, 0), "right": (1, 0, 0), "top": (0, 0, 1), "bottom": (0, 0, -1)}
    vector = Vector(toward.get(side, (0, -1, 0)))
    for word in at.split("_"):
        if word in toward and word != side:
            vector += 0.55 * Vector(toward[word])
    if side not in ("top", "bottom"):
        vector.z += 0.6
    return vector.normalized()


def add_camera(objects, name="Camera", lens=50.0, side="front", at="right", orthographic=False):
    \"\"\"The active camera, `lens` mm (or orthographic, its view as wide as the objects), looking at the objects from
    `side` and framing them all.\"\"\"
    scene = bpy.context.scene
    centre, radius = scene_bounds(objects)
    data = bpy.data.cameras.new(name)
    data.lens = lens
    if orthographic:
        data.type = "ORTHO"
        data.ortho_scale = radius * 2.2
    camera = bpy.data.objects.new(name, data)
    scene.collection.objects.link(camera)
    distance = radius / math.sin(min(data.angle, 3.0) / 2) * 1.05
    view = direction(side, at)
    camera.location = centre + view * distance
    camera.rotation_euler = (-view).to_track_quat("-Z", "Y").to_euler()
    data.clip_start = min(data.clip_start, max(distance - radius * 2, 0.001))
    data.clip_end = max(100.0, distance * 4)
    scene.camera = camera
    return camera


def add_light(objects, name, kind, energy, color, side, at):
    \"\"\"A light of `kind` (SUN, POINT, SPOT, AREA) shining on the objects from `side`, aimed at their centre; energy 0
    takes a power that lights them at its distance.\"\"\"
    centre, radius = scene_bounds(objects)
    data = bpy.data.lights.new(name, type=kind)
    distance = max(radius * 3, 1.0)
    data.energy = energy or (3.0 if kind == "SUN" else 60.0 * distance**2)
    data.color = color
    light = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(light)
    view = direction(side, at)
    light.location = centre + view * distance
    light.rotation_euler = (-view).to_track_quat("-Z", "Y").to_euler()
    return light
"""


def _num(value: float) -> str:
    """A number as the script shows it: at most 4 decimals, no '-0.0'."""
    text = repr(round(value, 4))
    return "0.0" if text == "-0.0" else text


def _vec(values: tuple[float, float, float]) -> str:
    return "(" + ", ".join(_num(v) for v in values) + ")"


def _part_line(p: Part) -> str:
    rotation = "(0, 0, 0)" if not any(p.rotation) else _vec(p.rotation)
    colour = "(" + ", ".join(repr(round(c, 3)) for c in p.color) + ")"
    return f"    ({p.name!r}, {p.shape!r}, {_vec(p.size)}, {_vec(p.location)}, {rotation}, {colour}),"


def _comment(text: str) -> str:
    """Text safe inside a one-line comment: printable, no line breaks (the object's name comes from the model)."""
    return re.sub(r"[^\x20-\x7e]+", " ", text).strip()[:80]


def _header(plan: Plan, version: str) -> str:
    return (
        f"# {_comment(plan.object)}: built from a part plan by bpywright, for Blender {_comment(version)} (runs on 4.2 to 5.2).\n"
        "# Edit PARTS and run again: blender -b --factory-startup --python this_file.py\n"
    )


_PARTS_DOC = "# name, shape, size (x, y, z metres, full extents before rotation), centre (x, y, z), rotation (degrees), colour (r, g, b)\n"


def build_script(plan: Plan, version: str) -> str:
    """The script: a PARTS literal (one line a part), add_part() on primitive operators, one material per colour, a
    cleared factory scene, a camera and a sun framing the parts. Every value from the plan enters as a literal (repr).
    A plan that names techniques (plan_techniques) gets their tables and functions too (build_with_techniques)."""
    if any(has_technique(p) for p in plan.parts):
        return build_with_techniques(plan, version)
    header = _header(plan, version) + "import math\n\nimport bpy\nfrom mathutils import Vector\n\n" + _PARTS_DOC + "PARTS = [\n"
    return header + "\n".join(_part_line(p) for p in plan.parts) + "\n]\n" + BODY


def _colour(rgb: tuple[float, float, float]) -> str:
    return "(" + ", ".join(repr(round(c, 3)) for c in rgb) + ")"


def look_of(p: Part) -> tuple[str, tuple[float, float, float], float, float, float, float, float] | None:
    """(material name, colour, metallic, roughness, emission, transmission, alpha) for a part that names a look or a
    value; None for a plain coloured part. A named look's own colour (gold, copper) wins over the part's."""
    named = looks().get(p.material) if p.material else None
    if named is None and all(v is None for v in (p.metallic, p.roughness, p.emission, p.transmission, p.alpha)):
        return None
    base = named or Look()
    colour = PALETTE[base.colour] if base.colour else p.color

    def pick(value: float | None, default: float) -> float:
        return default if value is None else value

    name = p.material or f"{p.name}_material"
    return (
        name,
        colour,
        pick(p.metallic, base.metallic),
        pick(p.roughness, base.roughness),
        pick(p.emission, base.emission),
        pick(p.transmission, base.transmission),
        pick(p.alpha, base.alpha),
    )


_AXIS = {"x": 0, "y": 1, "z": 2}


def _settings(m: Modifier, p: Part) -> tuple[str, dict[str, object]]:
    """Blender's modifier type and its settings (RNA property names) for a modifier in the plan's words."""
    axis = m.axis or ("z" if m.type == "screw" else "x")
    if m.type == "subsurf":
        levels = 2 if m.levels is None else m.levels
        return "SUBSURF", {"levels": levels, "render_levels": levels}
    if m.type == "bevel":
        width = m.width if m.width is not None else round(0.05 * min(v for v in p.size if v > 0), 4)
        return "BEVEL", {"width": width, "segments": m.segments or 3}
    if m.type == "solidify":
        return "SOLIDIFY", {"thickness": m.thickness if m.thickness is not None else round(0.05 * max(p.size), 4)}
    if m.type == "wireframe":
        return "WIREFRAME", {"thickness": m.thickness if m.thickness is not None else round(0.02 * max(p.size), 4)}
    if m.type == "array":
        offset = [0.0, 0.0, 0.0]
        offset[_AXIS[axis]] = 1.2 if m.offset is None else m.offset
        return "ARRAY", {"count": m.count or 3, "relative_offset_displace": offset}
    if m.type == "mirror":
        return "MIRROR", {"use_axis": [a == axis for a in "xyz"]}
    return "SCREW", {"axis": axis.upper(), "angle": round(math.radians(360 if m.angle is None else m.angle), 4), "steps": m.segments or 32}


def spacing_of(p: Part) -> float:
    """A repeat's spacing: the plan's, else from the part's size (a gap of a fifth between copies; a circle that fits them)."""
    if p.spacing > 0:
        return p.spacing
    if p.pattern in ("circle", "spiral"):
        return round(max(p.size[0], p.size[1]) * max(p.repeat, 4) / (2 * math.pi) * (1.0 if p.pattern == "circle" else 0.6), 4)
    if p.pattern == "scatter":
        return round(max(p.size[0], p.size[1]) * 2 * math.sqrt(p.repeat), 4)
    return round(max(p.size[0], p.size[1]) * 1.2, 4)


def _rows(p: Part) -> int:
    if p.pattern != "grid":
        return 1
    return p.rows if p.rows > 0 else max(1, round(math.sqrt(p.repeat)))


_CHANNEL = {"location": "location", "rotation": "rotation_euler", "scale": "scale", "energy": "energy"}


def _channel(name: str) -> tuple[str, int]:
    """('location', 2) for location_z; ('scale', -1) for a uniform scale; ('energy', -1)."""
    base, _, axis = name.partition("_")
    return _CHANNEL[base], _AXIS[axis] if axis else -1


def _table(name: str, doc: str, rows: list[str]) -> str:
    return f"# {doc}\n{name} = [\n" + "\n".join(f"    {r}," for r in rows) + "\n]\n"


def build_with_techniques(plan: Plan, version: str) -> str:
    """The script of a plan that names techniques: the primitives in PARTS as ever, then a table a technique (TEXTS,
    LATHES, CURVES, LOOKS, MODIFIERS, REPEATS, KEYFRAMES, LIGHTS, CAMERA), each row data, and the plain functions
    that apply them (only those the plan uses)."""
    parts = [p for p in plan.parts if p.shape in PRIMITIVES]
    texts = [p for p in plan.parts if p.shape == "text"]
    lathes = [p for p in plan.parts if p.shape == "lathe"]
    curves = [p for p in plan.parts if p.shape == "curve"]
    lights = [p for p in plan.parts if p.shape == "light"]
    camera = next((p for p in plan.parts if p.shape == "camera"), None)
    looks_ = [(p, look) for p in plan.parts if p.shape not in STAGING and (look := look_of(p)) is not None]
    modifiers = [(p, m) for p in plan.parts if p.shape not in STAGING for m in p.modifiers]
    repeats = [p for p in plan.parts if p.repeat > 1 and p.shape not in STAGING]
    keyframes = [p for p in plan.parts if p.animate]
    empties = [p for p in plan.parts if p.shape == "empty"]
    parented = [p for p in plan.parts if p.parent]
    tables: dict[str, str] = {}
    if texts:
        rows = [
            f"({p.name!r}, {p.text!r}, {_num(p.size[2])}, {_num(p.size[1])}, {_vec(p.location)}, {_vec(p.rotation)}, {_colour(p.color)})"
            for p in texts
        ]
        tables["TEXTS"] = _table(
            "TEXTS",
            "name, words, letter height (m), extruded depth (m), centre, rotation (degrees; 0 stands up facing front), colour",
            rows,
        )
    if lathes:
        rows = [
            f"({p.name!r}, {tuple(round(r, 4) for r in p.profile or (0.8, 1.0, 1.0))!r}, {_vec(p.size)}, {_vec(p.location)}, {_vec(p.rotation)}, {_colour(p.color)})"
            for p in lathes
        ]
        tables["LATHES"] = _table(
            "LATHES", "name, profile (radii bottom to top, shares of the half width), size, centre, rotation, colour", rows
        )
    if curves:
        rows = [
            f"({p.name!r}, {p.path or 'line'!r}, {_vec(p.size)}, {_num(p.turns)}, {_num(p.thickness or round(0.05 * max(p.size), 4))}, "
            f"{_vec(p.location)}, {_vec(p.rotation)}, {_colour(p.color)})"
            for p in curves
        ]
        tables["CURVES"] = _table(
            "CURVES", "name, path (line, circle, helix, wave), size, turns, thickness (m), centre, rotation, colour", rows
        )
    if looks_:
        rows = [
            f"({p.name!r}, {name!r}, {_colour(rgb)}, {_num(m)}, {_num(r)}, {_num(e)}, {_num(t)}, {_num(a)})"
            for p, (name, rgb, m, r, e, t, a) in looks_
        ]
        tables["LOOKS"] = _table("LOOKS", "part, material, base colour, metallic, roughness, emission strength, transmission, alpha", rows)
    if modifiers:
        rows = [f"({p.name!r}, {kind!r}, {settings!r})" for p, m in modifiers for kind, settings in [_settings(m, p)]]
        tables["MODIFIERS"] = _table("MODIFIERS", "part, Blender modifier type, its settings", rows)
    if repeats:
        rows = [
            f"({p.name!r}, {p.repeat}, {p.pattern!r}, {_rows(p)}, {_num(spacing_of(p))}, "
            f"{_num(p.rise if p.rise or p.pattern != 'spiral' else p.size[2])}, {_num(p.turns)}, {p.vary!r}, {p.seed})"
            for p in repeats
        ]
        tables["REPEATS"] = _table(
            "REPEATS", "part, copies (itself the first), pattern, rows, spacing (m), rise (m a copy), turns, vary, random seed", rows
        )
    if keyframes:
        rows = []
        for p in keyframes:
            channel, index = _channel(p.animate)
            keys = ", ".join(f"({f}, {_num(v)})" for f, v in zip(p.frames, p.values, strict=True))
            rows.append(f"({p.name!r}, {channel!r}, {index}, [{keys}])")
        tables["KEYFRAMES"] = _table("KEYFRAMES", "part, channel, axis (0 x, 1 y, 2 z, -1 all), (frame, value) keys", rows)
    if empties:
        rows = [f"({p.name!r}, {_num(max(p.size) / 2 or 0.5)}, {[c.name for c in plan.parts if c.parent == p.name]!r})" for p in empties]
        tables["EMPTIES"] = _table("EMPTIES", "name, display size (m), the parts it carries (it sits at their centre)", rows)
    if parented:
        tables["PARENTS"] = _table(
            "PARENTS", "part, the part it moves with (its parent)", [f"({p.name!r}, {p.parent!r})" for p in parented]
        )
    if lights:
        rows = [
            f"({p.name!r}, {p.light.upper()!r}, {_num(p.energy)}, {_colour(p.color)}, {p.side or 'front'!r}, {p.at or 'left'!r})"
            for p in lights
        ]
        tables["LIGHTS"] = _table("LIGHTS", "name, type, energy (W; 0 = to suit its distance), colour, side it shines from, toward", rows)
    lines = [
        _header(plan, version)
        + "import math\n"
        + ("import random\n" if repeats else "")
        + "\nimport bpy\nfrom mathutils import Matrix, Vector\n\n",
        _PARTS_DOC + "PARTS = [\n" + "".join(_part_line(p) + "\n" for p in parts) + "]\n",
        f"{TABLES_MARK} what the plan asks beyond placed parts (the functions below apply each table)\n",
        *tables.values(),
    ]
    if camera is not None and camera.projection == "orthographic":
        lines.append(
            f"# the camera: name, lens (mm), side it looks from, toward, orthographic\nCAMERA = ({camera.name!r}, "
            f"{_num(camera.lens or 50.0)}, {camera.side or 'front'!r}, {camera.at or 'right'!r}, True)\n"
        )
    elif camera is not None:
        lines.append(
            f"# the camera: name, lens (mm), side it looks from, toward\nCAMERA = ({camera.name!r}, {_num(camera.lens or 50.0)}, "
            f"{camera.side or 'front'!r}, {camera.at or 'right'!r})\n"
        )
    else:
        lines.append('CAMERA = ("Camera", 50.0, "front", "right")\n')
    body = _CLEAR_ALL + _MATERIAL + _ADD_PART + "".join(_FUNCTIONS[t] for t in _FUNCTIONS if t in tables) + _STAGE
    main = ["", "", "clear_scene()", "objects = [add_part(*part) for part in PARTS]"]
    if texts:
        main.append("objects += [add_text(*row) for row in TEXTS]")
    if lathes:
        main.append("objects += [add_lathe(*row) for row in LATHES]")
    if curves:
        main.append("objects += [add_curve(*row) for row in CURVES]")
    if looks_:
        main += ["for name, *look in LOOKS:", "    finish(bpy.data.objects[name], *look)"]
    if modifiers:
        main += ["for name, kind, settings in MODIFIERS:", "    add_modifier(bpy.data.objects[name], kind, settings)"]
    if repeats and (parented or empties):  # a repeated part's copies move with its parent too
        main += [
            "copies = {}",
            "for name, *layout in REPEATS:",
            "    copies[name] = repeat(bpy.data.objects[name], *layout)",
            "    objects += copies[name][1:]",
        ]
    elif repeats:
        main += ["for name, *layout in REPEATS:", "    objects += repeat(bpy.data.objects[name], *layout)[1:]"]
    carried = "copies.get(part, [bpy.data.objects[part]])" if repeats else "[bpy.data.objects[part]]"
    if empties:
        main += [
            "for name, size, parts in EMPTIES:",
            f"    add_empty(name, size, [obj for part in parts for obj in {carried}])",
        ]
    if parented:
        main += [
            "for part, parent in PARENTS:",
            f"    for obj in {carried}:",
            "        parent_to(obj, bpy.data.objects[parent])",
        ]
    main.append("add_camera(objects, *CAMERA)")
    if lights:
        main += ["for light in LIGHTS:", "    add_light(objects, *light)"]
    else:
        main.append('add_light(objects, "Sun", "SUN", 3.0, (1.0, 1.0, 1.0), "top", "front_right")')
    if keyframes:  # after the camera framed the parts where they were built, and after the lights exist
        frames = [f for p in keyframes for f in p.frames]
        main += [
            "for name, channel, index, keys in KEYFRAMES:",
            "    animate(bpy.data.objects[name], channel, index, keys)",
            f"bpy.context.scene.frame_start = {min(frames)}",
            f"bpy.context.scene.frame_end = {max(frames)}",
            "bpy.context.scene.frame_set(bpy.context.scene.frame_start)",
        ]
    return "".join(lines) + body + "\n".join(main) + "\n"
