"""What a request asks for, read from its own words: the parts it names (with the counts it gives them), the things it
counts anywhere, and whether it is one assembled object or a scene of several.

One reading for the whole loop: the part plan is checked before it runs (plan_checks) against the same parts the critic
later looks for in the scene (structure). Two readings had drifted apart: the plan's asked a bookshelf "sturdy enough to
hold books" for a part named "enough" and a keyboard "with a QWERTY layout" for a part named "layout", which the critic
never wanted. Parts are the head noun of each item listed after "with", "add", "has", "include" …, singular.
"""

from __future__ import annotations

import re

from .expectations import NUMBERS
from .vocabulary import alternatives, vocabulary

WORDS = vocabulary()
NOT_PARTS = frozenset(WORDS.not_parts.words)
NEVER = frozenset(WORDS.never.words)
ADJECTIVES = frozenset(WORDS.adjectives.words)
STOP = frozenset(WORDS.stop.words)
UNITS = frozenset(WORDS.units.words)
SUFFIX_NOUNS = frozenset(WORDS.suffix_nouns.words)
QUANTITY = frozenset(WORDS.quantity.words)
# An item stops at a preposition or participle: "a small sphere resting on it" → sphere; "a row of windows cut through
# it" is a hole, not a part.
_ENDS = re.compile(r"(?<!-)\b(?:" + alternatives(WORDS.item_ends.words) + r")\b(?!-)")
_HOLES = re.compile(r"\b(?:" + alternatives(WORDS.holes.words) + r")\b")
_TRIGGER = re.compile(r"\b(?:" + alternatives(WORDS.list_triggers.words) + r")\b")
_SPLIT = re.compile(r",|;|(?<!-)\band\b(?!-)|\bor\b|\bplus\b|\bas well as\b|\bthat\b|\bwhich\b|\bwhere\b|\bto\b|\.|:|\(|\)")
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*|\d+")
_PURPOSE = re.compile(r"\b(?:to|so|for)\b(?:(?!\band\b)[^,;])*")
_COUNTED = re.compile(r"\b(\d+|" + "|".join(n for n, v in NUMBERS.items() if v > 1) + r")((?:\s+[a-z]+){1,4})")
SEVERAL = frozenset(WORDS.several.words)


def lemmas(word: str) -> set[str]:
    """The word and the singulars it may be the plural of (pickles → pickle; patties → patty, pattie; shelves → shelf)."""
    word = word.lower()
    forms = {word}
    if len(word) > 3 and word.endswith("ies"):
        forms |= {word[:-3] + "y", word[:-1]}
    elif len(word) > 3 and word.endswith("ves"):
        forms |= {word[:-3] + "f", word[:-3] + "fe", word[:-1]}
    elif len(word) > 3 and word.endswith("es"):
        forms.add(word[:-1])
        if word.endswith(("ses", "xes", "zes", "ches", "shes", "oes")):  # boxes, tomatoes
            forms.add(word[:-2])
    elif len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        forms.add(word[:-1])
    return forms


_F_PLURALS = WORDS.f_plurals
_IRREGULAR = WORDS.irregular_singulars


def singular(word: str) -> str:
    """The word's likely singular: 'pickles' → pickle, 'shelves' → shelf, 'patties' → patty, 'glass' → glass."""
    word = word.lower()
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word in _F_PLURALS:
        return _F_PLURALS[word]
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def plural(noun: str) -> str:
    """The noun's plural, for messages: leg → legs, shelf → shelves, patty → patties, box → boxes."""
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "o", "u"):
        return noun[:-1] + "ies"
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("f"):
        return noun[:-1] + "ves"
    return noun + "s"


def content(word: str) -> bool:
    """A word that can name a part: not a stop word, a number, a measure or an adjective; not an adverb, a participle
    (textured, running), a function word or verb (then, visible, ensure) or a fragment (easy-)."""
    if word in STOP or word in NEVER or word in NUMBERS or word.isdigit() or len(word) < 3 or "-" in word:
        return False
    one = singular(word)
    if word in NOT_PARTS or word in ADJECTIVES or one in NOT_PARTS or one in NEVER:
        return False
    if word in SUFFIX_NOUNS:
        return True
    return not (word.endswith("ed") and len(word) > 4 or word.endswith(("ly", "ing")) and len(word) > 5)


def requested_parts(prompt: str) -> dict[str, int]:
    """Parts the request names (singular noun → the count it gives, 1 when none): the head noun of each item listed
    after "with", "add", "has", "include" … ("a slice of cheese" → cheese; "four legs" → leg ×4)."""
    text = prompt.lower()
    parts: dict[str, int] = {}
    for trigger in _TRIGGER.finditer(text):
        clause = text[trigger.end() :].split(".")[0]
        clause = re.split(r"\b(?:with|has|have|add|include)\b", clause)[0]  # the next trigger starts its own list
        clause = _PURPOSE.sub(",", clause)  # "sturdy enough to hold several books": books are not a part
        clause = re.sub(r"\bsuch as\b|\be\.g\.", ",", clause)  # "fruits such as bananas": fruit, banana
        if _NEGATED.match(clause):  # "plain, with no text or images": none of them is a part
            continue
        for item, relative in _items(clause):
            if _HOLES.search(item) or _NEGATED.match(item):
                continue
            words = [w for w in _WORD.findall(_ENDS.split(item)[0]) if w not in STOP]
            if not words or not content(words[-1]) or (relative and len(words) < 2):  # "a cuff that wraps around": its verb
                continue
            head = singular(words[-1])
            if head in QUANTITY and len(words) >= 2 and content(words[-2]):  # "pepperoni slices" → pepperoni
                head = singular(words[-2])
            count = 1
            for w, after in zip(words[:-1], words[1:], strict=True):
                if singular(after) in UNITS:  # "a 6-inch long handle", "two 3 cm legs": a measure, not a count
                    continue
                if w.isdigit():
                    count = int(w)
                elif w in NUMBERS:
                    count = NUMBERS[w]
            parts[head] = max(parts.get(head, 0), min(count, 100))
    return parts


_NEGATED = re.compile(r"\s*(?:no|not|never|nor)\b")
_RELATIVE = frozenset(("that", "which", "where"))


def _items(clause: str) -> list[tuple[str, bool]]:
    """The items of a listed clause, each with whether a relative pronoun introduced it ("… a cuff that wraps around the
    arm": "wraps" is the cuff's verb, no part; "a stand that holds the pages" still names the pages)."""
    items, start, relative = [], 0, False
    for sep in _SPLIT.finditer(clause):
        items.append((clause[start : sep.start()], relative))
        relative, start = sep.group(0).strip() in _RELATIVE, sep.end()
    items.append((clause[start:], relative))
    return items


def counted_parts(prompt: str) -> dict[str, int]:
    """Nouns the request gives a count of 2 to 24 anywhere, singular noun → count: the last word of the noun after the
    number ("four wooden legs" → leg, "two sets of coils" → coil, "three red cubes in a row" → cube)."""
    counts: dict[str, int] = {}
    for number, after in _COUNTED.findall(prompt.lower()):
        count = int(number) if number.isdigit() else NUMBERS[number]
        words = after.split()
        if words and singular(words[0]) in UNITS:  # "8 inches deep", "10 milliliters", "5 ghz": a measure, not a count
            continue
        while words and not content(words[0]) and singular(words[0]) not in QUANTITY:
            words.pop(0)
        run = []
        for w in words:
            if not (content(w) or singular(w) in QUANTITY):
                break
            run.append(w)
        if run and singular(run[-1]) in QUANTITY and words[len(run) : len(run) + 1] == ["of"] and len(words) > len(run) + 1:
            run = [words[len(run) + 1]]
        if 2 <= count <= 24 and run and content(run[-1]):
            counts[singular(run[-1])] = count
    return counts


def head(prompt: str) -> str:
    """The request's first clause, before with, that, a comma …: what it asks for, without its parts. A greeting or
    interjection before it ("Hi, can you create a circuit breaker", "Alright, let's create a hat", "Hey there, …") is
    not the clause: as the first clause it named no kind, and the request got no archetype and no shown plan."""
    return re.split(r"\b(?:with|having|featuring|that|which|where)\b|[,.;:]", without_opener(prompt.lower()))[0]


# What a request that asks for a repetition says in its first clause: a pattern, tiles, a mosaic, a chessboard.
_PATTERN = re.compile(
    r"\b(?:patterns?|patterned|repeating|repeated|tiled|tiles|mosaic|checker(?:board|ed)?|chess ?board|grid|tessellat\w*)\b"
)


def asks_for_a_pattern(prompt: str) -> bool:
    """The request asks, in its first clause, for something made of one shape repeated ("a wallpaper pattern", "a
    chessboard", "a mosaic"): one or two shapes are no pattern, whatever their outline."""
    return bool(_PATTERN.search(head(prompt)))


# Greetings and interjections that open a conversational request, each ended by a mark ("hi,", "hello!", "okay so,").
_OPENER = re.compile(
    r"^\s*(?:(?:" + alternatives(WORDS.openers.words) + r")(?:\s+(?:" + alternatives(WORDS.opener_followers.words) + r"))*\s*[,.!;:]+\s*)+",
    re.IGNORECASE,
)


def without_opener(prompt: str) -> str:
    """The request without the greetings and interjections it opens with (nothing when it is nothing else)."""
    rest = _OPENER.sub("", prompt, count=1)
    return rest if rest.strip() else prompt


def one_object(prompt: str) -> bool:
    """True when the request asks for one assembled thing (its parts must touch), not a scene of several: no scene word,
    and its head joins no two things and counts none ("a table and a chair", "three cubes")."""
    first = head(prompt)
    return not (set(_WORD.findall(prompt.lower())) & SEVERAL or re.search(r"\band\b", first) or counted_parts(first))


def name_words(name: str) -> list[str]:
    """The lower-case words of an object or part name ('BassDrum_2' → bass, drum; 'Back_Rest' → back, rest)."""
    return _NAME_WORD.findall(re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower())


_NAME_WORD = re.compile(r"[a-z]+")


def names_part(name: str, noun: str) -> bool:
    """An object or part name holds the noun, or a form of it ('Shelf 2' holds shelf, 'Back_Rest' and 'backrest_1'
    hold backrest, 'Pickles' holds pickle)."""
    joined = "".join(name_words(name))
    return any(form[: max(4, len(form) - 2)] in joined for form in lemmas(noun.replace("-", "")))


# Requests for a technique a part plan cannot say: a plan says placed primitives, a material's values, modifiers,
# repeats and scatters, keyframes, text, lathed profiles, curves along a path, lights and the camera (plan_techniques);
# none of these.
# "frame" and "rig" in their animation senses only: a picture frame, a bicycle's frame or a right-handed player is an
# object to plan (BlendNet's dev prompts say "frame" 26 times, all of them so; "right-handed" sent a drum set to code).
# A design "full of curves" or a logo is a flat pattern that no box or cylinder makes, and stays code: planned,
# CADBench's star icon came back as a box with four cones on top and its floral wallpaper as two red logs, where code
# had given a red pointed shape and a flat panel.
# Texture, sculpt and bone in their Blender senses only: of BlendNet's 975 dev requests (objects, all with plain bpy
# references) 37 went to code, 17 of them on a surface's look ("a slightly textured appearance") or a noun ("a modern
# sculpture", "a bone-shaped pillow").
TECHNIQUE = re.compile(
    r"\b(?:frame rate|fps|geometry nodes?|node tree|boolean|shader\w*|procedural|noise|particles?|physics|simulation|"
    r"(?:image|wave|voronoi|brick|checker|gradient|magic) textures?|texture (?:nodes?|maps?|coordinates|paint\w*)|"
    r"rig(?:s|ged|ging)?|armature|nurbs|shape keys?|curve modifiers?|(?:along|from) (?:a|the) curve|curves|logo|initials|"
    r"displace\w*|sculpt(?:ing| mode)|uv|bake|render settings|cycles|eevee|compositor|hdri|camera path|follow path|"
    r"drivers?|constraints?)\b"
)
# Techniques a plan says (plan_techniques), named for the tests and the docs: a request naming one is planned.
PLANNED_TECHNIQUE = re.compile(
    r"\b(?:animat\w*|keyframe\w*|\d+ frames|frames? \d+|bounc\w*|modifiers?|subdivi\w*|subsurf|bevel\w*|solidify|"
    r"arrays?|mirror modifier|screw modifier|lathe\w*|metallic|metal|gold|chrome|glass|glowing|emissive|emission|"
    r"text|font|lettering|letters|bezier|spline|helix|spiral|curve objects?|grid|scatter\w*|random\w*|"
    r"lights?|lamp|camera|lens)\b"
)


def strategy_for(setting: str, prompt: str) -> str:
    """How this request's first script is written: 'plan' (Settings.strategy, or a local model's measured choice) for an
    object, and for the techniques a plan says (PLANNED_TECHNIQUE: materials, modifiers, repeats, keyframes, text,
    lathes, curves, lights, the camera); 'code' for a request that names one a part plan cannot say (TECHNIQUE: geometry
    nodes, particles, rigs, shader textures, a logo …) and for every other setting."""
    return "plan" if setting == "plan" and not TECHNIQUE.search(prompt.lower()) else "code"
