"""Where a request puts its parts, read from its own words: "a lamp on a bedside table" → lamp on table, "a cupcake with a
cherry on top" → cherry on cupcake, "a hot air balloon with a basket hanging under it" → basket under balloon.

Each placement is a relation in the vocabulary of graph/review/relations.py ("SUBJECT RELATION TARGET", nouns singular),
which the critic checks from the scene's boxes. The reading is deliberately narrow: it reads a preposition only where
its subject and its target are plain:

- the subject is the noun just before the preposition (a participle such as "sitting", "resting", "hanging",
  "leaning" between them is skipped); where that noun is an item listed after "with" and the target is a noun, the
  sentence does not say which of the two it places ("a mug with a handle on a saucer": the mug sits on the saucer, "a
  birdbath with a bowl on a pedestal": the bowl does), and nothing is read;
- the target is the noun its phrase ends with ("on a wooden post" → post); "it" and "them" are the request's head
  noun, and so is the head of a phrase that ends at the preposition ("with a cherry on top", "with gold coins inside");
- prepositions read: on, on top of, atop, onto (on); under, underneath, beneath, below, hanging from (under); inside
  (inside); around (around); above, over (above); against (touches). "Over" is not read (cheese sprinkled over the sauce lies on it, a blanket over a sofa drapes it);
  "in" is not: a goldfish in a bowl does not
  touch it and a cactus in a pot is not inside it; nor are "next to", "beside", "near" and "in front of", which say
  nothing a box can hold to (a lamp next to a bed need not touch it).

A request that names no placement gives none; the critic then checks what it always checks (the parts exist and touch).
"""

from __future__ import annotations

import re

from .request import ADJECTIVES, QUANTITY, STOP, content, head, singular, without_opener

# preposition (longest first) → relation word of graph/review/relations.py
PREPOSITIONS: dict[str, str] = {
    "on top of": "on",
    "hanging from": "under",
    "hanging under": "under",
    "hanging below": "under",
    "underneath": "under",
    "beneath": "under",
    "against": "touches",
    "inside": "inside",
    "around": "around",
    "under": "under",
    "below": "under",
    "above": "above",
    "atop": "on",
    "onto": "on",
    "on": "on",
}
# What may stand between a subject and its preposition: "a bird sitting on a branch", "a ladder leaning against a wall".
VERBS = frozenset(
    {
        "sitting",
        "sits",
        "sat",
        "standing",
        "stands",
        "resting",
        "rests",
        "placed",
        "set",
        "put",
        "perched",
        "lying",
        "lies",
        "leaning",
        "leans",
        "hanging",
        "hangs",
        "hung",
        "sprinkled",
        "drizzled",
        "spread",
        "arranged",
        "located",
        "positioned",
        "fixed",
        "attached",
        "draped",
        "wrapped",
        "worn",
        "mounted",
        "floating",
        "stacked",
        "piled",
        "is",
        "are",
        "that",
        "which",
        "directly",
        "just",
        "right",
        "be",
        "should",
        "will",
        "can",
        "must",
    }
)
GERUND_BEFORE = frozenset({"for", "by", "before", "after", "while", "when"})  # "suitable for mounting on a wall": a verb
DETERMINERS = frozenset({"a", "an", "the", "its", "their", "his", "her", "some", "one", "each", "this", "that"})
LISTING = frozenset({"with", "has", "have", "include", "includes", "add", "featuring"})  # what lists a head's parts
PRONOUNS = frozenset({"it", "them"})
GROUNDS = frozenset({"ground", "floor", "earth", "grass", "surface", "lawn", "sand", "snow", "water", "sea", "sky"})
POSSESSIVES = frozenset({"its", "their"})  # "books on its shelves": the head's own part, so the listed item is the subject
# "On" a wall, a door or a side is against it, not on top of it ("a clock on the wall", "a sign with text on it"): read
# as touches. So is "on it" and "on them", which say as often "on its face" (text on a sign) as "on its top".
SURFACES = frozenset({"wall", "door", "side", "front", "back", "face", "ceiling", "window", "fridge", "screen", "board"})
# A phrase ends at another preposition, a conjunction or a clause word: "on a pole with three lights" → pole.
PHRASE_ENDS = frozenset({"with", "and", "or", "that", "which", "where", "while", "of", "in", "at", "to", "for", "from", "by"})
_TOKEN = re.compile(r"[a-z]+(?:['-][a-z]+)*|\d+|[,.;:!?()]")
_PREPOSITION = sorted(PREPOSITIONS, key=len, reverse=True)
_PLACING = frozenset(w for p in PREPOSITIONS for w in p.split()) - {"of", "top"} | {"next", "beside", "near", "behind"}


def _noun(word: str) -> bool:
    return word.isalpha() and content(word) and word not in ADJECTIVES and word not in STOP and word not in DETERMINERS


def _head_noun(prompt: str) -> str:
    """The request's head noun: the last noun of its first clause ("a coffee mug" → mug), '' where it has none."""
    words: list[str] = []
    for w in _TOKEN.findall(re.split(r"[?!]", head(prompt))[0]):
        if w in _PLACING or (w in PHRASE_ENDS and w != "of"):  # "a lamp on a bedside table": the lamp
            break
        if _noun(w):
            words.append(w)
    return singular(words[-1]) if words else ""


def _target(tokens: list[str], start: int, head_noun: str) -> str:
    """The noun the phrase from start ends with, with its other nouns as other names ("a wooden post" → post, "a floor
    plane" → plane|floor); the head noun for "it" and "them"."""
    nouns: list[str] = []
    for word in tokens[start:]:
        if word in PRONOUNS and not nouns:
            return head_noun
        if word in PHRASE_ENDS or not word.isalnum() or word in VERBS:
            break
        if word in DETERMINERS or word in ADJECTIVES or word.isdigit():
            if nouns:
                break
            continue
        if not _noun(word):
            break
        nouns.append(word)
    # "a floor plane": the plane, or an object named for the floor (its other nouns are its other names)
    return "|".join(dict.fromkeys(singular(n) for n in reversed(nouns))) if nouns else ""


def _subject(tokens: list[str], at: int) -> tuple[str, str, bool]:
    """The noun just before position at (participles skipped), its owner and whether it is an item listed after "with"
    (or have, include, add …); of "a vase of flowers" the vase, of "a stack of books" the books. The owner is the noun
    "with" hangs from ("a toothpick with an olive on top": the toothpick), '' where the list hangs from no noun ("it
    should have a handle on top", "please add a few leaves on top")."""
    i = at - 1
    while i >= 0 and tokens[i] in VERBS:
        i -= 1
    if i < 0 or not _noun(tokens[i]) or (tokens[i].endswith("ing") and i > 0 and tokens[i - 1] in GERUND_BEFORE):
        return "", "", False
    noun = singular(tokens[i])
    k = i - 1
    while k >= 0 and (tokens[k] in DETERMINERS or tokens[k] in ADJECTIVES or tokens[k].isdigit()):
        k -= 1
    if k >= 1 and tokens[k] == "of" and _noun(tokens[k - 1]) and singular(tokens[k - 1]) not in QUANTITY:
        i, noun = k - 1, singular(tokens[k - 1])
    j = i - 1
    while j >= 0 and tokens[j] not in {",", ":", "and"} and tokens[j] not in LISTING:
        j -= 1
    listing = next((k for k in range(j, -1, -1) if tokens[k] in LISTING), -1)
    owner = tokens[listing - 1] if listing >= 1 and tokens[listing] == "with" and _noun(tokens[listing - 1]) else ""
    return noun, singular(owner) if owner else "", listing >= 0


def placements(prompt: str) -> list[str]:
    """The placements the request states, as relations ("lamp on table"), each once, in the order said."""
    return list(stated(prompt))


def stated(prompt: str) -> dict[str, tuple[bool, str]]:
    """Each placement the request states (as placements()) → whether its target is a thing the request asks for beside
    the whole: "a lamp on a bedside table" asks for a table too, which must be built. A target a part is placed against
    is not ("a cupcake with a cherry on top": the cupcake's parts may carry other names; "a perch around the base of the
    container": a region, not an object; "books on each shelf": shelves a reference may call boards). With it, the
    target's names: "plane|floor" for "a floor plane"."""
    head_noun = _head_noun(prompt)
    found: dict[str, tuple[bool, str]] = {}
    for sentence in _SENTENCE.split(without_opener(prompt.lower())):
        for relation, named, target in _read(_TOKEN.findall(sentence), head_noun):
            found.setdefault(relation, (named, target))
    return found


_SENTENCE = re.compile(r"(?<!\d)[.?!;]|[.?!;](?!\d)")
# A preposition that ends its phrase places a listed item at the head: "with gold coins inside", "a cherry on top",
# "four chairs around". "Below", "under" and "above" alone place it against something said before ("an eyepiece at the
# top and objective lenses below"), which is not read.
ENDED = frozenset({"on top", "inside", "around"})
ENDS_AFTER = frozenset({"with", "for", "to", "that", "which", "where", "while"})  # "a perch inside with …", not "inside and out"


def _read(tokens: list[str], head_noun: str) -> list[tuple[str, bool, str]]:
    found: list[tuple[str, bool, str]] = []
    i = 0
    while i < len(tokens):
        match = next((p for p in _PREPOSITION if tokens[i : i + len(p.split())] == p.split()), None)
        if match is None:
            i += 1
            continue
        after = i + len(match.split())
        subject, owner, listed = _subject(tokens, i)
        next_word = tokens[after] if after < len(tokens) else "."
        ended = not next_word.isalnum() or next_word in ENDS_AFTER
        if match == "on" and next_word == "top" and (after + 1 >= len(tokens) or tokens[after + 1] != "of"):
            match, after = "on top", after + 1
            ended = after >= len(tokens) or tokens[after] not in {"and", "or"}  # "a membrane on top and bottom": both ends
        if ended and not (listed and match in ENDED):
            i = after
            continue
        names = (owner or head_noun) if ended else _target(tokens, after, owner or head_noun)
        target = names.split("|")[0]
        pronoun = ended or next_word in PRONOUNS or next_word in POSSESSIVES
        relation_word = PREPOSITIONS.get(match, "on")
        if relation_word == "on" and match == "on" and (next_word in PRONOUNS or target in SURFACES):
            relation_word = "touches"
        if subject and target and subject != target and (not listed or pronoun):
            # the ground a thing stands on is the scene's own, built or not ("a tree on the ground")
            named = subject == head_noun and not pronoun and target != head_noun and target not in GROUNDS
            found.append((f"{subject} {relation_word} {target}", named, names))
        i = after
    return found
