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

# Words that are qualities, measures, units, abstractions or adjectives, not parts.
NOT_PARTS = frozenset(
    """
    diameter radius height width length depth thickness size sizes dimension dimensions scale proportion proportions
    color colors colour colours shade tone hue finish texture textures surface surfaces appearance look style design
    pattern patterns detail details shape shapes form edge edges corner corners feel touch sheen gloss glow light lighting
    inch inches cm centimeter centimeters centimetre centimetres mm millimeter millimeters meter meters metre metres
    foot feet ft unit units degree degrees angle angles percent ratio thing things object objects part parts piece pieces
    element elements feature features end ends side sides top bottom front back middle center centre area space way
    material materials effect effects option options one ones set kind type amount number lot bit variety mix
    emphasis focus aesthetic simplicity functionality use purpose structure layout interior exterior level operation
    measurement measurements choice ingredient ingredients another single distinct active fit compare should would could
    can will closure mechanism system arrangement placement position orientation setup bmesh noise modifier modifiers node
    nodes shader shaders bevel subdivision displacement keyframe keyframes animation frame frames procedural
    enough few many more most less several various unique equal different same similar other role you your
    weight total hint amount component components item items accessory accessories decoration decorations
    topping toppings marking markings such there when where multiple larger smaller functional realistic suitable
    outward inward sophistication smallest tallest shortest largest biggest
    harmony balance variation adjustment stability portability connectivity convenience comfort ease manner occasion
    activity technology idea relation composition construction creation instruction coverage factor imperfection
    hardness capacity entertainment magnification place purpose flavor flavour time date weather information info message
    reading
    """.split()
)
# Words that are never a part's name whatever follows: pronouns, adverbs, conjunctions, verbs and predicate adjectives
# that a list after "with" or "add" can end on ("start with a base, then add …", "so that it is visible", "a lid that
# can open"): asking a plan for a part named "then" or "visible" only costs a revision.
NEVER = frozenset(
    """
    then also too just only even still here now next first finally all both but yet how why what who whom whose may
    might must shall they them he she we us off out up down underneath beneath outside inside throughout together apart
    away back forward backward backwards around sure able visible hidden intricate high low clear primary symmetrical
    symmetric asymmetrical aerodynamic adjustable reliable prominent accessible distinguishable portable electronic
    casual fun shorter thicker thinner taller wider longer bigger open close closed ensure allow enable move rotate
    attach extend sit spread hold held run pass see want vary recline stuck written clean goes keep store need
    tied moved going used being doing lined based sized fixed mixed wired faced aged timed
    over across from about have has having while whole made downward upward differ direction term people person version
    model deep until using lying tying dying fully early daily truly newly oddly
    """.split()
)
ADJECTIVES = frozenset(
    """
    small large big tiny huge little long short tall thin thick flat smooth rough simple slight wide narrow dark bright
    soft hard square rectangular circular round oval cylindrical spherical conical curved straight modern classic elegant
    sleek minimalist minimal plain basic decorative ornate sturdy solid shiny matte glossy wooden metal metallic plastic
    glass white black red green blue yellow orange purple pink grey gray brown gold golden silver beige cream dark light
    easy comfortable cozy stylish compact durable traditional contemporary rustic vintage hollow ergonomic standard
    bold vibrant colorful colourful neat cute fluffy warm cool ornamental minor major vertical horizontal diagonal parallel opposite
    """.split()
)
STOP = frozenset("a an the of to in on at for and or with without its it their them this that some each every is are be".split())
# Measures that follow a number ("8 inches deep"): what comes after them is no counted part.
UNITS = frozenset(
    """
    inch cm mm centimeter centimetre millimeter millimetre meter metre foot feet ft degree percent liter litre milliliter
    millilitre ml gallon ounce oz gram kg kilogram pound lb ghz mhz khz hz watt volt mph kph second minute hour
    """.split()
)
# Nouns that end like an adverb or participle (short ones pass anyway: bed, shed, seed; ring, wing, icing; jelly).
SUFFIX_NOUNS = frozenset(
    """
    string spring ceiling railing building painting filling frosting stuffing binding awning bearing casing coating
    housing lining padding piping tubing wiring siding decking moulding molding fitting mounting clothing pudding
    dumpling stocking earring keyring bedding seating carving drawing sapling duckling flowerbed seabed
    """.split()
)
# Quantity words: "a slice of cheese" is cheese, "pepperoni slices" pepperoni.
QUANTITY = frozenset("slice piece layer pair set leaf stack row bunch couple strip sheet".split())
# An item stops at a preposition or participle: "a small sphere resting on it" → sphere; "a row of windows cut through
# it" is a hole, not a part.
_ENDS = re.compile(
    r"(?<!-)\b(?:on|in|at|around|through|over|under|above|below|beside|behind|across|along|from|into|onto|made|built|placed|"
    r"resting|standing|sitting|attached|connected|running|arranged|for|like|by|via|using|inside|between|near|is|are|so|"
    r"while|as|colored|coloured|painted|held|hung|laid|shown|worn|sewn|drawn|woven)\b(?!-)"
)
_HOLES = re.compile(r"\b(?:cut|cuts|hole|holes|opening|openings|slot|slots|carved|engraved|hollow|gap|gaps|groove|grooves)\b")
_TRIGGER = re.compile(r"\b(?:with|has|have|having|add|adding|adds|attach|include|including|includes|featuring|features|topped with)\b")
_SPLIT = re.compile(r",|;|(?<!-)\band\b(?!-)|\bor\b|\bplus\b|\bas well as\b|\bthat\b|\bwhich\b|\bwhere\b|\bto\b|\.|:|\(|\)")
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*|\d+")
_PURPOSE = re.compile(r"\b(?:to|so|for)\b(?:(?!\band\b)[^,;])*")
_COUNTED = re.compile(r"\b(\d+|" + "|".join(n for n, v in NUMBERS.items() if v > 1) + r")((?:\s+[a-z]+){1,4})")
# Words that make a request a scene of separate things, where a gap between parts is no fault.
SEVERAL = frozenset("scene scenes collection group groups several various scattered pair pairs set sets".split())


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


_F_PLURALS = {
    "shelves": "shelf",
    "leaves": "leaf",
    "halves": "half",
    "loaves": "loaf",
    "knives": "knife",
    "calves": "calf",
    "scarves": "scarf",
    "hooves": "hoof",
    "wolves": "wolf",
    "lives": "life",
}
# Words the rules below would cut wrongly: a lens is no "len", a cookie no "cooky".
_IRREGULAR = {
    "lens": "lens",
    "lenses": "lens",
    "canvas": "canvas",
    "canvases": "canvas",
    "atlas": "atlas",
    "series": "series",
    "species": "species",
    "cookies": "cookie",
    "movies": "movie",
    "brownies": "brownie",
    "ties": "tie",
    "pies": "pie",
}


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
    r"^\s*(?:(?:hi|hello|hey|hiya|howdy|greetings|alright|all right|okay|ok|so|well|sure|yes|yeah|um|hmm|thanks|"
    r"thank you|good (?:morning|afternoon|evening|day))(?:\s+(?:there|again|so|team|everyone))*\s*[,.!;:]+\s*)+",
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
