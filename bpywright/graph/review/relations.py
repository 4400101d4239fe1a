"""Where the parts a request names are, and how they are sized to each other, read from the scene's bounding boxes.

"A coffee mug with a handle, sitting on a saucer" asks for more than three objects: the handle at the mug's side and
touching it, the mug standing on the saucer, the saucer wider than the mug. A relation says one such fact about two
parts, in words a request's reader writes ("handle beside mug", "mug on saucer", "saucer wider_than mug", "eye count 2"),
and is checked from the world-space boxes of the objects that a part's name finds (names_part, as the structural checks
find parts). Every check returns (ok, message); the message tells a model exactly what is wrong ("handle: not touching
mug (gap 0.31 m)", "saucer: not under mug (its top is 0.12 m above the mug's bottom)").

The vocabulary:

- `A on B`: A rests on top of B: A's bottom within TOUCH of the top of an object of B (or sunk into it by at most SINK of
  its height, as a candle in a cake), A reaching above that top, their footprints overlapping by OVERLAP of the smaller.
- `A under B`: B is over A: an object of B whose footprint overlaps A's (OVERLAP) has its bottom at or above A's top
  (within TOUCH); touching is not asked (a cat under a table).
- `A beside B` (also `on_side_of`): A touches B at a side: within TOUCH of an object of B, its height's middle within
  B's height, its footprint's centre in B's outer SIDE band or outside B's footprint (not over or inside it).
- `A inside B` (also `in`): A's box within B's, within TOUCH, but for its top, which may stand out of B by SINK of its
  height (a chew toy in a dog bed).
- `A around B`: A's footprint encloses B's (within TOUCH) and their heights overlap (a fence around a house).
- `A touches B`: every object of A is within TOUCH of an object of B, directly or through other objects of A (a
  lampshade touches the table through the lamp's base).
- `A above B`: A's bottom at or above B's top (within TOUCH) and their footprints overlapping; touching is not asked.
- `A larger_than B` / `A smaller_than B`: by the volume of their boxes, by SIZE_MARGIN (each separate object of one
  against each of the other: a car is larger than each of its wheels).
- `A wider_than B` / `A narrower_than B`: by footprint, the larger of width and depth, by SIZE_MARGIN (a saucer is wider
  than its mug and holds less volume).
- `A taller_than B` / `A shorter_than B`: by height, by SIZE_MARGIN.
- `A count N`: at least N objects are named like A.

A part's objects that touch one another are one group (a lamp's base, stem and shade), and every group must hold the
relation (each of three candles stands on the cake); `around` holds of all of them together (chairs around a table),
`touches` of each object, through the part's other objects. An object whose name names two of the request's parts belongs to the one
its name ends with ("MugHandle" is the handle, not the mug); objects named with the part's word as a whole word
("Ear_L") are preferred to names that only hold it ("Bear"). Where no object's name finds a part, objects with a material
named for it do. Tolerances are shares of the scene's size (the diagonal of its visible geometry's box): models build in
any units, and a mug 8 m tall is still a mug.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ...harness.report import BoundingBox, ObjectSummary, SceneSummary
from ..plans.layout import box_of
from ..plans.parts import STAGING as PLAN_STAGING
from ..plans.parts import Plan
from ..reading.placement import stated
from ..reading.request import lemmas, name_words, names_part, singular

TOUCH = 0.03  # of the scene's diagonal: boxes closer than this touch (the structural checks' contact distance)
SINK = 0.5  # of A's height: how far A may sink into B and still rest on it (a candle pushed into a cake, a hat on a head)
OVERLAP = 0.3  # of the smaller footprint's area: how much two footprints must share for one to be over the other
SIDE = 0.25  # of B's width (and depth): the outer band of B's footprint in which a part at its side may be centred
SIZE_MARGIN = 1.05  # one part is larger, wider or taller than another by at least this factor (equal sizes are neither)
GEOMETRY = frozenset({"MESH", "CURVE", "SURFACE", "META", "FONT"})
STAGING = "bpywright_"  # the camera and light the harness adds when a script made none

RELATIONS = {
    "on": "on",
    "under": "under",
    "beside": "beside",
    "on_side_of": "beside",
    "inside": "inside",
    "in": "inside",
    "around": "around",
    "touches": "touches",
    "above": "above",
    "larger_than": "larger_than",
    "smaller_than": "smaller_than",
    "wider_than": "wider_than",
    "narrower_than": "narrower_than",
    "taller_than": "taller_than",
    "shorter_than": "shorter_than",
    "count": "count",
}


class RelationError(ValueError):
    """A relation that cannot be read: an unknown word, a missing part, a count that is not a number."""


@dataclass(frozen=True)
class Relation:
    """One fact about the parts of a request: `subject relation target` ("mug on saucer"), or `subject count N`."""

    subject: str
    relation: str  # the canonical word (RELATIONS' values)
    target: str = ""  # the other part; "" for count
    count: int = 0  # for count

    @classmethod
    def parse(cls, text: str) -> Relation:
        """'handle beside mug', 'saucer wider_than mug', 'eye count 2' → a Relation; RelationError names what is wrong."""
        words = text.split()
        if len(words) != 3:
            raise RelationError(f"relation {text!r}: write it as 'PART RELATION PART' or 'PART count N'")
        subject, word, target = words
        if word not in RELATIONS:
            raise RelationError(f"relation {text!r}: unknown relation {word!r} (known: {', '.join(RELATIONS)})")
        if RELATIONS[word] == "count":
            if not target.isdigit() or int(target) < 1:
                raise RelationError(f"relation {text!r}: count needs a whole number of 1 or more, not {target!r}")
            return cls(subject, "count", count=int(target))
        if subject == target:
            raise RelationError(f"relation {text!r}: a part is related to itself")
        return cls(subject, RELATIONS[word], target)

    @property
    def parts(self) -> tuple[str, ...]:
        """The parts it names."""
        return (self.subject, self.target) if self.target else (self.subject,)

    def __str__(self) -> str:
        return f"{self.subject} count {self.count}" if self.relation == "count" else f"{self.subject} {self.relation} {self.target}"


Box = tuple[tuple[float, float, float], tuple[float, float, float]]


def _box(b: BoundingBox) -> Box:
    return (b.min, b.max)


def union(boxes: Sequence[Box]) -> Box:
    """The box that holds every box."""
    lo, hi = ([f(b[k][i] for b in boxes) for i in range(3)] for k, f in ((0, min), (1, max)))
    return ((lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2]))


def gap(a: Box, b: Box) -> float:
    """The distance between two boxes (0 where they overlap)."""
    return sum(max(0.0, a[0][i] - b[1][i], b[0][i] - a[1][i]) ** 2 for i in range(3)) ** 0.5


def _size(a: Box, i: int) -> float:
    return a[1][i] - a[0][i]


def _footprint_overlap(a: Box, b: Box, grow: float = 0.0) -> float:
    """The share of the smaller footprint (x, y) the two footprints share, each grown by `grow` on every side."""
    shared = 1.0
    for i in (0, 1):
        shared *= max(0.0, min(a[1][i], b[1][i]) - max(a[0][i], b[0][i]) + 2 * grow)
    smaller = min((_size(a, 0) + 2 * grow) * (_size(a, 1) + 2 * grow), (_size(b, 0) + 2 * grow) * (_size(b, 1) + 2 * grow))
    return shared / smaller if smaller > 0 else 0.0


def visible_geometry(scene: SceneSummary) -> list[ObjectSummary]:
    """Objects a render shows, with a box: visible geometry, not the harness's staging camera and light."""
    return [
        o
        for o in scene.objects
        if o.type in GEOMETRY
        and o.bbox is not None
        and o.visible is not False
        and not o.name.startswith(STAGING)
        and (o.type != "MESH" or (o.faces or 0) > 0)
    ]


def scene_size(scene: SceneSummary) -> float:
    """The diagonal of the box of the scene's visible geometry (the scale every tolerance is a share of)."""
    shapes = visible_geometry(scene)
    if not shapes:
        return 0.0
    lo, hi = union([_box(o.bbox) for o in shapes if o.bbox is not None])
    return sum((hi[i] - lo[i]) ** 2 for i in range(3)) ** 0.5


def alternatives(part: str) -> list[str]:
    """A part's words: 'nose|carrot' is found by either."""
    return [w.strip().lower() for w in part.split("|") if w.strip()]


def part_key(part: str) -> str:
    """The word a part is referred to by in relations and messages: its first alternative."""
    return alternatives(part)[0]


def _match_end(name: str, noun: str) -> int:
    """Where in the name's joined words a form of the noun ends (names_part's reading); -1 where it does not."""
    joined = "".join(name_words(name))
    ends = [joined.rfind(p) + len(p) for form in lemmas(noun.replace("-", "")) if (p := form[: max(4, len(form) - 2)]) in joined]
    return max(ends, default=-1)


def _whole_word(name: str, noun: str) -> bool:
    forms = lemmas(noun.replace("-", ""))
    return any(w in forms or singular(w) in forms for w in name_words(name))


def part_objects(scene: SceneSummary, part: str, parts: Sequence[str] = ()) -> list[ObjectSummary]:
    """The visible objects a part names (names_part on the object's name; where none, on its materials' names), less
    those whose name ends with another of the request's parts ("MugHandle" is the handle's, not the mug's); names with
    the word whole ("Ear_L") preferred to names that only hold it ("Bear")."""
    words = alternatives(part)
    others = [w for p in parts if part_key(p) != part_key(part) for w in alternatives(p)]
    shapes = visible_geometry(scene)

    def ends(name: str, nouns: Sequence[str]) -> int:
        return max((_match_end(name, n) for n in nouns), default=-1)

    found = [o for o in shapes if any(names_part(o.name, w) for w in words) and ends(o.name, words) >= ends(o.name, others)]
    whole = [o for o in found if any(_whole_word(o.name, w) for w in words)]
    if whole:
        return whole
    if found:
        return found
    return [o for o in shapes if any(names_part(m, w) for m in o.materials for w in words)]


def _metres(x: float) -> str:
    return f"{x:.2f} m" if abs(x) >= 0.01 else f"{x:.3f} m"


def _touching(subject: list[Box], target: list[Box], tol: float) -> list[int]:
    """Indices of subject boxes not reached from the target: within tol of a target box, or of a subject box that is."""
    reached = [False] * len(subject)
    frontier = [i for i, a in enumerate(subject) if any(gap(a, b) <= tol for b in target)]
    for i in frontier:
        reached[i] = True
    while frontier:
        i = frontier.pop()
        for j, a in enumerate(subject):
            if not reached[j] and gap(subject[i], a) <= tol:
                reached[j] = True
                frontier.append(j)
    return [i for i, r in enumerate(reached) if not r]


def check(relation: Relation, scene: SceneSummary, parts: Sequence[str] = ()) -> tuple[bool, str]:
    """(holds, message) of one relation in the scene; parts: the request's parts (alternatives as 'nose|carrot'), which
    decide whose an object naming two of them is. The message says what holds, or exactly what is wrong."""
    named = {part_key(p): p for p in parts}
    subject_part = named.get(relation.subject, relation.subject)
    a_objects = part_objects(scene, subject_part, parts)
    if not a_objects:
        return False, f"no object named like {relation.subject!r}"
    if relation.relation == "count":
        n = len(a_objects)
        if n >= relation.count:
            return True, f"{relation.subject}: {n} built, {relation.count} asked"
        return False, f"{relation.subject}: {n} built, {relation.count} asked (build each as its own object named for it)"
    b_objects = part_objects(scene, named.get(relation.target, relation.target), parts)
    if not b_objects:
        return False, f"no object named like {relation.target!r}"
    owned = [o for o in a_objects if any(names_part(o.name, w) for w in alternatives(named.get(relation.target, relation.target)))]
    if owned and relation.relation in ("on", "inside"):  # "a lid with a handle on top": the lid's handle ("LidHandle")
        a_objects = owned
    a_boxes = [_box(o.bbox) for o in a_objects if o.bbox is not None]
    b_boxes = [_box(o.bbox) for o in b_objects if o.bbox is not None]
    b = union(b_boxes)
    tol = TOUCH * scene_size(scene)
    s, t = relation.subject, relation.target
    names = [o.name for o in a_objects if o.bbox is not None]
    if relation.relation == "touches":
        far = _touching(a_boxes, b_boxes, tol)
        if far:
            distance = min(gap(a_boxes[far[0]], x) for x in b_boxes)
            return False, f"{s}: {names[far[0]]} not touching {t} (gap {_metres(distance)})"
        return True, f"{s}: touches {t}"
    if relation.relation == "around":
        return _around(s, t, union(a_boxes), b, tol)
    groups = clusters(a_boxes, names, tol)
    message = ""
    if relation.relation in _SIZES:  # each group of the one against each group of the other: a car is wider than each wheel
        targets = clusters(b_boxes, [o.name for o in b_objects if o.bbox is not None], tol)
        for members, box in groups:
            for others, other in targets:
                ok, message = _sized(relation.relation, s, t, box, other)
                if not ok:
                    who = f"{s} ({members[0]})" if len(groups) > 1 else s
                    return False, message.replace(f"{s}: ", f"{who}: ", 1).replace(
                        f"the {t} ", f"the {t} ({others[0]}) " if len(targets) > 1 else f"the {t} ", 1
                    )
        return True, message
    for members, box in groups:
        ok, message = _one(relation.relation, s, t, box, b, b_boxes, tol)
        if not ok and relation.relation == "on" and "floats" in message:  # a monitor on a desk, standing on its stand
            support = _support(scene, box, a_objects, b_objects, b_boxes, tol)
            ok, message = (True, f"{s}: on {t} (through {', '.join(support[:3])})") if support else (ok, message)
        if not ok:
            return False, message.replace(f"{s}: ", f"{s} ({members[0]}): ", 1) if len(groups) > 1 else message
    return True, message


def _support(
    scene: SceneSummary, a: Box, a_objects: list[ObjectSummary], b_objects: list[ObjectSummary], b_boxes: list[Box], tol: float
) -> list[str]:
    """The other objects A rests on B through (a monitor's stand between it and the desk, the frosting on a cupcake's
    domed top): a chain of touching objects, each starting lower than the one it holds and under its footprint or A's,
    from A down to B's top; [] where there is none."""
    own = {o.name for o in a_objects} | {o.name for o in b_objects}
    others = [(o.name, _box(o.bbox)) for o in visible_geometry(scene) if o.name not in own and o.bbox is not None]
    reached: list[str] = []
    frontier = [a]
    while frontier:
        top = frontier.pop()
        for name, box in others:
            if name in reached or box[0][2] >= top[0][2] or gap(top, box) > tol:
                continue
            if _footprint_overlap(top, box, tol) < OVERLAP and _footprint_overlap(a, box, tol) < OVERLAP:
                continue
            reached.append(name)
            if any(gap(box, b) <= tol and box[0][2] >= b[1][2] - SINK * _size(box, 2) - tol for b in b_boxes):
                return reached
            frontier.append(box)
    return []


def clusters(boxes: list[Box], names: list[str], tol: float) -> list[tuple[list[str], Box]]:
    """The part's objects grouped where they touch (within tol), each group with its names and box: a lamp's base, stem
    and shade are one lamp; three candles apart on a cake are three, each of which must stand on it."""
    group = list(range(len(boxes)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if gap(boxes[i], boxes[j]) <= tol:
                group[root(i)] = root(j)
    members: dict[int, list[int]] = {}
    for i in range(len(boxes)):
        members.setdefault(root(i), []).append(i)
    return [([names[i] for i in m], union([boxes[i] for i in m])) for m in members.values()]


def _one(relation: str, s: str, t: str, a: Box, b: Box, b_boxes: list[Box], tol: float) -> tuple[bool, str]:
    """One group of the subject's objects (its box a) against the target (its box b, its objects' boxes b_boxes)."""
    match relation:
        case "on":
            return _on(s, t, a, b_boxes, tol)
        case "under":
            return _under(s, t, a, b_boxes, tol)
        case "above":
            if _footprint_overlap(a, b, tol) <= 0:
                return False, f"{s}: not above {t} (not over it: beside it)"
            if a[0][2] < b[1][2] - tol:
                return False, f"{s}: not above {t} (its bottom is {_metres(b[1][2] - a[0][2])} below the {t}'s top)"
            return True, f"{s}: above {t}"
        case "beside":
            return _beside(s, t, a, b, b_boxes, tol)
        case "inside":  # a chew toy in a dog bed may stand out of it by half its height; spilt water may not
            sides = max(*(max(b[0][i] - a[0][i], a[1][i] - b[1][i]) for i in (0, 1)), b[0][2] - a[0][2])
            top = a[1][2] - b[1][2]
            if max(sides, top - SINK * _size(a, 2)) > tol:
                return False, f"{s}: not inside {t} ({_metres(max(sides, top))} out of it)"
            return True, f"{s}: inside {t}"
        case _:
            return _sized(relation, s, t, a, b)


def _around(s: str, t: str, a: Box, b: Box, tol: float) -> tuple[bool, str]:
    short = max(max(a[0][i] - b[0][i], b[1][i] - a[1][i]) for i in (0, 1))
    if short > tol:
        return False, f"{s}: not around {t} (its footprint leaves the {t}'s by {_metres(short)})"
    if a[1][2] < b[0][2] - tol or a[0][2] > b[1][2] + tol:
        return False, f"{s}: not around {t} (above or below it, not at its height)"
    return True, f"{s}: around {t}"


def _on(s: str, t: str, a: Box, b_boxes: list[Box], tol: float) -> tuple[bool, str]:
    over = [b for b in b_boxes if _footprint_overlap(a, b, tol) >= OVERLAP]
    if not over:
        centre = [(a[0][i] + a[1][i]) / 2 for i in (0, 1)]
        away = min(sum(max(0.0, b[0][i] - centre[i], centre[i] - b[1][i]) ** 2 for i in (0, 1)) ** 0.5 for b in b_boxes)
        return False, f"{s}: not on {t} (not over it: {_metres(away)} to the side of its footprint)"
    best = min(over, key=lambda b: abs(a[0][2] - b[1][2]))
    top, bottom = best[1][2], a[0][2]
    if bottom > top + tol:
        return False, f"{s}: not on {t} (floats {_metres(bottom - top)} above its top)"
    if a[1][2] <= top:
        return False, f"{s}: not on {t} (below its top: it should stand on the {t})"
    if bottom < top - SINK * _size(a, 2) - tol:
        return False, f"{s}: not on {t} (sunk {_metres(top - bottom)} into it: its bottom belongs at the {t}'s top)"
    return True, f"{s}: on {t}"


def _under(s: str, t: str, a: Box, b_boxes: list[Box], tol: float) -> tuple[bool, str]:
    over = [b for b in b_boxes if _footprint_overlap(a, b, tol) >= OVERLAP]
    if not over:
        return False, f"{s}: not under {t} (not beneath it: to its side)"
    if any(b[0][2] >= a[1][2] - tol for b in over):
        return True, f"{s}: under {t}"
    best = max(over, key=lambda b: b[0][2] - a[1][2])
    return False, f"{s}: not under {t} (its top is {_metres(a[1][2] - best[0][2])} above the {t}'s bottom)"


def _beside(s: str, t: str, a: Box, b: Box, b_boxes: list[Box], tol: float) -> tuple[bool, str]:
    distance = min(gap(a, x) for x in b_boxes)
    if distance > tol:
        return False, f"{s}: not touching {t} (gap {_metres(distance)})"
    middle = (a[0][2] + a[1][2]) / 2
    if not b[0][2] - tol <= middle <= b[1][2] + tol:
        where = "above" if middle > b[1][2] else "below"
        return False, f"{s}: not at the {t}'s side ({where} it: its middle is outside the {t}'s height)"
    centre = [(a[0][i] + a[1][i]) / 2 for i in (0, 1)]
    inner = all(b[0][i] + SIDE * _size(b, i) < centre[i] < b[1][i] - SIDE * _size(b, i) for i in (0, 1))
    if inner:
        return False, f"{s}: not at the {t}'s side (within its footprint, in or over its middle: move it out to a side)"
    return True, f"{s}: beside {t}"


_SIZES = {
    "larger_than": ("volume", lambda x: _size(x, 0) * _size(x, 1) * _size(x, 2), True, "m³"),
    "smaller_than": ("volume", lambda x: _size(x, 0) * _size(x, 1) * _size(x, 2), False, "m³"),
    "wider_than": ("across", lambda x: max(_size(x, 0), _size(x, 1)), True, "m"),
    "narrower_than": ("across", lambda x: max(_size(x, 0), _size(x, 1)), False, "m"),
    "taller_than": ("tall", lambda x: _size(x, 2), True, "m"),
    "shorter_than": ("tall", lambda x: _size(x, 2), False, "m"),
}


def _sized(relation: str, s: str, t: str, a: Box, b: Box) -> tuple[bool, str]:
    what, measure, more, unit = _SIZES[relation]
    x, y = measure(a), measure(b)
    ok = x >= SIZE_MARGIN * y if more else y >= SIZE_MARGIN * x
    word = relation.replace("_", " ")
    figures = f"{x:.3g} {unit} {what}, the {t} {y:.3g} {unit}"
    return (True, f"{s}: {word} {t} ({figures})") if ok else (False, f"{s}: not {word} {t} ({figures})")


def parts_found(scene: SceneSummary, parts: Sequence[str]) -> list[tuple[str, bool, str]]:
    """(part, found, message) of each part: the objects named like it, or "no object named like 'saucer'"."""
    out = []
    for p in parts:
        objects = part_objects(scene, p, parts)
        key = part_key(p)
        if objects:
            out.append((key, True, f"{key}: {', '.join(o.name for o in objects[:4])}"))
        else:
            out.append((key, False, f"no object named like {key!r}"))
    return out


def check_all(relations: Sequence[Relation], scene: SceneSummary, parts: Sequence[str] = ()) -> list[tuple[Relation, bool, str]]:
    """Every relation checked: (relation, holds, message)."""
    return [(r, *check(r, scene, parts)) for r in relations]


_WORD = re.compile(r"^[a-z][a-z-]*(?:\|[a-z][a-z-]*)*$")


def valid_part(part: str) -> bool:
    """A part is lower-case words joined by '|' (alternatives): 'saucer', 'nose|carrot'."""
    return bool(_WORD.match(part))


PLACEMENT = "placement: "  # every placement check's label starts so ("placement: lamp on table")
BUILD_IT = " (build it, named for what it is)"  # what a scene is told of a target it lacks; a plan is told to add a part


def placement_checks(prompt: str, scene: SceneSummary | None) -> tuple[dict[str, bool], list[str]]:
    """(label → holds, reasons) of the placements the request states (reading.placement: "a lamp on a bedside table" →
    lamp on table), each checked where the scene has objects named for both of its parts: a part the scene lacks is the
    parts check's finding, not a misplacement. A reason says where the part is ("the request puts the lamp on the
    table: lamp: not on table (its bottom is 0.31 m above the table's top)")."""
    placed = _placed(prompt, scene) if scene is not None else []
    return {PLACEMENT + str(r): holds for r, _, holds, _ in placed}, [reason for _, _, holds, reason in placed if not holds]


def _placed(prompt: str, scene: SceneSummary) -> list[tuple[Relation, tuple[str, str], bool, str]]:
    """(relation, holds, reason) of each placement the request states whose subject the scene has. A target the request
    names in its own words ("a lamp on a bedside table") must be built: its absence fails the placement; a target that
    is the whole asked for, or a subject the scene lacks, is the parts check's to find."""
    out = []
    for text, (named, names) in stated(prompt).items():
        try:
            relation = Relation.parse(text)
        except RelationError:
            continue
        said = f"the request puts the {relation.subject} {_SAID[relation.relation]} the {relation.target}"
        parts = (relation.subject, names if valid_part(names) else relation.target)
        subject, target = (part_objects(scene, p, parts) for p in parts)
        if subject and not target and named:
            out.append((relation, parts, False, f"{said}: no object is named like {relation.target!r}{BUILD_IT}"))
            continue
        if not subject or not target or {o.name for o in subject} & {o.name for o in target}:
            continue  # one found in the other ("hat" in every material) is no placement
        holds, message = check(relation, scene, parts)
        out.append((relation, parts, holds, f"{said}: {message}"))
    return out


_SAID = {"on": "on", "under": "under", "inside": "inside", "around": "around", "above": "above", "touches": "against"}


# What a plan revision is told to set where a placement fails: the builder places a part by "on", "side" and "at".
_FIX = {
    "on": 'give the {s} "on": "<the {t} part>" and "side": "top"',
    "under": 'give the {s} "on": "<the {t} part>" and "side": "bottom"',
    "inside": "size the {s} to fit within the {t} and put its centre at the {t}'s",
    "around": "lay the {s} out around the {t} (a repeat with pattern circle, the {t} at its centre)",
    "above": "move the {s} up over the {t}",
    "touches": 'give the {s} "on": "<the {t} part>" and the side it touches',
}


def plan_placement_findings(plan: Plan, prompt: str) -> list[str]:
    """The placements the request states that the plan's boxes break, each a sentence a plan revision acts on, before
    anything runs ("the request puts the lamp on the table: lamp: not on table (…); give the lamp "on": "<the table
    part>" and "side": "top""). A placement naming a part the plan repeats is left to the scene (the plan's box is its
    first copy only)."""
    boxes = [(p.name, box_of(p)) for p in plan.parts if p.shape not in PLAN_STAGING]
    if not boxes:
        return []
    objects = [
        ObjectSummary(name=name, type="MESH", vertices=8, faces=6, visible=True, bbox=BoundingBox(min=lo, max=hi))
        for name, (lo, hi) in boxes
    ]
    lo, hi = union([b for _, b in boxes])
    scene = SceneSummary(object_count=len(objects), objects=objects, bbox=BoundingBox(min=lo, max=hi), camera=True, light=True)
    repeated = {p.name for p in plan.parts if p.repeat > 1 or any(m.type == "array" for m in p.modifiers)}
    findings = []
    for relation, parts, holds, reason in _placed(prompt, scene):
        if holds or any(o.name in repeated for part in parts for o in part_objects(scene, part, parts)):
            continue
        fix = _FIX[relation.relation].format(s=relation.subject, t=relation.target)
        if not part_objects(scene, parts[1], parts):
            fix = f"add a part named {relation.target} and {fix}"
        findings.append(f"{reason.removesuffix(BUILD_IT)}; {fix}")
    return findings
