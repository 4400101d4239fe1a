"""The words file: the shipped one loads and is what the readers use; a malformed copy is refused, naming the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.graph.plans import scene as scene_plan
from bpywright.graph.reading import expectations, request
from bpywright.graph.reading.vocabulary import WORDS_PATH, VocabularyError, load_vocabulary, vocabulary
from bpywright.graph.review import grounding


def test_the_shipped_words_load_and_are_what_the_readers_use() -> None:
    words = load_vocabulary()
    assert words == vocabulary()
    assert "leg" not in words.not_parts.words and "diameter" in words.not_parts.words
    assert request.NOT_PARTS == frozenset(words.not_parts.words)
    assert request.STOP == frozenset(words.stop.words) and grounding.STAGING_WORDS == frozenset(words.staging.words)
    assert scene_plan.CLASS_WORDS == frozenset(words.class_words.words)
    assert expectations.NUMBERS["twelve"] == 12 and expectations.NOUNS["tori"] == "torus"
    assert expectations.NAME_WORDS["plane"] == ("plane", "ground", "floor")
    # patterns built from the lists read as the lists say
    assert request.requested_parts("a lamp with a bulb resting on a base and a hole cut in it") == {"bulb": 1}
    assert request.without_opener("Good morning there! Make a chair") == "Make a chair"


def _copy(tmp_path: Path, old: str, new: str) -> Path:
    text = WORDS_PATH.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "words.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "named"),
    [
        ('[adjectives]\nwords = [\n  "small",', "[adjectives]\nwords = [\n  7,", "adjectives.words.0"),  # a non-string word
        ("[holes]\n", "[hole]\nwords = []\n\n[holes]\n", "hole: Extra inputs"),  # an unknown table
        ('[units]\nwords = [\n  "inch",', '[units]\nwords = [\n  "inch", "inch",', "units.words: Value error, listed more than once: inch"),
        ("[numbers]\na = 1\n", "[numbers]\na = 1\na = 2\n", "in table [numbers]"),  # a word given twice its meaning
        ('[stop]\nwords = [\n  "a",', '[stop]\nwords = [\n  "A",', "stop.words.0"),  # not lower case
        ('"topped with"', '"topped|with"', "list_triggers.words"),  # a character a pattern would read
        ('oak = "light_wood"', 'oak = "oak_brown"', "colour_words.oak"),  # no palette colour
        ('tori = "torus"', 'tori = "doughnut"', "count_nouns count kinds kind_names lacks: doughnut"),
        ('cube = "box"\nbox = "box"', 'cube = "cuboid"\nbox = "box"', "named_shapes.cube"),  # no primitive
        ("[several]\nwords = [", "[several]\nwords = []\nold = [", "several"),
    ],
)
def test_a_malformed_copy_is_refused_naming_the_table(tmp_path: Path, old: str, new: str, named: str) -> None:
    path = _copy(tmp_path, old, new)
    with pytest.raises(VocabularyError) as refused:
        load_vocabulary(path)
    assert named in str(refused.value) and str(path) in str(refused.value)


def test_a_missing_table_and_a_missing_file_are_refused(tmp_path: Path) -> None:
    text = WORDS_PATH.read_text(encoding="utf-8")
    start = text.index("[quantity]")
    path = tmp_path / "words.toml"
    path.write_text(text[:start] + text[text.index("\n\n", start) :], encoding="utf-8")
    with pytest.raises(VocabularyError, match=r"quantity: Field required"):
        load_vocabulary(path)
    with pytest.raises(VocabularyError, match="cannot read the words"):
        load_vocabulary(tmp_path / "absent.toml")
