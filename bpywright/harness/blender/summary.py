"""The scene summary: objects (type, evaluated vertex/face counts, materials, modifiers, transform, animation...),
bounding box, materials, instances, camera, lights and world: the facts a check reads of the scene a script built."""

import array
import json
import math

import bpy

from .animation import object_fcurves
from .materials import material_fcurves, scene_materials, world_facts
from .object_facts import object_facts
from .readings import cut, safe

MAX_INSTANCES = 100_000  # the depsgraph's instances are counted up to this many (a scatter can emit millions)
MAX_SUMMARY_BYTES = 12 * 1024 * 1024  # the host reads reports up to 16 MiB (harness/job.py): room for the rest

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


def _own_geometry(inst):
    """True for a piece of the instancer's own evaluated geometry (a curve's or a text's mesh), not an instance of it."""
    top_level = inst.persistent_id[1] == 2**31 - 1  # one level deep: emitted by the object itself, not by an instance
    return top_level and inst.object.original == inst.parent.original


def count_instances(depsgraph, limit=MAX_INSTANCES):
    """(total, {instancer name: count}) of the instances in the evaluated depsgraph, counting stops at limit."""
    total, by_instancer = 0, {}
    try:
        for inst in depsgraph.object_instances:
            if not inst.is_instance or safe(lambda i=inst: _own_geometry(i), False):
                continue
            name = safe(lambda i=inst: i.parent.original.name)
            by_instancer[name] = by_instancer.get(name, 0) + 1
            total += 1
            if total >= limit:
                break
    except Exception:
        pass
    return total, by_instancer


def scene_summary(max_objects=200):
    """Objects (type, counts, materials, modifiers, transform, animation...), bounding box, materials, instances, world."""
    scene = bpy.context.scene
    depsgraph = bpy.context.evaluated_depsgraph_get()
    instance_count, instances = count_instances(depsgraph)
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
            entry.update(safe(lambda o=obj: object_facts(o), {}))
            entry["fcurves"] = safe(lambda o=obj: object_fcurves(o), [])
            entry["instances"] = instances.get(obj.name, 0)
            objects.append(entry)
    bbox = None if lo[0] == math.inf else {"min": lo, "max": hi}
    materials, used = safe(lambda: scene_materials(scene.objects), ([], []))
    world_color, world_strength = safe(lambda: world_facts(scene), (None, None))
    return {
        "object_count": len(scene.objects),
        "objects": objects,
        "bbox": bbox,
        "camera": scene.camera is not None or any(o.type == "CAMERA" for o in scene.objects),
        "light": any(o.type == "LIGHT" for o in scene.objects),
        "frame_range": [scene.frame_start, scene.frame_end],
        "materials": materials,
        "material_fcurves": safe(lambda: material_fcurves(used, scene), []),
        "instance_count": instance_count,
        "active_camera": cut(safe(lambda: scene.camera.name)),
        "world_color": world_color,
        "world_strength": world_strength,
        "fps": safe(lambda: int(scene.render.fps)),
    }


def fit_summary(summary, budget=MAX_SUMMARY_BYTES):
    """Leave out objects' modifier settings and F-curves, last object first, until the summary's JSON fits budget.

    Returns how many objects lost them: at the caps with plain names a summary takes about 11 MB, but names and data
    paths of escaped characters can take several times that.
    """
    size, trimmed = len(json.dumps(summary, default=str)), 0
    for entry in reversed(summary["objects"]):
        if size <= budget:
            break
        size -= len(json.dumps([entry.get("modifier_settings", []), entry.get("fcurves", [])], default=str)) - len("[[], []]")
        entry["modifier_settings"], entry["fcurves"] = [], []
        trimmed += 1
    return trimmed
