"""The words that name a technique (graph/data/techniques.toml): their schema, and the one loader that checks it."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

WORDS_PATH = Path(__file__).parents[1] / "data" / "techniques.toml"
Range = tuple[float, float]


class Strict(BaseModel):
    """A table of the data file: unknown keys are an error (a misspelt key would otherwise be ignored)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ColourRange(Strict):
    """A named colour as sRGB hue (degrees, wrapping when the first bound is the larger), saturation and value."""

    words: list[str] = Field(min_length=1)
    hue: Range | None = None
    saturation: Range = (0.0, 1.0)
    value: Range = (0.0, 1.0)
    noun: bool = False  # the word names a thing too ("an orange"): a colour only before another word

    @model_validator(mode="after")
    def _bounds(self) -> ColourRange:
        if self.hue is not None and not all(0 <= h <= 360 for h in self.hue):
            raise ValueError(f"hue bounds are degrees 0..360, got {self.hue}")
        for name, (low, high) in (("saturation", self.saturation), ("value", self.value)):
            if not 0 <= low <= high <= 1:
                raise ValueError(f"{name} bounds are 0 <= low <= high <= 1, got {(low, high)}")
        return self


class ColourWords(Strict):
    """Where a colour word is no material's colour."""

    not_before: list[str] = []


class MaterialWord(Strict):
    """Words that set bounds on one material."""

    words: list[str] = Field(min_length=1)
    what: str
    colour: str | None = None
    metallic_min: float | None = None
    metallic_max: float | None = None
    roughness_min: float | None = None
    roughness_max: float | None = None
    transmission_min: float | None = None
    emission_min: float | None = None


class ModifierWord(Strict):
    """Phrases that name a modifier, the Blender type it is, and the settings a number next to a word sets."""

    phrases: list[str] = Field(min_length=1)
    type: str
    also: list[str] = []
    settings: dict[str, list[str]] = {}
    same_as: dict[str, list[str]] = {}


class KeyframeWords(Strict):
    """Words that ask for keyframed motion, and which property moves."""

    triggers: list[str] = Field(min_length=1)
    skip: list[str] = []
    vertical: list[str] = []
    channels: dict[str, list[str]] = {}
    any_property: list[str] = []


class TextWords(Strict):
    """Words that make a quoted string text to write, and phrases that ask for a text object."""

    markers: list[str] = Field(min_length=1)
    phrases: list[str] = []
    extruded: list[str] = []


class CurveWords(Strict):
    """Phrases that ask for a curve object, and the words that ask it for a bevel."""

    phrases: list[str] = Field(min_length=1)
    bevel: list[str] = []


class CopyWords(Strict):
    """Words around a count of copies: an array, a grid, copies, steps, a scatter."""

    array: list[str]
    grid_words: list[str]
    grid_not: list[str] = []
    copy_words: list[str]
    times_words: list[str]
    stair_context: list[str]
    stair_nouns: list[str]
    scatter: list[str]
    units: list[str]


class LightWord(Strict):
    """Phrases that ask for lights of a type (None: any), and how many (None: the number before the phrase, else 1)."""

    phrases: list[str] = Field(min_length=1)
    type: str | None = None
    count: int | None = None


class CameraWords(Strict):
    """Phrases that ask the script to set up a camera, and those that ask for an orthographic one."""

    phrases: list[str] = Field(min_length=1)
    orthographic: list[str] = []


class EmptyWords(Strict):
    """Phrases that ask for an empty, and words that ask for objects parented to it."""

    phrases: list[str] = Field(min_length=1)
    parent: list[str] = []


class TechniqueWords(Strict):
    """The whole data file."""

    negations: list[str]
    not_phrases: list[str] = []
    colours: dict[str, ColourRange]
    colour_words: ColourWords = ColourWords()
    materials: list[MaterialWord]
    modifiers: list[ModifierWord]
    keyframes: KeyframeWords
    text: TextWords
    curve: CurveWords
    copies: CopyWords
    lights: list[LightWord]
    camera: CameraWords
    empty: EmptyWords

    @model_validator(mode="after")
    def _colours_named(self) -> TechniqueWords:
        unknown = sorted({m.colour for m in self.materials if m.colour is not None} - set(self.colours))
        if unknown:
            raise ValueError(f"materials name colours the colour table lacks: {', '.join(unknown)}")
        return self


class TechniqueWordsError(ValueError):
    """The technique words file cannot be read or does not fit its schema; the message names the file and the key."""


def load_words(path: Path = WORDS_PATH) -> TechniqueWords:
    """The technique words of a data file, checked against the schema (TechniqueWordsError says what is wrong where)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise TechniqueWordsError(f"cannot read the technique words {path}: {exc}") from exc
    try:
        return TechniqueWords.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()[:6])
        raise TechniqueWordsError(f"the technique words {path} do not fit their schema: {problems}") from exc


@cache
def words() -> TechniqueWords:
    """The shipped technique words, read once."""
    return load_words()
