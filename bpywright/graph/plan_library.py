"""Part plans of everyday objects, written here, that a plan request shows beside the request: the one or two whose kind is
nearest (a table's legs for a chair or a desk, a mug's handle for a jug), to adapt, never to repeat.

A 1.5B model that plans from the one fixed example (a mailbox) sizes parts badly: chair legs 5 cm tall, a monitor lying
flat, a bookshelf as one box with a box on it (bench/results/fidelity). It imitates what it is shown far better than it
follows rules, so the closest archetype travels with the request. Nothing here comes from a benchmark's data: these are
plain objects at real sizes, placed in words (plan_layout). A plan that repeats a shown archetype is a copy like any other
(graph/copies.py compares the PARTS of built scripts): it is revised, and the benchmark counts it a failure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .request import singular


@dataclass(frozen=True)
class Archetype:
    """A request, the words that make a request its kind, and its plan as the model writes one (JSON, one part a line)."""

    request: str
    kinds: frozenset[str]
    plan: str


def part(name: str, shape: str, size: list[float], on: str, side: str, at: str, color: str, rotation: list[int] | None = None) -> str:
    rot = rotation or [0, 0, 0]
    return (
        f'{{"name": "{name}", "shape": "{shape}", "size": {size}, "on": "{on}", "side": "{side}", "at": "{at}", '
        f'"rotation": {rot}, "color": "{color}"}}'
    )


def plan_of(obj: str, *parts: str) -> str:
    return f'{{"object": "{obj}", "parts": [\n' + ",\n".join(parts) + "\n]}"


def kinds_of(words: str) -> frozenset[str]:
    return frozenset(words.split())


LIBRARY: tuple[Archetype, ...] = (
    Archetype(
        "a wooden table with four legs",
        kinds_of("table desk workbench counter nightstand furniture bed"),
        plan_of(
            "table",
            part("tabletop", "box", [1.2, 0.8, 0.04], "ground", "top", "center", "brown"),
            part("leg_front_left", "box", [0.06, 0.06, 0.71], "tabletop", "bottom", "front_left", "brown"),
            part("leg_front_right", "box", [0.06, 0.06, 0.71], "tabletop", "bottom", "front_right", "brown"),
            part("leg_back_left", "box", [0.06, 0.06, 0.71], "tabletop", "bottom", "back_left", "brown"),
            part("leg_back_right", "box", [0.06, 0.06, 0.71], "tabletop", "bottom", "back_right", "brown"),
        ),
    ),
    Archetype(
        "a park bench with a slatted seat, a backrest and two armrests",
        kinds_of("bench seat chair stool sofa couch armchair settee throne pew"),
        plan_of(
            "park bench",
            part("seat", "box", [1.5, 0.45, 0.05], "ground", "top", "center", "light_wood"),
            part("leg_front_left", "box", [0.06, 0.06, 0.4], "seat", "bottom", "front_left", "dark_grey"),
            part("leg_front_right", "box", [0.06, 0.06, 0.4], "seat", "bottom", "front_right", "dark_grey"),
            part("leg_back_left", "box", [0.06, 0.06, 0.4], "seat", "bottom", "back_left", "dark_grey"),
            part("leg_back_right", "box", [0.06, 0.06, 0.4], "seat", "bottom", "back_right", "dark_grey"),
            part("backrest", "box", [1.5, 0.04, 0.45], "seat", "top", "back", "light_wood"),
            part("armrest_left", "box", [0.05, 0.45, 0.22], "seat", "top", "left", "dark_grey"),
            part("armrest_right", "box", [0.05, 0.45, 0.22], "seat", "top", "right", "dark_grey"),
        ),
    ),
    Archetype(
        "a desk lamp with a round base, a thin stem and a cone shade",
        kinds_of("lamp lantern torch candle streetlight chandelier spotlight"),
        plan_of(
            "desk lamp",
            part("base", "cylinder", [0.18, 0.18, 0.03], "ground", "top", "center", "black"),
            part("stem", "cylinder", [0.02, 0.02, 0.4], "base", "top", "center", "silver"),
            part("shade", "cone", [0.22, 0.22, 0.16], "stem", "top", "center", "cream"),
            part("switch", "box", [0.03, 0.02, 0.015], "base", "top", "front", "red"),
        ),
    ),
    Archetype(
        "a burger with a bun, a patty, a slice of cheese and lettuce",
        kinds_of("burger hamburger sandwich cake cupcake pancake pizza pie food cookie layer stack dessert"),
        plan_of(
            "burger",
            part("bun_bottom", "cylinder", [0.11, 0.11, 0.03], "ground", "top", "center", "tan"),
            part("patty", "cylinder", [0.115, 0.115, 0.02], "bun_bottom", "top", "center", "dark_brown"),
            part("cheese", "box", [0.1, 0.1, 0.005], "patty", "top", "center", "yellow"),
            part("lettuce", "cylinder", [0.12, 0.12, 0.008], "cheese", "top", "center", "light_green"),
            part("bun_top", "sphere", [0.11, 0.11, 0.05], "lettuce", "top", "center", "tan"),
        ),
    ),
    Archetype(
        "a coffee mug with a handle",
        kinds_of("mug cup bottle vase jar glass pot bowl kettle jug pitcher container teapot bucket flask"),
        plan_of(
            "mug",
            part("body", "cylinder", [0.08, 0.08, 0.1], "ground", "top", "center", "white"),
            part("handle", "torus", [0.06, 0.06, 0.012], "body", "right", "center", "white", [90, 0, 0]),
            part("coffee", "cylinder", [0.07, 0.07, 0.002], "body", "top", "center", "dark_brown"),
        ),
    ),
    Archetype(
        "a flat-screen monitor on a stand",
        kinds_of("monitor screen television computer laptop display tablet phone smartphone frame picture painting sign"),
        plan_of(
            "monitor",
            part("stand_base", "box", [0.25, 0.18, 0.015], "ground", "top", "center", "dark_grey"),
            part("stand_neck", "box", [0.05, 0.03, 0.15], "stand_base", "top", "back", "dark_grey"),
            part("screen", "box", [0.6, 0.03, 0.36], "stand_neck", "top", "center", "black"),
            part("power_button", "cylinder", [0.01, 0.01, 0.005], "screen", "front", "right", "light_blue", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a cabinet with two doors and a drawer",
        kinds_of("cabinet cupboard wardrobe dresser shelf bookshelf bookcase drawer chest box crate locker fridge refrigerator"),
        plan_of(
            "cabinet",
            part("body", "box", [0.8, 0.4, 0.9], "ground", "top", "center", "light_wood"),
            part("drawer", "box", [0.76, 0.02, 0.18], "body", "front", "top", "light_wood"),
            part("door_left", "box", [0.375, 0.02, 0.62], "body", "front", "left", "light_wood"),
            part("door_right", "box", [0.375, 0.02, 0.62], "body", "front", "right", "light_wood"),
            part("drawer_knob", "sphere", [0.03, 0.03, 0.03], "drawer", "front", "center", "silver"),
        ),
    ),
    Archetype(
        "a toy car with four wheels",
        kinds_of("car truck vehicle bus train cart wagon tractor van toy trolley suitcase luggage skateboard"),
        plan_of(
            "toy car",
            part("body", "box", [0.4, 0.2, 0.1], "ground", "top", "center", "red"),
            part("cabin", "box", [0.2, 0.18, 0.08], "body", "top", "back", "light_blue"),
            part("wheel_front_left", "cylinder", [0.08, 0.08, 0.03], "body", "bottom", "front_left", "black", [90, 0, 0]),
            part("wheel_front_right", "cylinder", [0.08, 0.08, 0.03], "body", "bottom", "front_right", "black", [90, 0, 0]),
            part("wheel_back_left", "cylinder", [0.08, 0.08, 0.03], "body", "bottom", "back_left", "black", [90, 0, 0]),
            part("wheel_back_right", "cylinder", [0.08, 0.08, 0.03], "body", "bottom", "back_right", "black", [90, 0, 0]),
        ),
    ),
    Archetype(
        "a snowman with three snowballs, a carrot nose and a hat",
        kinds_of("snowman figure character doll person robot statue toy animal bear penguin mascot"),
        plan_of(
            "snowman",
            part("snowball_bottom", "sphere", [0.6, 0.6, 0.6], "ground", "top", "center", "white"),
            part("snowball_middle", "sphere", [0.45, 0.45, 0.45], "snowball_bottom", "top", "center", "white"),
            part("snowball_head", "sphere", [0.3, 0.3, 0.3], "snowball_middle", "top", "center", "white"),
            part("nose", "cone", [0.04, 0.04, 0.12], "snowball_head", "front", "center", "orange", [-90, 0, 0]),
            part("hat", "cylinder", [0.2, 0.2, 0.2], "snowball_head", "top", "center", "black"),
        ),
    ),
    Archetype(
        "a small tree with a trunk and a round crown",
        kinds_of("tree plant flower bush cactus mushroom umbrella parasol palm sapling bonsai"),
        plan_of(
            "tree",
            part("trunk", "cylinder", [0.15, 0.15, 1.0], "ground", "top", "center", "brown"),
            part("crown", "sphere", [1.0, 1.0, 0.9], "trunk", "top", "center", "green"),
            part("pot", "cylinder", [0.4, 0.4, 0.3], "trunk", "bottom", "center", "dark_red"),
        ),
    ),
)

_WORDS = re.compile(r"[a-z]+(?:-[a-z]+)*")  # a hyphenated word is one: a drum set's hi-hat is no hat


def similar(prompt: str, k: int = 2) -> list[Archetype]:
    """Up to k archetypes whose kind the request names (most words in common first, the library's order on ties);
    none when it names no kind here."""
    words = request_words(prompt)
    scored = [(len(words & a.kinds), i) for i, a in enumerate(LIBRARY)]
    return [LIBRARY[i] for score, i in sorted(scored, key=lambda s: (-s[0], s[1])) if score > 0][: max(k, 0)]


def request_words(prompt: str) -> set[str]:
    """The request's words, singular, as kinds are matched against them."""
    return {singular(w) for w in _WORDS.findall(prompt.lower())}


def technique_part(name: str, shape: str, size: list[float], on: str, side: str, at: str, color: str, **extra: object) -> str:
    """A part with technique keys after its own (plan_techniques), as the model writes one."""
    rotation = extra.pop("rotation", [0, 0, 0])
    keys = "".join(f", {json.dumps(k)}: {json.dumps(v)}" for k, v in extra.items())
    return part(name, shape, size, on, side, at, color, rotation)[:-1] + keys + "}"  # type: ignore[arg-type]


# Plans that show how a plan says a technique (a material, a modifier, a repeat, keyframes, text, a lathe, a curve, lights
# and the camera): one travels with a request that names its technique, beside the object archetypes. Their objects and
# values are their own, so that a plan that repeats one is a copy, not an answer (graph/copies.py).
TECHNIQUES: tuple[Archetype, ...] = (
    Archetype(
        "a polished copper ring with a smooth subdivision surface",
        kinds_of(
            "material metal metallic gold golden chrome silver copper brass steel bronze shiny polished glossy reflective "
            "subdivision subdivide subdivided subsurf smooth smoothed modifier modifiers torus donut roughness"
        ),
        plan_of(
            "ring",
            technique_part(
                "ring",
                "torus",
                [0.8, 0.8, 0.16],
                "ground",
                "top",
                "center",
                "orange",
                material="copper",
                roughness=0.15,
                modifiers=[{"type": "subsurf", "levels": 3}],
            ),
        ),
    ),
    Archetype(
        "a rubber ball that bounces twice over 60 frames",
        kinds_of("bounce bouncing bounces animate animated animation keyframe keyframes keyframed frame frames move moving jump jumping"),
        plan_of(
            "bouncing ball",
            technique_part(
                "ball",
                "sphere",
                [0.3, 0.3, 0.3],
                "ground",
                "top",
                "center",
                "blue",
                material="rubber",
                animate="location_z",
                frames=[1, 15, 30, 45, 60],
                values=[0, 1.2, 0, 0.8, 0],
            ),
            part("floor", "plane", [3.0, 3.0, 0.0], "ball", "bottom", "center", "light_grey"),
        ),
    ),
    Archetype(
        "a 6 by 8 grid of skyscrapers with random heights",
        kinds_of("grid city skyline array row rows column columns random randomly scatter scattered copies repeat repeated pattern"),
        plan_of(
            "city block",
            technique_part(
                "skyscraper",
                "box",
                [0.6, 0.6, 2.0],
                "ground",
                "top",
                "center",
                "light_grey",
                repeat=48,
                pattern="grid",
                rows=6,
                spacing=0.9,
                vary="height",
                seed=3,
            ),
        ),
    ),
    Archetype(
        "the word OPEN in extruded 3D letters",
        kinds_of("text word words letter letters lettering font title extruded extrude written reads"),
        plan_of(
            "word",
            technique_part("letters", "text", [2.0, 0.15, 0.5], "ground", "top", "center", "red", text="OPEN", material="plastic"),
        ),
    ),
    Archetype(
        "a lathed clay vase, wide in the middle and narrow at the top",
        kinds_of("lathe lathed vase bowl goblet wineglass profile revolve revolved turned screw amphora urn"),
        plan_of(
            "vase",
            technique_part(
                "vase",
                "lathe",
                [0.25, 0.25, 0.4],
                "ground",
                "top",
                "center",
                "tan",
                profile=[0.5, 0.9, 1.0, 0.6, 0.3, 0.4],
                material="ceramic",
                modifiers=[{"type": "solidify", "thickness": 0.008}],
            ),
        ),
    ),
    Archetype(
        "a spiral staircase with 16 steps around a pole",
        kinds_of("spiral staircase stair stairs stairway step steps helical circular around"),
        plan_of(
            "spiral staircase",
            part("pole", "cylinder", [0.1, 0.1, 3.0], "ground", "top", "center", "dark_grey"),
            technique_part(
                "step",
                "box",
                [0.8, 0.25, 0.04],
                "pole",
                "right",
                "bottom",
                "light_wood",
                repeat=16,
                pattern="spiral",
                spacing=0.45,
                rise=0.19,
                turns=1.0,
            ),
        ),
    ),
    Archetype(
        "a copper pipe bent into a helix spring",
        kinds_of("curve curves helix spring coil tube pipe rail wire bezier path spline bevelled"),
        plan_of(
            "spring",
            technique_part(
                "coil",
                "curve",
                [0.2, 0.2, 0.6],
                "ground",
                "top",
                "center",
                "orange",
                path="helix",
                turns=6,
                thickness=0.02,
                material="copper",
            ),
        ),
    ),
    Archetype(
        "a glowing orb on a stand, lit by an area light and seen through a 35 mm camera",
        kinds_of("glow glowing emissive emission neon light lights lit lighting lamp spotlight sun camera lens glass transparent"),
        plan_of(
            "glowing orb",
            part("stand", "cylinder", [0.2, 0.2, 0.05], "ground", "top", "center", "black"),
            technique_part("orb", "sphere", [0.25, 0.25, 0.25], "stand", "top", "center", "light_blue", material="glowing", emission=6),
            technique_part("key_light", "light", [0.1, 0.1, 0.1], "orb", "front", "left", "white", light="area", energy=200),
            technique_part("camera", "camera", [0.1, 0.1, 0.1], "orb", "front", "right", "white", lens=35),
        ),
    ),
)


def technique_examples(prompt: str, k: int = 1) -> list[Archetype]:
    """Up to k technique plans whose words the request names (most in common first, then this order)."""
    words = request_words(prompt)
    scored = [(len(words & a.kinds), i) for i, a in enumerate(TECHNIQUES)]
    return [TECHNIQUES[i] for score, i in sorted(scored, key=lambda s: (-s[0], s[1])) if score > 0][: max(k, 0)]
