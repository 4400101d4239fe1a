"""graph/plans/shapes.py: the critic's archetypes, each a plan that builds in Blender; shown to the model only as the
request's own kind (retrieve.kind_shape, Settings.plan_shapes), never among the plan library's examples."""

from __future__ import annotations

import json

import pytest

from bpywright.graph.plans.library import LIBRARY
from bpywright.graph.plans.plan import plan_messages, related_plans
from bpywright.graph.plans.shapes import SHAPES
from bpywright.graph.review.agreement import archetype_of, kind_archetypes
from bpywright.graph.review.copies import shown_sources

from .test_plan_library import build_failures


def test_each_kind_word_names_one_shape_and_a_request_of_it_is_held_against_that_shape() -> None:
    assert len(SHAPES) == len({a.request for a in SHAPES})
    owners = [i for i, a in enumerate(SHAPES) for _ in a.kinds]
    assert len(owners) == len({w for a in SHAPES for w in a.kinds})  # no word names two shapes
    for i, shape in enumerate(SHAPES):
        for word in shape.kinds:
            found = archetype_of(f"a {word} on the floor", "4.5")  # a kind word as a request spells it matches
            assert found is not None and found.id == f"shape:{i}" and not found.shown, (word, shape.request, found)


def test_no_shape_is_shown_among_the_plan_librarys_examples() -> None:
    plans = {a.plan for a in SHAPES}
    for shape in SHAPES:
        assert not plans & {plan for _, plan in related_plans(shape.request, 4)}, shape.request
        text = "\n".join(str(m["content"]) for m in plan_messages(shape.request, "4.5", examples=4))
        assert shape.plan not in text, shape.request
    # nor counted among the library's shown sources: a shape counts as shown only where retrieve showed it for its kind
    assert not {s.prompt for s in shown_sources("4.5")} & {a.request for a in SHAPES}


def test_a_request_whose_kind_both_have_is_held_against_the_narrower_shape_first() -> None:
    near = kind_archetypes("a comfortable armchair with wide armrests", "4.5")
    assert near[0].id.startswith("shape:") and "armchair" in near[0].request
    # the library's bench is shown for an armchair (its kinds name one), but an armchair is not held against a bench
    assert not any("park bench" in k.request for k in near)
    # a kind only the shown library has: its archetype, as before
    tree = archetype_of("a small palm tree", "4.5")
    assert (
        tree is not None
        and tree.shown
        and tree.id == f"plan:{[a.request for a in LIBRARY].index('a small tree with a trunk and a round crown')}"
    )


@pytest.mark.blender
def test_every_shape_builds_in_blender_and_passes_the_critics_structural_checks(pool, tmp_path) -> None:
    assert build_failures(pool, tmp_path, SHAPES) == []


def test_a_compound_is_held_against_the_shape_of_its_head_not_of_its_modifier() -> None:
    def ids(prompt: str) -> list[str]:
        return [k.request for k in kind_archetypes(prompt, "4.5")]

    slice_ = ids("Create a pizza slice with melted cheese")  # a slice is not the pizza: the slice's own shape
    assert slice_ and "slice" in slice_[0] and not any("a pizza with a crust" in r for r in slice_)
    assert not any("pet bowl" in r for r in ids("Design a bird feeder."))
    assert ids("Create a 3D model of a drum set") == []  # a set of drums is no one drum
    # what follows "for" is what the thing is for, not what it is (a drumstick is not held against the drum)
    assert ids("Create a basic drumstick for playing drums.")[0] == "a pair of drumsticks lying side by side"
    drum = ids("Design a drum for a band logo")
    assert drum and "logo" not in drum[0] and "drum" in drum[0]
    assert "wind turbine" in ids("I'm looking for a 3D model of a wind turbine")[0]  # no kind before it: the kind is after
    assert ids("a tennis ball")[0] == "a ball"
    lamp = ids("a desk lamp with a round base")
    assert lamp and "lamp" in lamp[0] and not any("office desk" in r for r in lamp)
    # a question mark ends the clause like a comma: the wallet, not the clause after it or "travel"
    wallet = archetype_of("can you create a travel wallet? it should fold in half", "4.5")
    assert wallet is not None and "wallet" in wallet.request
    # the plain word still names its shape
    assert "pizza" in ids("a pizza with a thick crust")[0]
    # a word for a class of things is narrowed by the kind word before it: the laptop, not the desktop computer
    assert "laptop" in ids("a laptop computer with a black keyboard")[0]
    assert "desktop" in ids("Create a desktop computer with a monitor")[0]
    assert "coffee maker" in ids("Design an espresso machine")[0]
    assert "lamp" in ids("a desk lamp")[0]  # not a class word: the desk still only modifies the lamp
    # a comma between adjectives ends no clause (a feeding bowl otherwise gets no verdict): the ball, the pet bowl
    assert ids("Model a simple, spherical ball.")[0] == "a ball"
    bowl = ids("What would a simple, round feeding bowl that can hold enough water for a dog look like?")
    assert bowl and "bowl" in bowl[0]
    assert ids("Create a simple, plain design") == []  # the comma joins the adjectives; "design" names no kind
    assert ids("Model a simple ball, a desk lamp stands beside it") == ["a ball"]  # a comma after a noun still ends it


def test_a_greeting_or_a_question_before_the_request_is_not_its_first_clause() -> None:
    """Conversational openers named no kind (BlendNet: "Hi, can you create a 3D model of a circuit breaker", "Alright,
    let's create a hat", "What is this? Picture a small, cylindrical syringe"): the request got no archetype, so no
    verdict, no redraw and no acceptance; nor a shown plan of its kind."""
    from bpywright.graph.reading.request import head, without_opener

    def ids(prompt: str) -> list[str]:
        return [k.request for k in kind_archetypes(prompt, "4.5")]

    assert "circuit breaker" in ids("Hi, can you create a 3D model of a circuit breaker for me? It should be compact.")[0]
    assert "hat" in ids("Alright, let's create a hat. It should have a cylindrical crown.")[0]
    assert "drum" in ids("Hey there, can you describe a drum for me? Start with the body.")[0]
    assert "chair" in ids("Hello! I need a wooden chair.")[0] and "chair" in ids("Okay so, make me a chair")[0]
    assert "syringe" in ids("What is this? Picture a small, cylindrical syringe with a plunger.")[0]
    assert head("Hi, can you create a lamp with a shade") == "can you create a lamp "
    # an opener is only one when a mark ends it, and a request that is nothing else is left as it is
    assert without_opener("so many books on a shelf") == "so many books on a shelf"
    assert without_opener("well pump with a handle") == "well pump with a handle"
    assert without_opener("Hi!") == "Hi!" and ids("Hi") == []
    # the first clause that names a kind is still the first clause: no later one is read when it names something
    assert ids("Create a 3D model of a drum set. Include a stool.") == []


def test_a_kind_word_before_what_a_thing_does_names_no_kind() -> None:
    """ "A laptop cooling pad" is a pad, not a laptop: held against the open laptop, a plate with two blocks was accepted; "a dish drying mat" was held against a pet bowl. A kind word, an -ing word for what is done, then the
    thing that does it: the first modifies the compound. An -ing word that takes an object does not."""

    def ids(prompt: str) -> list[str]:
        return [k.request for k in kind_archetypes(prompt, "4.5")]

    assert ids("Could you model a laptop cooling pad?") == []
    # not a post of anything else: the scratching post, written as one name ("scratchingpost")
    post = ids("Can you create a cat scratching post? It should be about 2 feet tall.")
    assert len(post) == 1 and "cat scratching post" in post[0]
    assert (
        all("bowl" not in r for r in ids("Create a dish drying mat with a rectangular shape."))
        and "rug" in ids("Create a dish drying mat with a rectangular shape.")[0]
    )
    assert "cutting board" in ids("Create a pizza cutting board.")[0]  # a board, not the pizza
    # the thing asked for, then a participle with its object: still the thing asked for
    assert "chair" in ids("Design a chair featuring curved legs and a backrest.")[0]
    assert "laptop" in ids("Create a laptop showing keyboard keys.")[0]
    assert "laptop" in ids("Create an open laptop.")[0]


def test_two_words_that_a_shape_writes_as_one_name_its_kind_together() -> None:
    def first(prompt: str) -> str:
        found = archetype_of(prompt, "4.5")
        return found.request if found else ""

    assert "coat rack" in first("Create a coat rack with hooks")  # not the spice rack that "rack" names
    assert "chessboard" in first("Design a chess board")  # not the cutting board that "board" names
    assert "powerbank" in first("Create a power bank with two ports")  # not the piggy bank "bank" would be
    assert "bowtie" in first("a red bow tie")  # not the necktie "tie" names
    assert "hairdryer" in first("Model a hair dryer")  # not the washing machine that "dryer" names
    assert "spice rack" in first("a spice rack with jars")  # a pair that joins to no kind word is left as it was
    # a modifier still modifies: no whole pizza for a slice, but the slice
    assert "slice" in first("Create a pizza slice") and "tomato sauce" not in first("Create a pizza slice")
    assert "chess set" in first("Design a chess set with 32 pieces")  # not one chessboard, nor nothing
    assert "cat tree" in first("Create a cat tree with multiple levels")  # not the library's small tree
    assert "blood pressure" in first("Create a blood pressure monitor with a cuff")  # not the flat-screen monitor
    assert "circuit breaker panel" in first("Design a circuit breaker panel with two rows of switches")
    assert "toggle" in first("Could you model a circuit breaker?")  # one breaker, not the panel of them


@pytest.mark.parametrize(
    ("request_", "not_"),
    [
        ("a windmill with four sails on a round stone tower", "wind turbine"),
        ("a royal throne with a tall back", "park bench"),
        ("an oven with a glass door", "microwave"),
        ("a tall columnar cactus", "tree"),
        ("a teddy bear", "snowman"),
        ("a wooden crate", "pet carrier"),
        ("a stand mixer", "blender"),
        ("a game controller", "remote"),
        ("a glowing pink neon ring", "ring with a band"),  # a loop of light, not a finger ring
        ("an aircraft carrier", "pet carrier"),
        ("an aircraft carrier", "airplane"),  # the word that makes a carrier a ship names no aircraft either
        ("a satellite dish on a roof", "bowl"),
        ("a flower pot with a cactus", "cooking pot"),
        ("a vampire bat with spread wings", "baseball bat"),
        ("a water mill with a wheel", "pepper mill"),
        ("an inner tube floating on water", "test tube"),
    ],
)
def test_a_word_that_names_two_different_objects_is_not_one_kind(request_: str, not_: str) -> None:
    """An answer accepted because it agrees with the wrong object becomes an exemplar later requests are shown: a
    windmill is held against no wind turbine, a throne against no bench the library shows for it."""
    assert not any(not_ in k.request for k in kind_archetypes(request_, "4.5"))


def test_the_narrow_kinds_still_find_their_shape() -> None:
    for request_, shape in [
        ("a wind turbine", "wind turbine"),
        ("a microwave oven", "microwave"),
        ("a park bench", "park bench"),
        ("a small palm tree", "tree"),
        ("a coffee mug with a handle", "mug"),
        ("a gold ring with a diamond", "ring with a band"),
        ("a cooking pot with a lid", "cooking pot"),
        ("a baseball bat", "baseball bat"),
        ("a pepper mill", "pepper mill"),
    ]:
        near = kind_archetypes(request_, "4.5")
        assert near and shape in near[0].request, request_


def test_every_word_of_another_sense_is_listed_for_a_kind_the_tables_name() -> None:
    """words.toml's other_senses keeps a kind word from naming the table's object after a word that makes it another one;
    a key that names no archetype's kind would guard nothing."""
    from bpywright.graph.reading.vocabulary import vocabulary
    from bpywright.graph.review.agreement import kind_names

    assert set(vocabulary().other_senses) <= kind_names("4.5")


def test_a_library_plan_must_say_which_words_name_its_own_object(tmp_path) -> None:
    from bpywright.graph.plans.tables import PLAN_LIBRARY, ShapeTableError, load_plan_library

    data = json.loads(PLAN_LIBRARY.read_text(encoding="utf-8"))
    del data["library"][0]["same"]
    path = tmp_path / "lib.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ShapeTableError, match="lack 'same'"):
        load_plan_library(path)
    data["library"][0]["same"] = ["throne"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ShapeTableError, match="'same' words must be among its kinds"):
        load_plan_library(path)


def test_what_a_thing_stands_on_or_in_is_not_its_kind() -> None:
    """ "a lamp on a bedside table" is a lamp, "a cactus in a flower pot" a cactus (no shape of its kind), not the pot:
    held against the pot, a right answer disagrees and a wrong one may agree."""
    assert all("cooking pot" not in k.request for k in kind_archetypes("a cactus in a flower pot", "4.5"))
    lamp = kind_archetypes("a lamp on a bedside table", "4.5")
    assert lamp and "lamp" in lamp[0].request and not any("table" in k.request for k in lamp)
    assert kind_archetypes("a cat sleeping on a sofa", "4.5") == []
    assert "sofa" in kind_archetypes("Create a 3D model of a sofa in a living room", "4.5")[0].request
