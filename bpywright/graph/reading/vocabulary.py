"""The hand-listed words the request, critic and scene readers go by (graph/data/words.toml): their schema, and the one
loader that checks it. A reviewer adds a word by editing the data file; the modules read the tables from here."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StrictStr, StringConstraints, ValidationError, model_validator

from .palette import PALETTE

WORDS_PATH = Path(__file__).parents[1] / "data" / "words.toml"

# A word or phrase: lower-case letters, words joined by one space or a hyphen ("topped with", "all right"). Patterns
# are built from these by joining them, so no word may hold a character a regular expression reads.
Word = Annotated[StrictStr, StringConstraints(pattern=r"^[a-z]+(?:[ -][a-z]+)*$")]
Primitive = Literal["box", "cylinder", "cone", "sphere", "torus", "plane"]


def _once(words: list[str]) -> list[str]:
    if twice := sorted({w for w in words if words.count(w) > 1}):
        raise ValueError(f"listed more than once: {', '.join(twice)}")
    return words


def _palette(colour: str) -> str:
    if colour not in PALETTE:
        raise ValueError(f"{colour!r} is not a palette colour ({', '.join(PALETTE)})")
    return colour


Words = Annotated[list[Word], Field(min_length=1), AfterValidator(_once)]


class Strict(BaseModel):
    """A table of the data file: unknown keys are an error (a misspelt table or key would otherwise be ignored)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class WordList(Strict):
    """A table of words: `words = [...]`, each once."""

    words: Words


class Vocabulary(Strict):
    """The whole data file, one field a table (the file's comments say what each is for)."""

    # request: reading a request's parts, counts and first clause
    stop: WordList
    not_parts: WordList
    never: WordList
    adjectives: WordList
    units: WordList
    suffix_nouns: WordList
    quantity: WordList
    several: WordList
    list_triggers: WordList
    item_ends: WordList
    holes: WordList
    openers: WordList
    opener_followers: WordList
    f_plurals: dict[Word, Word] = Field(min_length=1)
    irregular_singulars: dict[Word, Word] = Field(min_length=1)
    # expectations: counts and materials a scene summary confirms
    numbers: dict[Word, Annotated[StrictInt, Field(ge=1)]] = Field(min_length=1)
    count_nouns: dict[Word, Word] = Field(min_length=1)
    kind_names: dict[Word, Words] = Field(min_length=1)
    material_words: WordList
    # grounding: the critic's objections read against the scene
    staging: WordList
    critic_generic: WordList
    critic_part_words: WordList
    properties: WordList
    specific: WordList
    # scene_plan: a scene read back as a plan, and a request's kind words
    named_shapes: dict[Word, Primitive] = Field(min_length=1)
    colour_words: dict[Word, Annotated[StrictStr, AfterValidator(_palette)]] = Field(min_length=1)
    function: WordList
    asking: WordList
    collective: WordList
    participles: WordList
    class_words: WordList
    other_senses: dict[Word, Words] = Field(min_length=1)

    @model_validator(mode="after")
    def _kinds_named(self) -> Vocabulary:
        kinds = {"light", "camera", *self.kind_names}  # lights and cameras are counted by their type, meshes by name
        if unknown := sorted(set(self.count_nouns.values()) - kinds):
            raise ValueError(f"count_nouns count kinds kind_names lacks: {', '.join(unknown)}")
        return self


class VocabularyError(ValueError):
    """The words file cannot be read or does not fit its schema; the message names the file and the table."""


def load_vocabulary(path: Path = WORDS_PATH) -> Vocabulary:
    """The vocabularies of a data file, checked against the schema (VocabularyError says what is wrong where)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VocabularyError(f"cannot read the words {path}: {exc}") from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:  # a word given twice in a table of meanings is one of these
        raise VocabularyError(f"the words {path} are not TOML{_table_of(text, str(exc))}: {exc}") from exc
    try:
        return Vocabulary.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()[:6])
        raise VocabularyError(f"the words {path} do not fit their schema: {problems}") from exc


def _table_of(text: str, error: str) -> str:
    """' (in table [name])' for the table that holds the line a TOML error names, else ''."""
    line = re.search(r"at line (\d+)", error)
    if line is None:
        return ""
    headers = re.findall(r"^\[([^\]]+)\]", "\n".join(text.splitlines()[: int(line.group(1))]), re.MULTILINE)
    return f" (in table [{headers[-1]}])" if headers else ""


@cache
def vocabulary() -> Vocabulary:
    """The shipped vocabularies, read once."""
    return load_vocabulary()


def alternatives(words: list[str]) -> str:
    """The words as a regular-expression alternation, in their order (a Word holds no character a pattern reads)."""
    return "|".join(words)
