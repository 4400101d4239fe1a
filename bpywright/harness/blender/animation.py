"""Keyframed animation in the scene: each F-curve's channel, keyframe count, frame range and value range.

An action's F-curves are found two ways: through the slot the datablock is animated by (Blender 4.4+'s layered
actions; from 5.0 the only way, `Action.fcurves` is gone) and through `Action.fcurves` (the legacy flat list, up to 4.5).
"""

import array
import math

from .readings import cut, number, safe

MAX_FCURVES = 64  # per object, and per material


def fcurves_of(owners, limit=MAX_FCURVES):
    """FCurveSummary dicts of [(owner label, animated datablock)], at most limit in all."""
    found = []
    for owner, datablock in owners:
        anim = safe(lambda d=datablock: d.animation_data)
        for fcurve in _action_fcurves(anim):
            if len(found) >= limit:
                return found
            summary = safe(lambda o=owner, f=fcurve: fcurve_summary(o, f))
            if summary is not None:
                found.append(summary)
    return found


def object_fcurves(obj):
    """F-curves of the object's own action, its data's (light energy, curve bevel...) and its shape keys'."""
    data = safe(lambda: obj.data)
    keys = safe(lambda: data.shape_keys) if data is not None else None
    return fcurves_of([("object", obj), ("data", data), ("shape_keys", keys)])


def _action_fcurves(anim):
    """The F-curves that animate the datablock anim belongs to (empty when it has no action)."""
    action = safe(lambda: anim.action) if anim is not None else None
    if action is None:
        return []
    slot = safe(lambda: anim.action_slot)
    layers = safe(lambda: list(action.layers), [])
    if slot is not None and layers:
        found = []
        for layer in layers:
            for strip in safe(lambda lay=layer: list(lay.strips), []):
                bag = safe(lambda s=strip: s.channelbag(slot))
                found += safe(lambda b=bag: list(b.fcurves), []) if bag is not None else []
        return found
    return safe(lambda: list(action.fcurves), [])


def fcurve_summary(owner, fcurve):
    """{"owner", "data_path", "index", "keyframes", "frame_min/max", "value_min/max"} of one F-curve."""
    points = fcurve.keyframe_points
    count = len(points)
    co = array.array("f", bytes(4 * 2 * count))
    if count:
        points.foreach_get("co", co)
    frame_min, frame_max = _range(co[0::2])
    value_min, value_max = _range(co[1::2])
    return {
        "owner": cut(owner),
        "data_path": cut(fcurve.data_path),
        "index": int(fcurve.array_index),
        "keyframes": count,
        "frame_min": frame_min,
        "frame_max": frame_max,
        "value_min": value_min,
        "value_max": value_max,
    }


def _range(values):
    """(min, max) of the finite values, or (None, None) when there is none."""
    if not math.isfinite(sum(values)):  # one NaN would make min and max depend on the order
        values = [v for v in values if math.isfinite(v)]
    return (number(min(values)), number(max(values))) if len(values) else (None, None)
