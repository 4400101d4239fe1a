"""Safe readings of Blender values for the scene summary: a failure reads as None, strings are cut, floats are finite.

A script can leave anything behind (a deleted datablock, a NaN location, a 1 MB name): every reading here returns a
plain JSON value or None, never raises, and never grows the report past the caps.
"""

import math

MAX_TEXT = 200  # characters kept of any string the scene holds


def safe(read, default=None):
    """read() or default when it raises (a reading of a scene a script left behind must never fail the report)."""
    try:
        return read()
    except Exception:
        return default


def cut(value):
    """value as a string of at most MAX_TEXT characters, or None when it is None."""
    return None if value is None else str(value)[:MAX_TEXT]


def number(value):
    """A finite float to 7 significant digits (Blender stores single precision: 0.2, not 0.20000000298), or None.

    NaN and infinities read as None: they cannot round-trip through the report's JSON.
    """
    try:
        value = float(value)
    except Exception:
        return None
    return float(f"{value:.7g}") if math.isfinite(value) else None


def vector(value, size):
    """A tuple of `size` finite floats, or None when any is missing or not finite."""
    try:
        items = [number(value[i]) for i in range(size)]
    except Exception:
        return None
    return None if None in items else tuple(items)


def socket_value(node, names, size=None):
    """The default value of the first input of node named in names: a float, a tuple of `size` floats, or None."""
    if node is None:
        return None
    for name in names:
        socket = safe(lambda n=name: node.inputs.get(n))
        if socket is not None and hasattr(socket, "default_value"):
            value = safe(lambda s=socket: s.default_value)
            return number(value) if size is None else vector(value, size)
    return None


def first(collection, limit):
    """Up to limit items of a bpy collection (those read before a failure, or none)."""
    items = []
    try:
        for item in collection:
            if len(items) >= limit:
                break
            items.append(item)
    except Exception:
        pass
    return items
