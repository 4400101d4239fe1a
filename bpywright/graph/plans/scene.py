"""A verified exemplar's scene read back as a part plan, so the plan strategy can learn from the exemplar store.

The plan strategy (the default for a small local model) asks for parts, not code, so an exemplar's script is of no use
to it; what an exemplar does know is its scene: the objects its validating run built, each with its world-space bounds,
vertex and face counts and materials (RunReport.scene). plan_of_scene turns that into the plan a model writes: a shape
per object (read from its name, else from the counts Blender's primitives have), its size and turn (a cylinder whose
round extents are y and z lies along x), and its place in words, the side of an earlier part it touches and the edge it
is flush with, which plan_layout turns back into coordinates. Colours come from material names where they name one.

The reading is approximate by design (bounds only, a cone read as pointing up, a part's turn only in right angles): it is
shown as "a plan of a related object" to learn sizes and placement from, never built as an answer, and a plan that
repeats it is a copy (graph/plan.copied_plan).
"""

from __future__ import annotations

import math
import re

from ...harness.report import ObjectSummary, SceneSummary
from ..reading.request import ADJECTIVES, content, head, name_words, singular
from ..reading.vocabulary import vocabulary
from .checks import box_gap
from .layout import Box
from .parts import PALETTE, Part, Plan, Vec3

MAX_SHOWN_PARTS = 12  # about 70 prompt tokens a part: a shown plan stays under 900 tokens
TOUCH = 0.01  # a gap under 1 % of the scene's diagonal is touching
ROUND = 0.05  # two extents within 5 % of each other are a round cross-section
_NAMED_SHAPES = vocabulary().named_shapes
_COLOUR_WORDS = vocabulary().colour_words
FUNCTION = frozenset(vocabulary().function.words)
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
_TOKEN = re.compile(r"[a-z]+(?:-[a-z]+)*|[^a-z\s]")
# A comma after an adjective lists the next one ("a simple, round coaster"); it does not end the request's first clause.
_LISTED_ADJECTIVE = re.compile(r"\b(" + "|".join(sorted(ADJECTIVES)) + r"),\s")
COLLECTIVE = frozenset(vocabulary().collective.words)
PARTICIPLES = frozenset(vocabulary().participles.words)
CLASS_WORDS = frozenset(vocabulary().class_words.words)
GENERIC = frozenset(vocabulary().asking.words)
OTHER_SENSES = {kind: frozenset(before) for kind, before in vocabulary().other_senses.items()}


def shape_of(obj: ObjectSummary) -> str:
    """The primitive an object most likely is: its name's word for one, else the vertex and face counts Blender's own
    primitives have (a cube 8/6, a plane 4/1, a cylinder of n sides 2n/n+2, a cone n+1/n+1, a UV sphere of s segments
    and r rings s(r-1)+2/sr, an ico sphere 12·…, a torus m·n/m·n); a box when nothing says otherwise."""
    for word in name_words(obj.name):
        if word in _NAMED_SHAPES:
            return _NAMED_SHAPES[word]
    v, f = obj.vertices or 0, obj.faces or 0
    if (v, f) == (8, 6):
        return "box"
    if (v, f) == (4, 1):
        return "plane"
    if v >= 6 and v % 2 == 0 and f == v // 2 + 2:
        return "cylinder"
    if v == f and 4 <= v <= 130:
        return "cone"
    if v == f and v > 130:
        return "torus"
    if (v, f) in ((12, 20), (42, 80), (162, 320), (642, 1280), (2562, 5120)):
        return "sphere"
    segments = f - v + 2
    if segments >= 3 and f % segments == 0 and v == segments * (f // segments - 1) + 2:
        return "sphere"
    return "box"


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= ROUND * max(a, b, 1e-9)


def size_and_turn(shape: str, extent: Vec3) -> tuple[Vec3, Vec3]:
    """(size before rotation, rotation in degrees) of a part whose world bounds are `extent`: a cylinder or cone whose
    round pair of extents is not x and y lies along the odd axis, a torus whose thin extent is not z stands up."""
    ex, ey, ez = extent
    if shape in ("cylinder", "cone"):
        if not _close(ex, ey) and _close(ey, ez):
            return (ey, ez, ex), (0.0, 90.0, 0.0)
        if not _close(ex, ey) and _close(ex, ez):
            return (ex, ez, ey), (90.0, 0.0, 0.0)
    if shape == "torus":
        if ex < min(ey, ez) and _close(ey, ez):
            return (ey, ez, ex), (0.0, 90.0, 0.0)
        if ey < min(ex, ez) and _close(ex, ez):
            return (ex, ez, ey), (90.0, 0.0, 0.0)
    return extent, (0.0, 0.0, 0.0)


def colour_of(obj: ObjectSummary) -> str:
    """The palette colour a material's name says (Red, DarkGrey, Oak …), else grey."""
    for material in obj.materials:
        words = name_words(material)
        joined = "_".join(words)
        for name in sorted(PALETTE, key=len, reverse=True):  # dark_grey before grey
            if name in joined:
                return name
        for word in words:
            if word in _COLOUR_WORDS:
                return _COLOUR_WORDS[word]
    return "grey"


def part_name(obj: ObjectSummary) -> str:
    """The object's name as a plan part's (Leg.001 → leg, BackRest → back_rest); a bare primitive name becomes 'part'."""
    words = [w for w in name_words(obj.name) if not w.isdigit()]
    if not words or all(w in _NAMED_SHAPES for w in words):
        return "part"
    return "_".join(words)[:32]


def _box(obj: ObjectSummary) -> Box:
    assert obj.bbox is not None
    return tuple(obj.bbox.min), tuple(obj.bbox.max)  # type: ignore[return-value]


_SIDES = (("left", "right"), ("front", "back"), ("bottom", "top"))  # per axis: (−, +)


def relation(part: Box, parent: Box) -> tuple[str, str]:
    """(side, at): the side of `parent` that `part` is against (the axis its centre is furthest out along, for the two
    boxes' sizes) and the edges of that side it is flush with (centre when it is not near one)."""
    centre = [(part[0][i] + part[1][i]) / 2 for i in range(3)]
    pc = [(parent[0][i] + parent[1][i]) / 2 for i in range(3)]
    half = [(part[1][i] - part[0][i]) / 2 for i in range(3)]
    phalf = [(parent[1][i] - parent[0][i]) / 2 for i in range(3)]
    out = [(centre[i] - pc[i]) / max(phalf[i] + half[i], 1e-9) for i in range(3)]
    axis = max(range(3), key=lambda i: abs(out[i]))
    side = _SIDES[axis][out[axis] > 0]
    words = []
    for i in (1, 0, 2):  # front/back, then left/right, then top/bottom: the order SPOTS spells them
        if i == axis or phalf[i] <= half[i] * 1.2:  # a part as wide as its parent along i is centred along it
            continue
        offset = (centre[i] - pc[i]) / phalf[i]
        if abs(offset) > 0.4:
            words.append(_SIDES[i][offset > 0])
    at = "_".join(words[:2]) if words else "center"
    if at not in ("front_left", "front_right", "back_left", "back_right") and "_" in at:
        at = words[0]
    return side, at


def _gerund(word: str) -> bool:
    """An -ing word that names what a thing is for ("cooling", "scratching", "drying"): not a participle with an object."""
    return word.endswith("ing") and len(word) > 5 and word not in PARTICIPLES and not _names_kind(word)


def _names_kind(word: str) -> bool:
    """A content word that is neither the asking ('imagine', 'create') nor a function word."""
    return content(word) and word not in GENERIC and word not in FUNCTION


def _kind(prompt: str) -> list[str]:
    """The words of the request's first clause that can name its kind (_names_kind), in order."""
    return [w for w in _WORD.findall(head(prompt)) if _names_kind(w)]


def object_name(prompt: str) -> str:
    """What the request asks for, in a few words: the content words of its first clause ('a desktop computer')."""
    return " ".join(_kind(prompt)[:3]) or "object"


def plan_of_scene(scene: SceneSummary | None, prompt: str, max_parts: int = MAX_SHOWN_PARTS) -> Plan | None:
    """The scene's visible meshes as a plan in the model's own terms (on / side / at, named colours), the largest
    `max_parts` of them; None when it has none. The largest part stands on the ground; each other goes against the
    largest part placed before it that it touches, or against the largest part when it touches none (the layout has
    no gaps)."""
    if scene is None:
        return None
    meshes = [o for o in scene.objects if o.type == "MESH" and o.visible is not False and o.bbox is not None]

    def volume(o: ObjectSummary) -> float:
        lo, hi = _box(o)
        return max(hi[0] - lo[0], 1e-3) * max(hi[1] - lo[1], 1e-3) * max(hi[2] - lo[2], 1e-3)

    meshes = sorted(meshes, key=volume, reverse=True)[:max_parts]
    if not meshes:
        return None
    boxes = {id(o): _box(o) for o in meshes}
    lows, highs = zip(*boxes.values(), strict=True)
    touch = TOUCH * max(math.dist([min(b[i] for b in lows) for i in range(3)], [max(b[i] for b in highs) for i in range(3)]), 1e-9)
    order = [meshes[0]]
    left = meshes[1:]
    parent_of: dict[int, ObjectSummary] = {}
    while left:  # the largest part touching one placed already goes next (else the largest left), so a chain of
        # parts grows from the big ones: a tower beside a monitor goes against the monitor, not against its power button
        touching = {id(o): [p for p in order if box_gap(boxes[id(o)], boxes[id(p)]) <= touch] for o in left}
        o = max(left, key=lambda o: (bool(touching[id(o)]), volume(o)))
        left.remove(o)
        parent_of[id(o)] = max(touching[id(o)], key=volume) if touching[id(o)] else order[0]
        order.append(o)
    names: dict[int, str] = {}
    taken: set[str] = set()
    for o in order:
        base = part_name(o)
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}_{n}"
        taken.add(name)
        names[id(o)] = name
    parts = []
    for o in order:
        shape = shape_of(o)
        lo, hi = boxes[id(o)]
        extent = tuple(round(max(hi[i] - lo[i], 1e-4), 3) for i in range(3))
        size, turn = size_and_turn(shape, extent)  # type: ignore[arg-type]
        if shape == "plane":
            size = (size[0], size[1], 0.0) if size[2] < 1e-3 else size
            shape = "plane" if size[2] == 0.0 else "box"
        parent = parent_of.get(id(o))
        if parent is None:
            on, side, at = "ground", "top", "center"
        else:
            on = names[id(parent)]
            side, at = relation(boxes[id(o)], boxes[id(parent)])
        parts.append(Part(name=names[id(o)], shape=shape, size=size, rotation=turn, color=PALETTE[colour_of(o)], on=on, side=side, at=at))
    return Plan(object=object_name(prompt), parts=parts)


def kind_words(prompt: str) -> set[str]:
    """The words that say what a request is for (its first clause's content words, singular): what two requests must
    share for one's plan to be shown with the other."""
    return {singular(w) for w in _kind(prompt)}


PLACE_WORDS = frozenset("on in inside into under underneath beneath beside near next behind atop above below against onto".split())


def kind_heads(prompt: str, joined: frozenset[str] = frozenset()) -> set[str]:
    """The kind words that name what is asked for, not what it is for: a kind word written straight before another
    ("a pizza slice", "a bird feeder", "a desk lamp") modifies it, and so does one before a word for a group of things
    ("a drum set", "a tool kit"), or before what a thing does and the thing ("a cat scratching post", "a laptop cooling
    pad": a post, a pad); each is left out. A word for a class of things (CLASS_WORDS: computer, machine,
    device …) is narrowed by the kind word before it, which names the kind instead: "a laptop computer" is a laptop,
    "an espresso machine" an espresso maker. Two words that `joined` holds written as one name the kind together: with
    "coatrack" in joined, "a coat rack" is the coat rack, not a rack ("a power bank" the powerbank, not a piggy bank).
    What follows "for" is what the thing is for, where a kind word came before it: "a drumstick for playing drums" is a
    drumstick. A kind word after a word that makes it another object (OTHER_SENSES: "a neon ring", "an aircraft
    carrier") names no kind. What the critic holds an answer against a shape of its kind by (agreement.kind_archetypes):
    a slice is not the whole pizza, a drum set not one drum."""
    prompt = _LISTED_ADJECTIVE.sub(r"\1 ", prompt.lower())  # "a simple, round feeding bowl": the comma ends no clause
    # "can you create a travel wallet? it should …": the first sentence; "what is this? picture a syringe …": the
    # first that names anything; "wallet," is wallet and a mark, which joins no compound
    sentences = [[t for w in s.split() for t in _TOKEN.findall(w)] for s in re.split(r"[?!]", head(prompt))]

    def names(word: str) -> bool:
        return bool(_WORD.fullmatch(word)) and _names_kind(word)

    words = next((s for s in sentences if any(map(names, s))), sentences[0])
    # "a drumstick for playing drums", "a logo for a tech company": what follows "for" is what the thing is for or whom,
    # not what it is, where a kind word came before it ("i'm looking for a wind turbine" names its kind after it)
    purpose = next((i for i, w in enumerate(words) if w == "for" and any(map(names, words[:i]))), len(words))
    # "a cactus in a flower pot", "a lamp on a bedside table": after a word of place, a known kind says where the thing
    # is, not what it is: held against the pot or the table, a right answer disagrees and a wrong one may agree
    place = next((i for i, w in enumerate(words) if w in PLACE_WORDS and any(map(names, words[:i]))), len(words))
    words = words[: min(purpose, place)]
    pairs = list(zip(words, words[1:], strict=False))
    # "a neon ring", "an aircraft carrier": the word before makes the kind word another object than the table's
    other = {pair for pair in pairs if pair[0] in OTHER_SENSES.get(singular(pair[1]), ())}
    kinds = set(filter(names, words)) - {w for pair in other for w in pair}  # an aircraft carrier is no aircraft either
    compounds = {(w, after) for w, after in pairs if singular(w + after) in joined}  # "coat rack": the coatrack
    classes = {after for w, after in pairs if w in kinds and after in CLASS_WORDS}  # "laptop computer": not the class
    modifiers = {w for w, after in pairs if w in kinds and after not in CLASS_WORDS and (after in kinds or after in COLLECTIVE)}
    # "a cat scratching post", "a laptop cooling pad": a kind word, what is done, then the kind that does it
    modifiers |= {w for w, done, what in zip(words, words[1:], words[2:], strict=False) if w in kinds and _gerund(done) and what in kinds}
    parts = {w for pair in compounds for w in pair}
    return {singular(w) for w in kinds - modifiers - classes - parts} | {singular(w + after) for w, after in compounds}
