"""Acceptance by agreement with something of the request's kind (BPYWRIGHT_REVIEW=neighbours): no model is asked.

An answer that passed the objective and structural checks is measured in Blender (fidelity/measure.py: surface points,
normalised by centre and bounding-box diagonal) and compared with:

- **verified neighbours**: the AGREE_WITH nearest exemplars of the same kind that a person verified (never
  source="generated": an answer this rule accepted must not vouch for the next one). It agrees when its F-score
  against each beats a unit cube's by MARGIN;
- else the **archetype of its kind**, built by the plan builder: the critic's shape of the kind (graph/plans/shapes.py, shown
  to the model as its first plan example unless Settings.plan_shapes is off), else the plan library's. A kind word of the
  request's first clause must name it (kind_archetypes). It agrees when its F-score beats the archetype's wrong-object
  floor by WRONG_MARGIN and a unit cube's by ARCHETYPE_MARGIN, it covers COVER of the archetype's surface, keeps its
  proportions within PROPORTION, is not one plain solid where the archetype has parts (PLAIN, STRUCTURED), repeats a
  pattern with PATTERN_PARTS parts or more, and is not a shown archetype again up to scale (REPEAT_F).

A request of a kind that neither has gets no verdict (nothing is accepted). An answer that disagrees gets fresh answers
(the redraw node, Settings.redraws), each reviewed the same way; of answers that all disagree, the one that beats the cube
by most against its least-agreeing neighbour is returned. Measurements of neighbours, archetypes and the cube are cached
under the artifacts folder by script digest.

Each bar was set by reading answers against their BlendNet references and on the contact sheets, and checked on prompts
not used while setting it: docs/benchmarks/acceptance.md has the measurements.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ...fidelity.compare import compare
from ...fidelity.measure import MEASURE_VERSION, UNIT_CUBE
from ...fidelity.models import SceneGeometry
from ...fidelity.plain import plainness
from ..plans.scene import kind_heads, kind_words
from ..reading.request import asks_for_a_pattern

AGREE_WITH = 2  # nearest same-kind verified exemplars the answer must agree with (each of them)
MARGIN = 0.2  # the answer's F-score against a neighbour must beat the unit cube's against it by this much
# An answer this close to a shown archetype (F-score, after normalising for size) is the shown plan repeated up to scale,
# not a shape drawn for the request (a sandwich that is the library's burger with one more layer scores 0.997). A
# critic's shape that was not shown does not lead to it: an answer that is it again up to scale agrees.
REPEAT_F = 0.99
# The wrong-object floor: the answer must be closer to the archetype than WRONG_QUANTILE of the archetypes of other kinds
# are (their F against it, measured once and shipped in data/archetype_floors.json by bench/archetypes.py
# --write-floors), by WRONG_MARGIN: closer than other objects by a clear step, not by a hair. A unit cube is a weak floor
# where the kind is boxy.
WRONG_QUANTILE = 0.8
FLOORS = Path(__file__).parents[1] / "data" / "archetype_floors.json"
WRONG_MARGIN = 0.1
# The answer must cover COVER of the archetype's surface (the F-score's recall: archetype points within tau of the
# answer), and then beats a cube by ARCHETYPE_MARGIN rather than MARGIN: a wrong answer that agrees by F is mostly one
# that lies on part of the archetype and lacks the rest (a box where a juicer has a jug and a reamer).
COVER = 0.5
ARCHETYPE_MARGIN = 0.1
# Its height over the larger of its width and depth must be the archetype's within a factor of PROPORTION (FLAT_FLOOR at
# least, so that two flat things compare as equals): the F-score is taken after normalising by the bounding-box
# diagonal, so a tall cake scores well against a flat pizza.
PROPORTION = 3.0
FLAT_FLOOR = 0.02
# Against an archetype that is not itself near a plain solid (a box or cylinder filling its bounds scores under
# STRUCTURED against it: fidelity/plain.py), the answer must not be one plain solid (PLAIN or more): one box passes the
# other bars for a kind near enough a box (a microscope drawn as a cube, a couch as a long box).
PLAIN = 0.85
STRUCTURED = 0.75
# Where the request asks for a pattern (request.asks_for_a_pattern: a chessboard, a mosaic), the answer must have
# PATTERN_PARTS visible parts or more: at 5 % of the diagonal one sheet has the F-score of a sheet of tiles. Parts are
# visible objects with faces, so a tile repeated by an Array modifier is one part (still returned, not accepted).
PATTERN_PARTS = 4

Measure = Callable[[str], SceneGeometry | None]  # a script → its measured geometry (None: it did not run or measure)


@dataclass
class Neighbour:
    """One verified exemplar the answer was compared with."""

    id: str
    prompt: str
    fscore: float  # the answer's F-score against it
    cube: float  # a unit cube's F-score against it
    archetype: bool = False  # an archetype of the kind written here (graph/plans/shapes.py, graph/plans/library.py), not an exemplar
    shown: bool = True  # an archetype the model may have been shown (the plan library's); a critic's shape is not
    wrong: float | None = None  # an archetype's wrong-object floor (WRONG_QUANTILE of other kinds' F against it)
    cover: float | None = None  # the share of an archetype's surface within tau of the answer (the F-score's recall)
    proportion: float | None = None  # the answer's flatness over the archetype's (flatness); None: not measured
    plain: float | None = None  # the answer's plainness (fidelity/plain.py: a plain solid fitted to its bounds against it)
    archetype_plain: float | None = None  # the archetype's plainness; None (either): not measured
    pattern_parts: int | None = None  # the answer's visible parts where the request asks for a pattern; None: it does not

    @classmethod
    def from_summary(cls, d: dict[str, Any]) -> Neighbour:
        """One neighbour as summary() keeps it (or as bench/archetypes.py judges one): its bars, without its prompt."""
        return cls(
            str(d.get("id", "")),
            "",
            float(d["fscore"]),
            float(d["cube"]),
            archetype=bool(d.get("archetype")),
            shown=bool(d.get("shown", True)),
            wrong=d.get("wrong"),
            cover=d.get("cover"),
            proportion=d.get("proportion"),
            plain=d.get("plain"),
            archetype_plain=d.get("archetype_plain"),
            pattern_parts=d.get("pattern_parts"),
        )

    @property
    def repeats(self) -> bool:
        """A shown archetype the answer repeats up to scale (F >= REPEAT_F): no agreement."""
        return self.archetype and self.shown and self.fscore >= REPEAT_F

    @property
    def margin(self) -> float:
        """What the answer's F must beat the cube's by: ARCHETYPE_MARGIN against an archetype whose cover was measured
        (the cover does the rest), else MARGIN."""
        return ARCHETYPE_MARGIN if self.archetype and self.cover is not None else MARGIN

    @property
    def agrees(self) -> bool:
        """Beats the cube by its margin and, against an archetype, its wrong-object floor by WRONG_MARGIN and COVER where
        measured."""
        return (
            self.fscore > self.cube + self.margin
            and (self.wrong is None or self.fscore > self.wrong + WRONG_MARGIN)
            and (self.cover is None or self.cover >= COVER)
            and self.proportioned
            and not self.too_plain
            and not self.unrepeated
            and not self.repeats
        )

    @property
    def unrepeated(self) -> bool:
        """The request asks for a pattern and the answer has fewer than PATTERN_PARTS parts to repeat."""
        return self.pattern_parts is not None and self.pattern_parts < PATTERN_PARTS

    @property
    def proportioned(self) -> bool:
        """Its proportions are the archetype's within a factor of PROPORTION (or were not measured)."""
        return self.proportion is None or 1 / PROPORTION <= self.proportion <= PROPORTION

    @property
    def too_plain(self) -> bool:
        """The answer is one plain solid (PLAIN) and the archetype is not near one (under STRUCTURED)."""
        if self.plain is None or self.archetype_plain is None:
            return False
        return self.plain >= PLAIN and self.archetype_plain < STRUCTURED


def pattern_parts(prompt: str, geometry: SceneGeometry) -> int | None:
    """The answer's visible parts where the request asks for a pattern (request.asks_for_a_pattern); None where not."""
    return geometry.parts if asks_for_a_pattern(prompt) else None


def flatness(geometry: SceneGeometry) -> float:
    """Height over the larger of width and depth (FLAT_FLOOR at least: a sheet and a tile are equally flat)."""
    assert geometry.bbox is not None
    (x0, y0, z0), (x1, y1, z1) = geometry.bbox
    return max((z1 - z0) / max(x1 - x0, y1 - y0, 1e-9), FLAT_FLOOR)


@dataclass
class Agreement:
    """The verdict: agreed (accept), the neighbours compared, and why in one line."""

    agreed: bool
    why: str
    neighbours: list[Neighbour] = field(default_factory=list)
    too_few: bool = False  # no verdict: the store holds fewer than AGREE_WITH verified exemplars of the kind


def neighbours_of(store: Any, prompt: str, version: str, k: int = AGREE_WITH) -> list[Any]:
    """The k nearest verified exemplars of the same kind (sharing a kind word) that were not generated."""
    kinds = kind_words(prompt)
    if not kinds:
        return []
    near = store.nearest(prompt, version, 3 * k)
    return [n for n in near if n.source != "generated" and kinds & kind_words(n.prompt)][:k]


class GeometryCache:
    """Measured geometries by script digest, as JSON files under a folder (the neighbours' and the cube's: the same
    scripts are compared again on every request of their kind). Unreadable or malformed entries are measured anew."""

    def __init__(self, folder: Path):
        self.folder = folder

    def get(self, script: str, measure: Measure) -> SceneGeometry | None:
        key = f"{MEASURE_VERSION}\n{script}"  # a geometry measured by an earlier measurement is measured again
        path = self.folder / f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.json"
        try:
            return SceneGeometry.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, ValidationError):
            pass
        geometry = measure(script)
        if geometry is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(geometry.model_dump_json())
            os.replace(tmp, path)
        return geometry


def answer_and_cube(script: str, measure: Measure, cache: GeometryCache, what: str) -> tuple[SceneGeometry, SceneGeometry] | Agreement:
    """The answer's measured scene and the unit cube's (the margin's base), or the verdict saying which could not be
    measured (what: the shapes it was to be compared with)."""
    answer = measure(script)
    if answer is None or answer.empty:
        return Agreement(False, f"not accepted: its scene could not be measured to compare with {what}")
    cube = cache.get(UNIT_CUBE, measure)
    if cube is None:
        return Agreement(False, "not accepted: the unit cube the margin is measured from could not be measured")
    return answer, cube


def agree(prompt: str, script: str, version: str, store: Any, measure: Measure, cache: GeometryCache) -> Agreement:
    """Does the answer's shape agree with its nearest verified neighbours of the same kind?"""
    near = neighbours_of(store, prompt, version) if store is not None else []
    if len(near) < AGREE_WITH:
        return Agreement(
            False,
            f"not accepted: no model reviews it (BPYWRIGHT_REVIEW=neighbours, the local model's catalogue entry; =model "
            f"asks it), and the exemplar store holds {len(near)} verified exemplar(s) of this kind of object to compare "
            f"its shape with ({AGREE_WITH} needed: `bpywright exemplars import PAIRS.jsonl` adds verified pairs; "
            "`bpywright exemplars add --prompt PROMPT SCRIPT`, then `bpywright exemplars trust ID`, adds one you have checked)",
            too_few=True,
        )
    measured = answer_and_cube(script, measure, cache, "the verified exemplars")
    if isinstance(measured, Agreement):
        return measured
    answer, cube = measured
    compared: list[Neighbour] = []
    for n in near:
        reference = cache.get(n.script, measure)
        if reference is None or reference.empty:
            return Agreement(False, f"not accepted: the verified exemplar {n.id} could not be measured to compare with", compared)
        compared.append(Neighbour(n.id, n.prompt, compare(answer, reference).fscore, compare(cube, reference).fscore))
    shown = "; ".join(f"F {c.fscore:.2f} against {c.id} ({c.prompt[:60]!r}), a cube {c.cube:.2f}" for c in compared)
    if all(c.agrees for c in compared):
        return Agreement(
            True, f"accepted: its shape agrees with the {len(compared)} nearest verified exemplars of its kind ({shown})", compared
        )
    return Agreement(
        False,
        f"not accepted: its shape does not agree with the {len(compared)} nearest verified exemplars of its kind by the margin "
        f"of {MARGIN} over a cube ({shown})",
        compared,
    )


def disagreed(critique: Any) -> bool:
    """The answer passed the checks and was compared with enough neighbours, or with the archetype of its kind, and its
    shape did not agree: a verdict against it (not "no verdict", which a store without two of the kind and without an
    archetype of it gives, and which another answer cannot change)."""
    compared = critique.agreement
    verdict = len(compared) >= AGREE_WITH or compared_with(compared) == "archetype"
    return bool(critique.objective_ok and not critique.accepted and verdict)


def closeness(critique: Any) -> float:
    """How clearly the answer beat the cube against its least-agreeing neighbour (-1 when it was not compared)."""
    return min((n["fscore"] - n["cube"] for n in critique.agreement), default=-1.0)


@dataclass(frozen=True)
class Known:
    """An archetype an answer can be held against: its id (shape:N, critic-only; plan:N, the shown plan library), the
    request it draws, the script the plan builder makes of it and the kind words that name it."""

    id: str
    request: str
    script: str
    shown: bool  # the plan library's: the model may have been shown it
    kinds: frozenset[str]
    plan: str  # its plan JSON, which with the request is what its shipped floor was measured from

    @property
    def digest(self) -> str:
        """What the shipped wrong-object floor was measured from: its request and plan (not the script, which is
        per Blender version)."""
        return hashlib.sha256(f"{self.request}\n{self.plan}".encode()).hexdigest()[:16]


@cache
def known_archetypes(version: str) -> tuple[Known, ...]:
    """Every archetype, built: the critic's shapes (graph/plans/shapes.py), then the plan library (its scripts as the copy test
    builds them, copies.library_scripts)."""
    from ..plans.library import LIBRARY
    from ..plans.plan import archetype_script
    from ..plans.shapes import SHAPES
    from .copies import library_scripts

    shapes = tuple(Known(f"shape:{i}", a.request, archetype_script(a, version), False, a.kinds, a.plan) for i, a in enumerate(SHAPES))
    # a library plan is held against only what its own object's words name; its broader kinds choose what it is shown for
    library = tuple(Known(b.id, a.request, b.script, True, a.same, a.plan) for a, b in zip(LIBRARY, library_scripts(version), strict=True))
    return shapes + library


def kind_archetypes(prompt: str, version: str) -> list[Known]:
    """The archetypes of the request's kind, nearest first: those that a word of the request's first clause names the
    kind of (kind_heads: not a word of its details, "a drum set with … a stool" is held against no park bench, and not
    a word that modifies the next, a pizza slice is held against no whole pizza); the critic-only shapes
    (graph/plans/shapes.py, narrow kinds) before the shown plan library (broad ones: its bench names sofa and seat, and would
    otherwise outrank the sofa for "a sofa with seat cushions"), each group most of the request's words in common
    first, then in its own order (the sort is stable)."""
    from ..plans.library import request_words

    known = known_archetypes(version)
    kinds, words = kind_heads(prompt, kind_names(version)), request_words(prompt)
    return sorted((k for k in known if k.kinds & kinds), key=lambda k: (k.shown, -len(words & k.kinds)))


@cache
def kind_names(version: str) -> frozenset[str]:
    """Every word that names an archetype's kind: "a coat rack" names the coatrack, written as two words
    (scene_plan.kind_heads)."""
    return frozenset(w for k in known_archetypes(version) for w in k.kinds)


@dataclass(frozen=True)
class Floor:
    """An archetype's wrong-object floor: the F-score against it that WRONG_QUANTILE of the other kinds' archetypes
    stay at or below, and the one that scores it."""

    fscore: float
    at: str  # the request of the other kind's archetype at the quantile


def wrong_objects(known: Sequence[Known], fscore: Callable[[Known, Known], float | None]) -> dict[str, Floor]:
    """Every archetype's wrong-object floor, by digest: fscore(other, archetype) over the archetypes that share no kind
    word with it (those that do may be the same object)."""
    out: dict[str, Floor] = {}
    for k in known:
        scored = sorted(
            ((f, o.request) for o in known if o is not k and not o.kinds & k.kinds and (f := fscore(o, k)) is not None),
            key=lambda t: t[0],
        )
        if scored:
            f, at = scored[int(WRONG_QUANTILE * (len(scored) - 1))]
            out[k.digest] = Floor(round(f, 4), at)
    return out


@cache
def shipped_floors() -> dict[str, Floor]:
    """The wrong-object floors measured with the project (data/archetype_floors.json); {} where the file is missing or
    damaged, and an archetype it does not name (changed since) is held to the cube margin alone."""
    try:
        data = json.loads(FLOORS.read_text(encoding="utf-8"))
        return {d: Floor(float(v["fscore"]), str(v["at"])) for d, v in data["floors"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def archetype_of(prompt: str, version: str) -> Known | None:
    """The archetype the answer to the request is held against (the first of kind_archetypes), or None where neither
    the shapes nor the plan library has one of its kind."""
    near = kind_archetypes(prompt, version)
    return near[0] if near else None


def led_to(found: Known, shown_ids: Collection[str], prompt: str, answer: SceneGeometry, archetype: SceneGeometry) -> bool:
    """Whether the model was shown the archetype in a way that an answer repeating it up to scale (REPEAT_F) owes its
    shape to the showing: always for the plan library's; for a critic's shape, where the request showed it (shown_ids,
    Settings.plan_shapes). Where the request asks for a pattern, F cannot tell a sheet of tiles from one sheet
    (PATTERN_PARTS), nor so from the shown shape again: a board of 64 tiles scores 1.00 against the shown chessboard (a
    board and its border) and is a board drawn for the request. There an answer repeats a shown critic's shape only with
    as many parts. Elsewhere F alone decides: an answer at 0.99 or more is the shape's surface again, whatever parts it
    hides inside or drops (a sofa of 11 parts scores 0.999 against the shown sofa of 5). An archetype of one part (a
    ball: a sphere; the table's shapes are built of primitives) leads nowhere: the right answer cannot help being it again."""
    if archetype.parts <= 1:
        return False  # a ball's archetype is one sphere: every right answer is it again, up to scale
    if found.shown:
        return True
    return found.id in shown_ids and (not asks_for_a_pattern(prompt) or answer.parts == archetype.parts)


def against_archetype(
    prompt: str,
    script: str,
    version: str,
    measure: Measure,
    cache: GeometryCache,
    no_verdict: Agreement,
    shown_ids: Collection[str] = (),
) -> Agreement:
    """Where the store holds too few verified exemplars of the kind (no_verdict): does the answer's shape agree with the
    archetype of its kind (archetype_of: a critic's shape, else the plan library's)? no_verdict, its reason extended,
    where there is none. shown_ids: what the request showed the model; a critic's shape among them was shown
    (Settings.plan_shapes), and an answer that repeats it up to scale is no agreement, as with the plan library's."""
    found = archetype_of(prompt, version)
    if found is None:
        return Agreement(False, f"{no_verdict.why}; no archetype of its kind to compare with either", too_few=True)
    shown = found.shown or found.id in shown_ids
    whose = "the plan library's archetype" if found.shown else ("the critic's shown archetype" if shown else "the critic's archetype")
    measured = answer_and_cube(script, measure, cache, f"{whose} {found.request!r}")
    if isinstance(measured, Agreement):
        return measured
    answer, cube = measured
    reference = cache.get(found.script, measure)
    if reference is None or reference.empty:
        return Agreement(False, f"not accepted: {whose} {found.request!r} could not be measured to compare with")
    floor = shipped_floors().get(found.digest)
    against = compare(answer, reference)
    tall, archetype_tall = flatness(answer), flatness(reference)
    (plain, solid), (archetype_plain, _) = plainness(answer), plainness(reference)
    n = Neighbour(
        found.id,
        found.request,
        against.fscore,
        compare(cube, reference).fscore,
        archetype=True,
        shown=led_to(found, shown_ids, prompt, answer, reference),
        wrong=floor.fscore if floor else None,
        cover=against.recall,
        proportion=tall / archetype_tall,
        plain=plain,
        archetype_plain=archetype_plain,
        pattern_parts=pattern_parts(prompt, answer),
    )
    where = f"the store holds no 2 verified exemplars of its kind; F {n.fscore:.2f} against {whose} {found.request!r}, a cube {n.cube:.2f}"
    if floor is not None:
        where += f", other objects {floor.fscore:.2f} ({WRONG_QUANTILE:.0%} of other kinds' archetypes score no more, e.g. {floor.at!r})"
    where += f"; it covers {against.recall:.0%} of the archetype's surface ({COVER:.0%} needed)"
    where += f"; height to width {tall:.2f}, the archetype's {archetype_tall:.2f} (within a factor of {PROPORTION:g} needed)"
    where += (
        f"; {solid} filling its bounds scores {plain:.2f} against it, the best plain solid against the archetype {archetype_plain:.2f} "
        f"(an answer that is a plain solid, {PLAIN:g} or more, agrees only with an archetype near one, {STRUCTURED:g} or more)"
    )
    if n.pattern_parts is not None:
        where += f"; the request asks for a pattern: {n.pattern_parts} part(s) ({PATTERN_PARTS} or more needed)"
    if n.repeats:
        return Agreement(
            False, f"not accepted: its shape is {whose} of its kind again, up to scale ({where}): no sign it was drawn for the request", [n]
        )
    if n.agrees:
        return Agreement(True, f"accepted: its shape agrees with {whose} of its kind ({where})", [n])
    bar = f"by the margin of {n.margin} over a cube" + (f" and of {WRONG_MARGIN} over other objects" if floor is not None else "")
    bar += f", covering {COVER:.0%} of it, in its proportions, and more than one plain solid where the archetype is more"
    bar += f", and a pattern of {PATTERN_PARTS} parts or more" if n.pattern_parts is not None else ""
    return Agreement(False, f"not accepted: its shape does not agree with {whose} of its kind {bar} ({where})", [n])


def compared_with(agreement: list[dict[str, Any]]) -> str:
    """What a critique's agreement (summary's form) held the answer against: "archetype" (against_archetype),
    "exemplars" (verified neighbours) or "" (nothing compared)."""
    if not agreement:
        return ""
    if all(n.get("archetype") for n in agreement):
        return "archetype"
    return "exemplars"


def redraw_hint(agreement: list[dict[str, Any]]) -> str:
    """What a fresh plan of the request is told of an earlier answer held against the archetype of its kind (summary's
    form), where the answer failed a bar a plan can be asked to meet: its proportions (how many times too tall or too
    flat for its width, not the archetype's own figures), one plain solid for a kind with parts, or too few parts for a
    pattern; "" otherwise. Its F, cover and wrong-object floor are never told: those stay a verdict the model was not
    led to.

    Why: under the plan strategy a redraw is a fresh sample, not a revision, and a small model draws the same mistake
    again when told nothing (a pizza drawn too tall on every one of its draws, 3.9 to 51 times the archetype's height for
    its width)."""
    if compared_with(agreement) != "archetype":
        return ""
    hints = []
    for n in map(Neighbour.from_summary, agreement):
        if n.proportion is not None and not n.proportioned:
            taller = n.proportion > 1
            how = f"{n.proportion:.1f} times as tall" if taller else f"{1 / n.proportion:.1f} times as flat"
            hints.append(
                f"An earlier plan for this request drew the object {how}, for its width, as such an object is. "
                f"Plan it afresh {'much flatter' if taller else 'much taller'}: its height a "
                f"{'smaller' if taller else 'larger'} share of its width and depth."
            )
        if n.unrepeated:
            hints.append(
                f"An earlier plan for this request drew {n.pattern_parts} part(s). A pattern repeats its shapes: plan each "
                f"tile or motif as its own part, {PATTERN_PARTS} or more, side by side in rows."
            )
        if n.too_plain:
            hints.append(
                "An earlier plan for this request drew the object as one plain block or cylinder. Such an object has distinct "
                "parts of different sizes: plan each of them."
            )
    return " ".join(hints)


def summary(agreement: Agreement) -> list[dict[str, Any]]:
    """The neighbours compared, as the critique keeps them (JSON-safe)."""
    return [
        {"id": n.id, "fscore": round(n.fscore, 4), "cube": round(n.cube, 4), "agrees": n.agrees}
        | ({"archetype": True} if n.archetype else {})
        | ({"wrong": round(n.wrong, 4)} if n.wrong is not None else {})
        | ({"cover": round(n.cover, 4)} if n.cover is not None else {})
        | ({"proportion": round(n.proportion, 4)} if n.proportion is not None else {})
        | ({"plain": round(n.plain, 4)} if n.plain is not None else {})
        | ({"archetype_plain": round(n.archetype_plain, 4)} if n.archetype_plain is not None else {})
        | ({"pattern_parts": n.pattern_parts} if n.pattern_parts is not None else {})
        for n in agreement.neighbours
    ]


def pool_measure(pool: Any, options: Any) -> Measure:
    """Measure scripts on the loop's local worker pool (the job's files are read back, which a Ray pool does not offer)."""
    from ...fidelity.measure import measure

    def run(script: str) -> SceneGeometry | None:
        result = measure(pool, script, options)
        return result.geometry if result.ran else None

    return run
