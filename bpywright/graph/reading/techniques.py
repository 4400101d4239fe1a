"""The techniques a request names (a material and its values, a modifier, keyframed motion, text, a curve, copies,
lights, the camera), read from its words (graph/data/techniques.toml); graph/review/techniques.py checks them in a scene.

A word asks for a technique only where a Blender user would agree it was asked for ("a gold crown": gold and metal; "an
orange" the fruit: no colour; "a heavy metal band poster": no metal): a wrong expectation blocks a good answer."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Literal

from pydantic import BaseModel

from .expectations import NUMBERS
from .technique_words import TechniqueWords, words

Kind = Literal["material", "modifier", "keyframes", "text", "curve", "array", "scatter", "light", "camera", "object_type"]
PREFIX = "technique:"  # every technique check's label starts so (the critic's unbuilt() finds them by it)
MAX_COUNT = 10_000


class Technique(BaseModel):
    """One technique a request names, checkable in the scene summary."""

    kind: Kind
    # material: any of
    colour: str | None = None  # a colour of the colour table: base colour (or a glowing material's emission colour)
    metallic_min: float | None = None
    metallic_max: float | None = None
    roughness_max: float | None = None
    roughness_min: float | None = None
    transmission_min: float | None = None  # or a Glass BSDF, or alpha at most 0.6
    emission_min: float | None = None  # emission strength above it, with a colour that is not black
    # modifier:
    modifier: str | None = None  # Blender's type: "SUBSURF", "BEVEL", "ARRAY", ...
    settings: dict[str, float | int | str | bool] = {}  # modifier settings; curve: bevel, mesh; camera: type
    # keyframes:
    channel: str | None = None  # data_path prefix: "location", "rotation", "scale"; None for any
    axis: int | None = None  # array index (2: z, "up and down"); None for any
    frame_start: int | None = None
    frame_end: int | None = None
    seconds: float | None = None  # "for 2 seconds": frames 1 .. seconds x the scene's fps
    # text:
    body: str | None = None  # what it reads, case-insensitive
    extrude: bool = False  # "extruded text": depth (extrude, or a SOLIDIFY modifier)
    # array / scatter / object_type / light:
    count: int | None = None
    object_type: str | None = None
    # light:
    light_type: str | None = None
    source: str = ""  # the words of the request it came from, for messages

    @property
    def label(self) -> str:
        """The check's name in a Critique, e.g. 'technique: keyframes location'."""
        detail = {
            "material": self.source,
            "modifier": self.modifier or "",
            "keyframes": self.channel or "any property",
            "text": repr(self.body) if self.body else "any",
            "array": f"{self.count or 2} copies",
            "scatter": f"{self.count} scattered",
            "light": f"{self.count or 1} {self.light_type or 'any type'}",
            "camera": " ".join(str(v) for v in (self.settings.get("type", "own"), self.settings.get("lens")) if v is not None),
            "curve": "curve object",
            "object_type": self.object_type or "",
        }[self.kind]
        return f"{PREFIX} {self.kind} {detail}".rstrip()


# --- reading the request ----------------------------------------------------------------------------------------------

# What a thing is for, not what it is made of: "a stapler used for driving metal staples", "a spout for pouring juice
# into a glass" (a clause from "used for", "for <doing>", "in order to", "so that" … to its comma or full stop).
_PURPOSE = re.compile(r"\b(?:used\s+(?:for|to)|for\s+\w+ing|in\s+order\s+to|so\s+that|by\s+\w+ing)\b[^,.;:!?]*")
_NUMBER_WORDS = {
    **NUMBERS,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "dozen": 12,
}
NUM = r"(\d+(?:\.\d+)?|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"
_WORD = re.compile(r"[a-z0-9]+")
# Words after a colour that show it ends its phrase: "an orange on a plate" (a noun colour is then the thing).
_FUNCTION = frozenset(
    "a an the and or but on in at of to for with from by into onto over under near next beside behind is are was be "
    "that which who it its this these those as so than then".split()
)


def number(text: str) -> float:
    """A number written in digits or words ("12", "twelve")."""
    return float(text) if text[0].isdigit() else float(_NUMBER_WORDS[text])


@cache
def phrase_pattern(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """A whole-word pattern for any of the phrases (longest first; a space matches spaces or a hyphen)."""
    alternatives = [re.escape(p).replace(r"\ ", r"[\s-]+") for p in sorted(phrases, key=len, reverse=True)]
    return re.compile(r"(?<![\w])(?:" + "|".join(alternatives) + r")(?![\w])")


def find(phrases: Iterable[str], text: str) -> Iterator[re.Match[str]]:
    """Matches of any of the phrases in text."""
    listed = tuple(phrases)
    return phrase_pattern(listed).finditer(text) if listed else iter(())


class Reading:
    """One request, lower case, with what every reader needs: its sentences, excluded spans and negations."""

    def __init__(self, prompt: str, table: TechniqueWords) -> None:
        self.original = prompt
        self.text = prompt.lower().replace("\u2019", "'")
        self.table = table
        self.excluded = [m.span() for m in find(table.not_phrases, self.text)] + [m.span() for m in _PURPOSE.finditer(self.text)]

    def sentences(self) -> list[tuple[int, str]]:
        """(start, text) of each sentence."""
        found, start = [], 0
        for m in re.finditer(r"[.;!?\n]+(?:\s|$)", self.text):
            found.append((start, self.text[start : m.start()]))
            start = m.end()
        found.append((start, self.text[start:]))
        return [(s, t) for s, t in found if t.strip()]

    def sentence_at(self, at: int) -> tuple[int, str]:
        """(start, text) of the sentence holding position at."""
        return next(((s, t) for s, t in reversed(self.sentences()) if s <= at), (0, self.text))

    def asked(self, start: int, end: int) -> bool:
        """The words at start..end ask for what they name: not inside an excluded phrase, not negated by the three
        words before them ("no text", "non-metallic"; "not red but blue" still asks for blue)."""
        if any(start < to and since < end for since, to in self.excluded):
            return False
        before = _WORD.findall(self.text[max(0, start - 40) : start])[-3:]
        # "non" negates the word it is joined to only: "a non-metallic red chair" is still red
        negated = [i for i, w in enumerate(before) if w in self.table.negations and (w != "non" or i == len(before) - 1)]
        return not negated or "but" in before[negated[-1] :]

    def hits(self, phrases: Iterable[str]) -> list[re.Match[str]]:
        """Matches of the phrases that ask for what they name."""
        return [m for m in find(phrases, self.text) if self.asked(*m.span())]

    def next_word(self, m: re.Match[str]) -> str:
        """The word right after a match ('' at a punctuation mark or the end)."""
        after = re.match(r"[\s-]*([a-z0-9]+)", self.text[m.end() :])
        return after.group(1) if after and not re.match(r"\s*[,.;:!?)]", self.text[m.end() :]) else ""


def techniques(prompt: str) -> list[Technique]:
    """The techniques the request names, each once."""
    reading = Reading(prompt, words())
    found = [
        *_materials(reading),
        *_modifiers(reading),
        *_keyframes(reading),
        *_text(reading),
        *_curves(reading),
        *_copies(reading),
        *_lights(reading),
        *_camera(reading),
        *_empty(reading),
    ]
    unique: dict[str, Technique] = {}
    for t in found:
        key = t.model_dump_json(exclude={"source"})
        unique.setdefault(key, t)
    return list(unique.values())


def _colour_word(reading: Reading, word: str) -> str | None:
    return next((name for name, c in reading.table.colours.items() if word in c.words), None)


def _materials(reading: Reading) -> list[Technique]:
    """Material words, joined into one technique where they stand next to each other ("shiny gold metal")."""
    table = reading.table
    entries: list[tuple[re.Match[str], dict[str, float | str]]] = []
    for entry in table.materials:
        bounds = entry.model_dump(exclude={"words", "what"}, exclude_none=True)
        entries += [(m, bounds) for m in reading.hits(entry.words)]
    covered = {m.group(0) for m, _ in entries}
    for name, colour in table.colours.items():
        for m in reading.hits(colour.words):
            if m.group(0) not in covered:
                entries.append((m, {"colour": name}))
    # a colour that changes over an animation ("a cube fading from red to blue") has no one value to check
    changing = [
        (start, start + len(sentence))
        for start, sentence in reading.sentences()
        if any(find(table.keyframes.triggers, sentence)) and re.search(r"\b(?:colou?rs?|fades?|fading|changes?|changing)\b", sentence)
    ]
    kept = []
    for m, bounds in sorted(entries, key=lambda e: e[0].start()):
        if "colour" in bounds and any(a <= m.start() < b for a, b in changing):
            bounds = {k: v for k, v in bounds.items() if k != "colour"}
            if not bounds:
                continue
        if "colour" in bounds:
            after = reading.next_word(m)
            if after in table.colour_words.not_before:
                continue  # "blue light", "a white background": no material's colour
            if table.colours[str(bounds["colour"])].noun and m.group(0) in table.colours[str(bounds["colour"])].words:
                if not after or after in _FUNCTION:
                    continue  # "an orange", "an orange on a plate": the fruit
        kept.append((m, bounds))
    # "in either bold black or chic white", "red or blue": one of them is asked, not both
    alternatives = set()
    for (a, bounds_a), (b, bounds_b) in zip(kept, kept[1:], strict=False):
        between = reading.text[a.end() : b.start()]
        if "colour" in bounds_a and "colour" in bounds_b and len(between) < 40 and re.fullmatch(r"[^.;]*\bor\b[^.;]*", between):
            alternatives |= {a.start(), b.start()}
    kept = [(m, {k: v for k, v in bounds.items() if k != "colour" or m.start() not in alternatives}) for m, bounds in kept]
    kept = [(m, bounds) for m, bounds in kept if bounds]
    groups: list[tuple[int, int, dict[str, float | str]]] = []
    for m, bounds in kept:
        if groups and re.fullmatch(r"[\s-]*", reading.text[groups[-1][1] : m.start()]) and _joins(groups[-1][2], bounds):
            start, _, joined = groups[-1]
            groups[-1] = (start, m.end(), _join(joined, bounds))
        else:
            groups.append((m.start(), m.end(), dict(bounds)))
    return [Technique.model_validate({"kind": "material", "source": reading.text[s:e], **b}) for s, e, b in groups]


def _joins(a: dict[str, float | str], b: dict[str, float | str]) -> bool:
    """Two neighbouring material words describe one material unless they contradict (two colours, metal and plastic)."""
    if "colour" in a and "colour" in b and a["colour"] != b["colour"]:
        return False
    joined = _join(a, b)
    return all(
        float(joined.get(low, 0.0)) <= float(joined.get(high, 1.0))
        for low, high in (("metallic_min", "metallic_max"), ("roughness_min", "roughness_max"))
    )


def _join(a: dict[str, float | str], b: dict[str, float | str]) -> dict[str, float | str]:
    joined = dict(a)
    for key, value in b.items():
        if key not in joined or key == "colour":
            joined[key] = value
        elif key.endswith("_min"):
            joined[key] = max(float(joined[key]), float(value))
        else:
            joined[key] = min(float(joined[key]), float(value))
    return joined


def _modifiers(reading: Reading) -> list[Technique]:
    found = []
    for entry in reading.table.modifiers:
        for m in reading.hits(entry.phrases):
            sentence = reading.sentence_at(m.start())[1]
            settings: dict[str, float | int | str | bool] = {}
            for setting, names in entry.settings.items():
                said = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                value = re.search(rf"\b(?:{said})\s*(?:of\s+|to\s+|=\s*)?(\d+)\b|\b(\d+)\s*(?:{said})\b", sentence)
                if value:
                    settings[setting] = int(value.group(1) or value.group(2))
            found.append(Technique(kind="modifier", modifier=entry.type, settings=settings, source=m.group(0)))
            break
    return found


_AXIS = re.compile(r"\b(?:around|about|along|on|in)\s+(?:the\s+|its\s+)?([xyz])[\s-]?(?:axis|direction)\b|\b([xyz])[\s-]axis\b")


def frame_range(text: str) -> tuple[int, int] | None:
    """The frames a request names: "from frame 1 to 120", "frames 10-50", two frames named ("frame 1 ... frame 60")."""
    explicit = re.search(rf"\b(?:from\s+)?frames?\s+{NUM}\s*(?:-|–|to|through|thru|until|and)\s*(?:frame\s+)?{NUM}\b", text) or re.search(
        rf"\bbetween\s+frames?\s+{NUM}\s+and\s+(?:frame\s+)?{NUM}\b", text
    )
    if explicit:
        a, b = sorted((int(number(explicit.group(1))), int(number(explicit.group(2)))))
        return (a, b) if b > a else None
    named = sorted({int(number(n)) for n in re.findall(rf"\bframe\s+{NUM}\b", text)})
    return (named[0], named[-1]) if len(named) >= 2 else None


def frame_span(text: str) -> tuple[int | None, float | None]:
    """A length of the animation: (frames, None) for "over 48 frames" / "a 120-frame loop", (None, seconds) for "for 2
    seconds" / "a 5-second animation"; (None, None) when none is named."""
    frames = re.search(rf"\b(?:over|for|across|during|lasting|within|in)\s+{NUM}\s+frames\b", text) or re.search(
        rf"\b{NUM}[\s-]frames?\s+(?:long|animation|loop|cycle|clip|sequence)\b", text
    )
    if frames:
        return int(number(frames.group(1))), None
    seconds = re.search(rf"\b(?:over|for|across|during|lasting|within|in)\s+{NUM}\s+(?:seconds?|secs?)\b", text) or re.search(
        rf"\b{NUM}[\s-](?:seconds?|secs?)\s+(?:long|animation|loop|cycle|clip|sequence)\b", text
    )
    return (None, number(seconds.group(1))) if seconds else (None, None)


def _keyframes(reading: Reading) -> list[Technique]:
    """Keyframed motion: one technique per property the request moves (none named: any keyframed property)."""
    kw = reading.table.keyframes
    text = reading.text
    triggers = reading.hits(kw.triggers)
    span, seconds = frame_span(text)
    moved = any(reading.hits(said) for said in kw.channels.values())
    # "over 48 frames" asks for motion; "for 2 seconds" where something moves ("a cube that spins for 2 seconds")
    if not (triggers or span is not None or (seconds is not None and moved)) or reading.hits(kw.skip):
        return []
    # the properties named in the sentences that ask for motion, else anywhere in the request
    sentences = {reading.sentence_at(m.start()) for m in triggers}
    inside = [(s, s + len(t)) for s, t in sentences]
    hits = {name: reading.hits(said) for name, said in kw.channels.items()}
    near = {name: [m.group(0) for m in ms if any(a <= m.start() < b for a, b in inside)] for name, ms in hits.items()}
    channels = {n: said for n, said in near.items() if said} or {n: [m.group(0) for m in ms] for n, ms in hits.items() if ms}
    if any(a <= m.start() < b for m in reading.hits(kw.any_property) for a, b in inside or [(0, len(text))]):
        channels = {}  # "animate the light's energy pulsing": a property of the data or a material, whichever it is
    named = frame_range(text)
    start, end = named if named else ((1, span) if span else (None, None))
    # the request's own sentences: they name what moves, and a message names it back ("no keyframe on Ball.location")
    source = " ".join(t.strip() for _, t in sorted(sentences)) if sentences else text.strip()
    source = source[:117] + "..." if len(source) > 120 else source
    axis_said = next((hit for _, t in sorted(sentences) if (hit := _AXIS.search(t))), None) or _AXIS.search(text)
    found: list[Technique] = []
    moving: list[str | None] = [*channels] or [None]
    for channel in moving:
        axis = None
        if channel == "location" and all(w in kw.vertical for w in channels["location"]):
            axis = 2  # a bounce, up and down
        if len(channels) == 1 and axis_said is not None:
            axis = "xyz".index(axis_said.group(1) or axis_said.group(2))
        found.append(
            Technique(
                kind="keyframes",
                channel=channel,
                axis=axis,
                frame_start=start,
                frame_end=end,
                seconds=seconds if start is None else None,
                source=source,
            )
        )
    return found


_QUOTED = re.compile(r"[\"“”]([^\"“”\n]{1,60})[\"“”]|(?<![\w])['‘]([^'‘’\n]{1,60})['’](?![\w])")
_CAPS = re.compile(
    r"\b(?i:says|saying|reads|reading|spelling|spells|word|words|text|letters|initials)\s+((?:[A-Z][A-Z0-9!?&'-]+)(?:\s+[A-Z][A-Z0-9!?&'-]+)*)"
)


def _text(reading: Reading) -> list[Technique]:
    table = reading.table.text
    bodies = []
    for m in _QUOTED.finditer(reading.original):
        body = (m.group(1) or m.group(2) or "").strip()
        around = (
            _WORD.findall(reading.text[max(0, m.start() - 60) : m.start()])[-6:] + _WORD.findall(reading.text[m.end() : m.end() + 30])[:3]
        )
        # a letter or two ("a stylized letter "A"") is a shape to model as often as text to write
        if len(re.sub(r"\W", "", body)) >= 3 and set(around) & set(table.markers):
            bodies.append(body)
    bodies += [m.group(1) for m in _CAPS.finditer(reading.original) if len(re.sub(r"\W", "", m.group(1))) >= 3]
    extrude = bool(reading.hits(table.extruded))
    if bodies:
        return [Technique(kind="text", object_type="FONT", body=b, extrude=extrude, source=f"text {b!r}") for b in dict.fromkeys(bodies)]
    said = reading.hits(table.phrases)
    return [Technique(kind="text", object_type="FONT", extrude=extrude, source=said[0].group(0))] if said else []


def _curves(reading: Reading) -> list[Technique]:
    said = reading.hits(reading.table.curve.phrases)
    if not said:
        return []
    settings: dict[str, float | int | str | bool] = {}
    sentence = reading.sentence_at(said[0].start())[1]
    if any(find(reading.table.curve.bevel, sentence)) and "bevel modifier" not in sentence:
        settings["bevel"] = True
    if re.search(r"\bmesh(?:es)?\b", reading.text):
        settings["mesh"] = True  # "a curve converted to a mesh": a mesh counts
    return [Technique(kind="curve", object_type="CURVE", settings=settings, source=said[0].group(0))]


def _count_before(text: str, at: int) -> int | None:
    """The number right before position at ("three point lights" → 3)."""
    m = re.search(rf"\b{NUM}[\s-]+$", text[max(0, at - 20) : at])
    return int(number(m.group(1))) if m else None


def _copies(reading: Reading) -> list[Technique]:
    """Arrays, grids, copies, steps and scatters, with the number of copies they name (one array: the largest count)."""
    table = reading.table.copies
    units = "|".join(table.units)
    copy_words, times_words, stair_nouns = "|".join(table.copy_words), "|".join(table.times_words), "|".join(table.stair_nouns)
    stairs = any(find(table.stair_context, reading.text))
    found: list[Technique] = []
    for start, sentence in reading.sentences():

        def asked(m: re.Match[str], start: int = start) -> bool:
            return reading.asked(m.start() + start, m.end() + start)

        grid = re.search(rf"\b{NUM}\s*(?:by|x|×|\*)\s*{NUM}\b(?!\s*(?:{units})\b)", sentence)
        # "a 10 by 10 grid of cubes"; a board or a face divided into a grid may be one textured plane
        if grid and any(find(table.grid_words, sentence)) and not any(find(table.grid_not, sentence)) and asked(grid):
            cells = int(number(grid.group(1)) * number(grid.group(2)))
            found.append(Technique(kind="array", count=min(cells, MAX_COUNT), source=f"a {grid.group(0)} grid"))
        for m in find(table.array, sentence):
            after = sentence[m.end() :]
            modifier = "modifier" in m.group(0)
            if not asked(m) or not (modifier or re.match(r"\s+of\b", after)):
                continue  # "a microphone array": a thing, not copies
            of = re.match(rf"\s+(?:modifier\s+)?(?:of|with)\s+(?:a\s+count\s+of\s+)?{NUM}\b(?!\s*(?:by|x|×))", after)
            counted = re.search(rf"\bcount\s+(?:of\s+|to\s+|=\s*)?{NUM}\b|\b{NUM}\s+(?:{copy_words})\b", sentence)
            count: float | None = number(of.group(1)) if of else None
            if count is None and counted:
                count = number(counted.group(1) or counted.group(2))
            found.append(
                Technique(
                    kind="array",
                    modifier="ARRAY" if modifier else None,
                    count=min(int(count), MAX_COUNT) if count else None,
                    source=(m.group(0) + (of.group(0) if of else "")).strip(),
                )
            )
        for m in re.finditer(rf"\b{NUM}\s+(?:[a-z]+\s+)?(?:{copy_words})\b|\b(?:{times_words})\s+{NUM}\s+times\b", sentence):
            if asked(m):
                found.append(Technique(kind="array", count=min(int(number(m.group(1) or m.group(2))), MAX_COUNT), source=m.group(0)))
        for m in re.finditer(rf"\b{NUM}\s+(?:[a-z]+\s+)?(?:{stair_nouns})\b", sentence) if stairs else ():
            if asked(m) and not re.search(r"\bin\s+$", sentence[: m.start()]):  # "in 3 steps": instructions
                found.append(Technique(kind="array", count=min(int(number(m.group(1))), MAX_COUNT), source=m.group(0)))
        for m in find(table.scatter, sentence):
            window = sentence[max(0, m.start() - 40) : m.end() + 40]
            near = re.search(rf"\b{NUM}\b(?!\s*(?:{units})\b)", window)
            if asked(m) and near and number(near.group(1)) >= 2:
                found.append(Technique(kind="scatter", count=min(int(number(near.group(1))), MAX_COUNT), source=window.strip()))
    arrays = [t for t in found if t.kind == "array"]
    if len(arrays) > 1:
        top = max(arrays, key=lambda t: (t.count or 0, t.modifier is not None))
        if any(t.modifier for t in arrays) and not top.modifier:
            top = top.model_copy(update={"modifier": "ARRAY"})
        found = [t for t in found if t.kind != "array"] + [top]
    return found


def _lights(reading: Reading) -> list[Technique]:
    found = []
    for entry in reading.table.lights:
        for m in reading.hits(entry.phrases):
            count = entry.count or _count_before(reading.text, m.start()) or 1
            found.append(Technique(kind="light", object_type="LIGHT", light_type=entry.type, count=count, source=m.group(0)))
            break
    return found


def _camera(reading: Reading) -> list[Technique]:
    table = reading.table.camera
    said = reading.hits(table.phrases)
    lens = _LENS.search(reading.text)
    if not said and lens is None:
        return []
    settings: dict[str, float | int | str | bool] = {"type": "ORTHO"} if reading.hits(table.orthographic) else {}
    if lens is not None:  # a focal length named is a camera asked for, with that lens
        settings["lens"] = float(lens.group(1) or lens.group(2))
    source = said[0].group(0) if said else lens.group(0) if lens is not None else "camera"
    return [Technique(kind="camera", object_type="CAMERA", settings=settings, source=source)]


_EMPTY_AFTER = frozenset({"", "object", "axes", "parent", "so", "named", "called", "which", "that"})


def _empty(reading: Reading) -> list[Technique]:
    """An empty ("three cubes parented to an empty"), with at least one object parented to it where the request says
    so (settings children: 1)."""
    # "an empty bottle" is a bottle: an empty is the noun only where no noun follows it
    said = [m for m in reading.hits(reading.table.empty.phrases) if reading.next_word(m) in _FUNCTION | _EMPTY_AFTER]
    if not said:
        return []
    settings: dict[str, float | int | str | bool] = {"children": 1} if reading.hits(reading.table.empty.parent) else {}
    return [Technique(kind="object_type", object_type="EMPTY", settings=settings, source=said[0].group(0))]


_LENS = re.compile(r"\b(\d{1,3}(?:\.\d+)?)\s*mm\b(?:\s+\w+){0,2}?\s+(?:lens|focal)|\bfocal length of (\d{1,3})")
