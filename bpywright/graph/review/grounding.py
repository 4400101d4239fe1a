"""The critic model's objections, checked against the scene they are about.

A small critic model rejects what it cannot see. On the fidelity benchmark the local model rejected every plan-built answer,
most with a reason the scene summary it was shown disproves: "does not include a bass drum, snare drum, tom-toms …" for
a scene whose objects are named BassDrum, SnareDrum and TomTom; "does not include a travel wallet, only a set of parts
for a travel wallet"; "the scene does not match the request". An objection counts when it names something the scene
lacks or gets wrong; one that says a part is missing while an object of that name is built, or that names nothing at
all, does not.

The verdict itself stays the model's where its objections stand: this only overrules a rejection none of whose reasons
survive, and only for a scene that passed every objective and structural check (parts named, counts, assembled, no
factory cube, not a copy).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...harness.report import SceneSummary
from ..reading.expectations import STAGING
from ..reading.request import ADJECTIVES, STOP, content, head, name_words, names_part, singular
from ..reading.vocabulary import vocabulary

# "does not include X", "missing X", "lacks X", "there is no X", "without X", "X is missing" …
_CLAIM = re.compile(
    r"\b(?:(?:does|do|did)\s*(?:not|n't)|fails? to|failed to)\s+(?:\w+\s+)?"
    r"(?:include|contain|have|show|create|build|add|depict|feature|model|represent|make|generate)s?\s+(?P<a>[^.;]+)"
    r"|\b(?:missing|lacks?|lacking|without|absence of|there (?:is|are) no|no sign of)\s+(?P<b>[^.;]+)"
    r"|(?P<c>[a-z][a-z -]{1,60}?)\s+(?:is|are)\s+(?:missing|absent|not (?:present|included|built|created))"
)
# "contains objects that are not part of a sandwich, such as a camera and a sun": staging the critic was told to ignore.
_EXTRA = re.compile(r"\b(?:includes?|contains?|has|adds?|creates?)\b[^.;]*?\b(?:not (?:asked|requested|part)|unnecessary|extra)\b[^.;]*")
STAGING_WORDS = frozenset(vocabulary().staging.words)
_ITEM = re.compile(r",|\bor\b|\band\b|\bnor\b|\bbut\b|\bonly\b|\bas\b|\bwhich\b|\bthat\b|\bwith\b|\bin\b|\bon\b|\bfor\b")
_WORD = re.compile(r"[a-z]+")
_BUT = re.compile(r"\b(?:but|instead|only|rather|however|whereas)\b")
GENERIC = frozenset(vocabulary().critic_generic.words)
_PART_WORDS = frozenset(vocabulary().critic_part_words.words)


@dataclass
class Objection:
    """One reason the critic gave, read against the scene."""

    reason: str
    claimed_missing: list[str] = field(default_factory=list)  # nouns it says the scene lacks
    present: list[str] = field(default_factory=list)  # of those, the ones an object or material is named for
    unasked: list[str] = field(default_factory=list)  # of those, the ones the request never mentions (a ground plane)
    vague: bool = False  # it names nothing the scene or the request holds
    staging: bool = False  # it objects only to the camera, light or ground the harness stages

    @property
    def stands(self) -> bool:
        """True when the objection may be right: it is specific, and not every part it calls missing is built."""
        if self.vague or self.staging:
            return False
        return not (self.claimed_missing and len(self.present) + len(self.unasked) == len(self.claimed_missing))


def _nouns(phrase: str) -> list[tuple[str, bool, set[str]]]:
    """(head noun, qualified, the item's words) of each item of a claimed-missing list ('a bass drum, snare drum, or tom-toms' → drum,
    drum, tom). Qualified: a colour, material, size or shape word comes with it ("a transparent pitcher", "a wide seat"):
    the claim is about how the part is, which no name disproves."""
    nouns = []
    for item in _ITEM.split(phrase.lower()):
        raw = [w for w in _WORD.findall(item) if w not in STOP]
        words = [w for w in raw if content(w) or w in _PART_WORDS]
        if words:
            qualified = any(w in ADJECTIVES or w in _SPECIFIC or w in PROPERTIES for w in raw[: raw.index(words[-1])])
            nouns.append((singular(words[-1]), qualified, {singular(w) for w in raw}))
    return nouns


def _shape_names(scene: SceneSummary) -> list[str]:
    names = [o.name for o in scene.objects if not o.name.startswith(STAGING) and o.type not in ("CAMERA", "LIGHT")]
    return names + [m for o in scene.objects for m in o.materials]


def read(reason: str, prompt: str, scene: SceneSummary) -> Objection:
    """One objection against the scene and the request."""
    text = reason.lower()
    names = _shape_names(scene)
    whole = {singular(w) for w in _WORD.findall(head(prompt))}  # the words of the requested object ("a travel wallet")
    asked = {singular(w) for w in _WORD.findall(prompt.lower())}
    objection = Objection(reason)
    for claim in _CLAIM.finditer(text):
        said = _BUT.split(claim.group("a") or claim.group("b") or claim.group("c") or "")[0]  # "…, but a box": what it has
        for noun, qualified, item in _nouns(said):
            if noun in GENERIC or noun in objection.claimed_missing:
                continue
            objection.claimed_missing.append(noun)
            if qualified:
                continue  # "no transparent pitcher" beside a Pitcher: how it is built, not whether, stands
            # The requested object itself called missing ("does not create a wallpaper pattern") stands: whether its
            # parts make it is what the critic is there to judge (a wallpaper of two coincident planes was accepted so).
            # A part is named by its own word or the word that tells it from its kin ("a bass drum" is the object Bass).
            keys = {noun, *(w for w in item if content(w))} - whole
            if not item <= whole and any(names_part(n, k) for n in names for k in keys):
                objection.present.append(noun)
            elif noun not in asked:  # "no ground plane": staging nobody asked for is not missing
                objection.unasked.append(noun)
    staging_only = False
    for extra in _EXTRA.finditer(text):  # objects it calls unwanted: only staging ones disprove it
        said = {singular(w) for w in _WORD.findall(extra.group(0))} & (STAGING_WORDS | {singular(n.lower()) for n in names})
        staging_only = bool(said) and said <= STAGING_WORDS
    words = {singular(w) for w in _WORD.findall(text)} - GENERIC - STOP
    named = {singular(w) for n in names for w in name_words(n)}
    objection.vague = not objection.claimed_missing and not (words & (asked | named | _SPECIFIC))
    objection.staging = staging_only and not objection.claimed_missing
    return objection


PROPERTIES = frozenset(vocabulary().properties.words)
_SPECIFIC = frozenset(vocabulary().specific.words)


def objections(reasons: list[str], prompt: str, scene: SceneSummary | None) -> list[Objection]:
    """Each of the critic's reasons, read against the scene (none without a scene)."""
    if scene is None:
        return []
    return [read(r, prompt, scene) for r in reasons if r.strip()]


def overruled(reasons: list[str], prompt: str, scene: SceneSummary | None) -> tuple[bool, list[str]]:
    """(True, notes) when none of the critic's reasons stands and at least one is disproved: each calls missing only
    parts the scene has (or that nobody asked for), objects only to staging, or names nothing. No reasons, or only
    reasons that name nothing, is no overruling: a low score with no checkable reason is still the model's verdict."""
    read_ = objections(reasons, prompt, scene)
    # A rejection made only of reasons that name nothing ("still wrong") stays the model's: something must be disproved.
    if not read_ or any(o.stands for o in read_) or all(o.vague for o in read_):
        return False, []
    notes = []
    for o in read_:
        if o.staging:
            notes.append(f"critic's reason objects only to staging (camera, light, ground): {o.reason[:120]!r}")
        elif o.vague:
            notes.append(f"critic's reason names nothing in the scene or the request: {o.reason[:120]!r}")
        else:
            why = [f"built: {', '.join(o.present)}"] if o.present else []
            why += [f"not asked for: {', '.join(o.unasked)}"] if o.unasked else []
            notes.append(f"critic's reason is contradicted by the scene ({'; '.join(why)}): {o.reason[:120]!r}")
    return True, notes
