"""The scene summary: objects (type, evaluated vertex/face counts, materials, modifiers), bounding box, camera/light."""

import array
import math

import bpy

GEOMETRY_TYPES = {"MESH", "CURVE", "SURFACE", "META", "FONT", "CURVES", "POINTCLOUD", "VOLUME", "GPENCIL", "GREASEPENCIL"}


def _geometry(ev):
    """(vertices, faces, local bbox corners) of an evaluated object, modifiers applied.

    Meshes are read in place (the evaluated object's data is the evaluated mesh); curves, text and
    the rest go through to_mesh, whose vertices also give a tighter box than their loose bound_box.
    """
    if ev.type == "MESH":
        return len(ev.data.vertices), len(ev.data.polygons), [tuple(c) for c in ev.bound_box]
    try:
        mesh = ev.to_mesh()
    except Exception:
        mesh = None
    if mesh is None:
        return None, None, [tuple(c) for c in ev.bound_box]
    counts = len(mesh.vertices), len(mesh.polygons)
    corners = [tuple(c) for c in ev.bound_box]
    if len(mesh.vertices):
        flat = array.array("f", bytes(4 * 3 * len(mesh.vertices)))
        mesh.vertices.foreach_get("co", flat)
        corners = [tuple(min(flat[i::3]) for i in range(3)), tuple(max(flat[i::3]) for i in range(3))]
    ev.to_mesh_clear()
    return counts[0], counts[1], corners


def _world_corners(matrix, corners):
    """World-space corners of the box spanned by local corners."""
    from itertools import product

    from mathutils import Vector

    lo = [min(c[i] for c in corners) for i in range(3)]
    hi = [max(c[i] for c in corners) for i in range(3)]
    return [matrix @ Vector(p) for p in product(*zip(lo, hi))]


def scene_summary(max_objects=200):
    """Objects (type, vertex/face counts, materials, modifiers), bounding box, camera/light presence."""
    scene = bpy.context.scene
    depsgraph = bpy.context.evaluated_depsgraph_get()
    objects, lo, hi = [], [math.inf] * 3, [-math.inf] * 3
    for obj in scene.objects:
        entry = {
            "name": obj.name,
            "type": obj.type,
            "vertices": None,
            "faces": None,
            "materials": [slot.material.name for slot in obj.material_slots if slot.material],
            "modifiers": [mod.type for mod in obj.modifiers],
        }
        if obj.type in GEOMETRY_TYPES:
            ev = obj.evaluated_get(depsgraph)
            entry["vertices"], entry["faces"], corners = _geometry(ev)
            entry["visible"] = bool(obj.visible_get() and not obj.hide_render)
            world = _world_corners(ev.matrix_world, corners)
            entry["bbox"] = {"min": [min(c[i] for c in world) for i in range(3)], "max": [max(c[i] for c in world) for i in range(3)]}
            if obj.visible_get():
                for corner in world:
                    for i in range(3):
                        lo[i], hi[i] = min(lo[i], corner[i]), max(hi[i], corner[i])
        if len(objects) < max_objects:
            objects.append(entry)
    bbox = None if lo[0] == math.inf else {"min": lo, "max": hi}
    return {
        "object_count": len(scene.objects),
        "objects": objects,
        "bbox": bbox,
        "camera": scene.camera is not None or any(o.type == "CAMERA" for o in scene.objects),
        "light": any(o.type == "LIGHT" for o in scene.objects),
        "frame_range": [scene.frame_start, scene.frame_end],
    }
