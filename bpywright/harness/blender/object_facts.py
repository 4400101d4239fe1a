"""What one object is beyond its geometry: transform, parent, modifier settings, text, curve, light and camera facts."""

import bpy

from .readings import cut, first, number, safe, vector

MAX_MODIFIERS = 32
MAX_SPLINES = 10_000  # points are counted over this many splines at most
SIMPLE_TYPES = {"INT", "FLOAT", "BOOLEAN", "ENUM", "STRING"}
KEPT_COMMON = {"show_viewport", "show_render"}  # of the properties every modifier has, the ones that change the result
_SETTINGS_OF = {}  # modifier RNA type -> [(identifier, kind, array length)], read once per type


def object_facts(obj):
    """The facts of one object beyond its geometry (each missing or unreadable one reads as None)."""
    data = safe(lambda: obj.data)
    kind = safe(lambda: obj.type)
    parent = safe(lambda: obj.parent)
    modifiers = [modifier_summary(mod) for mod in first(safe(lambda: obj.modifiers, ()), MAX_MODIFIERS)]
    return {
        "modifier_settings": [m for m in modifiers if m is not None],
        "location": vector(safe(lambda: obj.location), 3),
        "rotation": safe(lambda: _rotation(obj)),
        "scale": vector(safe(lambda: obj.scale), 3),
        "parent": cut(safe(lambda: parent.name)) if parent is not None else None,
        "text": cut(safe(lambda: data.body)) if kind == "FONT" else None,
        "text_extrude": number(safe(lambda: data.extrude)) if kind == "FONT" else None,
        "curve": safe(lambda: curve_summary(data)) if kind == "CURVE" else None,
        "light": safe(lambda: light_summary(data)) if kind == "LIGHT" else None,
        "camera": safe(lambda: camera_summary(data)) if kind == "CAMERA" else None,
    }


def _rotation(obj):
    """Euler XYZ rotation in radians, whatever the object's rotation mode (quaternion, axis-angle, another order)."""
    if obj.rotation_mode == "XYZ":
        return vector(obj.rotation_euler, 3)
    return vector(obj.matrix_basis.to_quaternion().to_euler("XYZ"), 3)


def modifier_summary(mod):
    """{"name", "type", "settings"} of one modifier, or None when it cannot be read."""
    name, kind = safe(lambda: mod.name), safe(lambda: mod.type)
    if name is None or kind is None:
        return None
    settings = {}
    for identifier, prop_type, length in _simple_properties(mod):
        try:  # one try per property, no lambda: a modifier stack of 32 has a thousand of them
            value = _setting(getattr(mod, identifier), prop_type, length)
        except Exception:
            continue
        if value is not None:
            settings[identifier] = value
    return {"name": cut(name), "type": cut(kind), "settings": settings}


def _simple_properties(mod):
    """(identifier, type, array length) of the modifier's int/float/bool/enum/string properties; arrays up to 4 long."""
    rna = safe(lambda: mod.bl_rna)
    key = safe(lambda: rna.identifier)
    if key not in _SETTINGS_OF:
        common = ({"name", "type"} | set(safe(lambda: bpy.types.Modifier.bl_rna.properties.keys(), []))) - KEPT_COMMON
        found = []
        for prop in safe(lambda: list(rna.properties), []):
            identifier, prop_type = safe(lambda p=prop: p.identifier), safe(lambda p=prop: p.type)
            if not isinstance(identifier, str) or identifier in common or identifier.startswith("open_"):
                continue  # the name, the type, and what every modifier has for the interface
            if prop_type not in SIMPLE_TYPES:
                continue
            length = safe(lambda p=prop: p.array_length, 0) or 0
            if length > 4 or (length and prop_type not in {"INT", "FLOAT", "BOOLEAN"}):
                continue
            flag = prop_type == "ENUM" and safe(lambda p=prop: p.is_enum_flag, False)
            found.append((identifier, "ENUM_FLAG" if flag else prop_type, length))
        if key is None:
            return found
        _SETTINGS_OF[key] = found
    return _SETTINGS_OF[key]


def _setting(value, prop_type, length):
    """A property's value as the report holds it: bool, int, finite float, string (cut), or a list of floats (may raise)."""
    if value is None:
        return None
    if length:
        items = [number(v) for v in value]
        return None if not items or None in items else items
    if prop_type == "BOOLEAN":
        return bool(value)
    if prop_type == "INT":
        return int(value)
    if prop_type == "FLOAT":
        return number(value)
    if prop_type == "ENUM_FLAG":
        return cut(",".join(sorted(str(v) for v in value)))
    return cut(value)


def curve_summary(curve):
    """Dimensions, spline and control point counts, bevel and extrude of a curve's data."""
    splines = curve.splines
    points, cyclic = 0, False
    for spline in first(splines, MAX_SPLINES):
        points += len(spline.bezier_points) if spline.type == "BEZIER" else len(spline.points)
        cyclic = cyclic or bool(spline.use_cyclic_u)
    return {
        "dimensions": cut(curve.dimensions),
        "splines": len(splines),
        "points": points,
        "bevel_depth": number(curve.bevel_depth) or 0.0,
        "extrude": number(curve.extrude) or 0.0,
        "bevel_object": safe(lambda: curve.bevel_object) is not None,
        "cyclic": cyclic,
    }


def light_summary(light):
    """Type, power (W, or W/m² for a sun) and colour of a light's data."""
    energy, color = number(light.energy), vector(light.color, 3)
    if energy is None or color is None:
        return None
    return {"type": cut(light.type), "energy": energy, "color": color}


def camera_summary(camera):
    """Projection type and focal length (mm) of a camera's data."""
    lens = number(camera.lens)
    return None if lens is None else {"type": cut(camera.type), "lens": lens}
