"""Place parts by relation instead of coordinates: "leg_front_left on seat, side bottom, at front_left".

The local model names parts well and sizes them plausibly, but its coordinates do not add up: asked for a chair it stacked the
four legs one above the other at x = 0 and left the seat floating (measured, plan_system.j2's first version). So the
model says where a part goes in words and this module does the arithmetic: the part touches the named side of the part
it is on, flush with the edge or corner named by `at`. Nothing placed this way floats.
"""

from __future__ import annotations

import math

from .parts import Part, Vec3

# side → (axis, direction): front is -y, left is -x, top is +z (Blender's front view looks along +y)
_SIDE = {"top": (2, 1), "bottom": (2, -1), "front": (1, -1), "back": (1, 1), "left": (0, -1), "right": (0, 1)}
_WORD = {"front": (1, -1), "back": (1, 1), "left": (0, -1), "right": (0, 1), "top": (2, 1), "bottom": (2, -1)}

Box = tuple[Vec3, Vec3]


def extents(size: Vec3, rotation: Vec3) -> Vec3:
    """The world-axis extents of a box of `size` turned by `rotation` (XYZ Euler, degrees)."""
    rx, ry, rz = (math.radians(a) for a in rotation)
    cx, sx, cy, sy, cz, sz = math.cos(rx), math.sin(rx), math.cos(ry), math.sin(ry), math.cos(rz), math.sin(rz)
    # rows of R = Rz · Ry · Rx; the extent along world axis i is the sum of |R[i][j]| · size[j]
    rows = (
        (cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx),
        (sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx),
        (-sy, cy * sx, cy * cx),
    )
    e = [sum(abs(r[j]) * size[j] for j in range(3)) for r in rows]
    return (round(e[0], 9), round(e[1], 9), round(e[2], 9))


def box_of(part: Part) -> Box:
    """The part's world-space bounds (its turned box's)."""
    e = extents(part.size, part.rotation)
    low = (part.location[0] - e[0] / 2, part.location[1] - e[1] / 2, part.location[2] - e[2] / 2)
    return low, (low[0] + e[0], low[1] + e[1], low[2] + e[2])


def place(size: Vec3, rotation: Vec3, parent: Box | None, side: str, at: str) -> Vec3:
    """The centre of a part of this size that touches `side` of `parent`, flush with the edges `at` names (center: in
    the middle). No parent (on the ground): standing on z = 0 at the origin."""
    e = extents(size, rotation)
    if parent is None:
        return (0.0, 0.0, e[2] / 2)
    low, high = parent
    centre = [(low[i] + high[i]) / 2 for i in range(3)]
    axis, direction = _SIDE.get(side, _SIDE["top"])
    centre[axis] = (high[axis] + e[axis] / 2) if direction > 0 else (low[axis] - e[axis] / 2)
    for word in at.split("_"):
        if word in _WORD:
            a, d = _WORD[word]
            if a != axis:  # the side already fixes that axis
                centre[a] = (high[a] - e[a] / 2) if d > 0 else (low[a] + e[a] / 2)
    return (round(centre[0], 9), round(centre[1], 9), round(centre[2], 9))  # 0.075, not 0.07500000000000001


SUPPORTS = frozenset("leg legs foot feet wheel wheels caster casters castor castors".split())


def from_name(part: Part) -> Part:
    """A part's side and spot corrected from its own name where the words contradict it: the local model copies the example's
    "side top, at center" onto every part, so leg_front_left went on top of the seat, in its middle (and in the next
    version, on its front). A leg, foot or wheel goes under what it carries; a name with front/back/left/right (or a
    word that starts so: backrest) puts a part placed "at center" at that edge or corner."""
    words = set(part.name.split("_"))
    # backrest, backboard, frontplate: a direction at the start of a word counts as that direction
    words |= {d for w in words for d in ("front", "back", "left", "right") if w.startswith(d)}
    update: dict[str, str] = {}
    if words & SUPPORTS and part.side != "bottom" and part.on != "ground":
        update["side"] = "bottom"
    if part.at == "center":
        depth = next((w for w in ("front", "back") if w in words), "")
        across = next((w for w in ("left", "right") if w in words), "")
        spot = "_".join(w for w in (depth, across) if w)
        if spot:
            update["at"] = spot
    return part.model_copy(update=update) if update else part


SMALL = 0.5  # a piece whose footprint is at most this share of the top it sits on is laid beside its siblings there


def _footprint(size: Vec3, rotation: Vec3) -> float:
    e = extents(size, rotation)
    return e[0] * e[1]


def side_by_side(group: list[Part], parent: Box) -> dict[str, Vec3] | None:
    """Locations for several pieces sent to the same spot on top of a part, in a row across that top, centred on the
    spot: a desk organizer's compartments, a desk's monitor, keyboard and mouse. None when one of them is as large as
    the top (burger layers: they stack)."""
    low, high = parent
    top = (high[0] - low[0]) * (high[1] - low[1])
    if top <= 0 or any(_footprint(p.size, p.rotation) > SMALL * top for p in group):
        return None
    sizes = [extents(p.size, p.rotation) for p in group]
    spans = [sum(e[a] for e in sizes) for a in (0, 1)]
    room = [high[0] - low[0], high[1] - low[1]]
    axis = 0 if spans[0] <= room[0] or (spans[1] > room[1] and room[0] >= room[1]) else 1
    across = 1 - axis
    first = place(group[0].size, group[0].rotation, parent, "top", group[0].at)
    start = first[axis] - spans[axis] / 2
    out: dict[str, Vec3] = {}
    for p, e in zip(group, sizes, strict=True):
        centre = [0.0, 0.0, high[2] + e[2] / 2]
        centre[axis] = start + e[axis] / 2
        centre[across] = first[across]
        start += e[axis]
        out[p.name] = (round(centre[0], 9), round(centre[1], 9), round(centre[2], 9))
    return out


def lay_out(parts: list[Part]) -> list[Part]:
    """The parts with locations: a part placed in words goes against the side of the part it names, placed before it;
    on the ground (or a part not yet placed, or unknown) it stands at z = the lowest point so far, flush with the
    footprint of the parts placed so far where `at` names an edge. Several parts sent to one spot on a part's top sit
    side by side when each is small beside that top (side_by_side); otherwise each goes on the one before: the local model put a
    burger's cheese, lettuce, tomato and pickles all "on bun, top, center", meaning a stack, and a desk organizer's three
    compartments "on base, top, center", meaning a row. Parts given a location keep it."""
    parts = [from_name(p) if p.on else p for p in parts]
    spots: dict[tuple[str, str, str], list[Part]] = {}
    for p in parts:
        if p.on:
            spots.setdefault((p.on, p.side, p.at), []).append(p)
    placed: dict[str, Box] = {}
    taken: dict[tuple[str, str, str], str] = {}  # (on, side, at) → the part last placed there
    rows: dict[str, Vec3] = {}  # precomputed: pieces laid side by side
    out: list[Part] = []
    for part in parts:
        if part.on:
            spot = (part.on, part.side, part.at)
            below = taken.get(spot)
            taken[spot] = part.name
            parent = placed.get(part.on) if part.on != part.name else None
            group = spots[spot]
            if below is None and parent is not None and part.side == "top" and len(group) > 1:
                rows.update(side_by_side(group, parent) or {})
            if part.name in rows:
                location = rows[part.name]
            elif below is not None and below in placed:
                location = place(part.size, part.rotation, placed[below], part.side, "center")
            elif parent is not None:
                location = place(part.size, part.rotation, parent, part.side, part.at)
            elif placed:  # the ground under what stands so far
                lows, highs = zip(*placed.values(), strict=True)
                low = (min(b[0] for b in lows), min(b[1] for b in lows), min(b[2] for b in lows))
                high = (max(b[0] for b in highs), max(b[1] for b in highs), low[2])
                location = place(part.size, part.rotation, (low, high), "top", part.at)
            else:
                location = place(part.size, part.rotation, None, "top", part.at)
            part = part.model_copy(update={"location": location})
        placed.setdefault(part.name, box_of(part))
        out.append(part)
    return out
