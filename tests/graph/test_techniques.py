"""Techniques a request names, read from its words, and checked in scene summaries built here as pydantic objects (fast:
no Blender), each with a scene that has the technique and one that lacks it; the word table's loader on bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.config import Settings
from bpywright.graph.loop.context import RunContext
from bpywright.graph.loop.nodes.heal import Turn, regenerate_after
from bpywright.graph.loop.routing import after_critic
from bpywright.graph.loop.state import Attempt, Critique, GenState
from bpywright.graph.plans.parts import PALETTE
from bpywright.graph.reading.technique_words import TechniqueWordsError, load_words, words
from bpywright.graph.review.checks import lacks_asked, lacks_technique, objective, unbuilt
from bpywright.graph.review.techniques import Technique, check, check_techniques, hsv, techniques, within
from bpywright.harness.report import (
    BoundingBox,
    CameraSummary,
    CurveSummary,
    FCurveSummary,
    LightSummary,
    MaterialSummary,
    ModifierSummary,
    ObjectSummary,
    RenderInfo,
    RunReport,
    SceneSummary,
)


def said(prompt: str) -> list[str]:
    """The techniques of a request, compact: 'material colour=gold metallic_min=0.7'."""
    found = []
    for t in techniques(prompt):
        fields = t.model_dump(exclude_defaults=True, exclude={"kind", "source", "object_type"})
        found.append(" ".join([t.kind, *(f"{k}={v}" for k, v in sorted(fields.items()))]))
    return found


READINGS = [
    # materials: colours and the metals, glass, glow, finish they name
    ("a gold crown", ["material colour=gold metallic_min=0.7"]),
    ("a shiny gold metal torus", ["material colour=gold metallic_min=0.7 roughness_max=0.35"]),
    ("a golden crown on a cushion", ["material colour=gold"]),
    ("a silver spoon", ["material colour=silver metallic_min=0.7"]),
    ("a copper kettle", ["material colour=copper metallic_min=0.7"]),
    ("a chrome sphere", ["material metallic_min=0.7 roughness_max=0.35"]),
    ("a metal chair", ["material metallic_min=0.7"]),
    ("a car with metallic blue paint", ["material colour=blue metallic_min=0.5"]),
    ("a glass of water", ["material transmission_min=0.5"]),
    ("a transparent cube", ["material transmission_min=0.5"]),
    ("a glowing orb", ["material emission_min=0.0"]),
    ('a neon sign that reads "OPEN"', ["material emission_min=0.0", "text body=OPEN"]),
    ("a shiny red ball", ["material colour=red roughness_max=0.35"]),
    ("a matte black vase", ["material colour=black roughness_min=0.6"]),
    ("a plastic bottle", ["material metallic_max=0.3"]),
    ("a table with metal legs and a wooden top", ["material metallic_min=0.7", "material metallic_max=0.3"]),
    ("an orange cat", ["material colour=orange"]),
    ("a red cube on a white background", ["material colour=red"]),  # the background is the world's, not a material
    ("a chair, not red but blue", ["material colour=blue"]),
    ("a box in either bold black or chic white", []),  # one of them, not both
    ("a red and blue ball", ["material colour=red", "material colour=blue"]),
    ("a non-metallic red chair", ["material colour=red"]),
    ("a white wine glass", ["material transmission_min=0.5"]),  # the wine is no colour asked; the glass is glass
    # words that are kinds, styles or sayings, not techniques
    ("a heavy metal band poster", []),
    ("a metal detector", []),
    ("an orange on a plate", []),
    ("an orange and a banana", []),
    ("a golden retriever", []),
    ("a golden brown loaf of bread", []),
    ("a silver birch tree", []),
    ("a pair of sunglasses", []),
    ("blue light shining on a table", []),
    ("a black hole", []),
    ("a red panda", []),
    ("a matte painting of a castle", []),
    ("a transparent background render of a cube", []),
    ("a rigged character ready to animate", []),
    ("an animated style fox", []),
    ("a bouncy castle", []),
    ("a microphone array", []),
    ("a 2x4 plank", []),
    ("Make a 3x3 Rubik's cube", []),
    ("a chessboard with 64 squares", []),
    ("Create a chess board with a standard 8x8 grid", []),  # a board may be one plane with a checker texture
    ("a puzzle cube, each face divided into a 3x3 grid", []),
    ("a stapler used for joining papers by driving metal staples through them", []),  # what it is for
    ("a juicer with a spout for pouring the juice into a glass", []),
    ("a vintage camera", []),
    ("a spotlight on a stage", []),
    ("a solar system with the sun", []),
    ('a "modern" chair', []),
    ("Create a cube and name it 'Base'", []),  # an object's name, not text to write
    ("a vase with elegant curves", []),
    ("a ball falling with rigid body physics animation", []),  # a simulation keys nothing
    # keyframed motion, its property, axis and frames
    ("a bouncing ball", ["keyframes axis=2 channel=location"]),
    ("a keyframed bounce of a ball over 48 frames", ["keyframes axis=2 channel=location frame_end=48 frame_start=1"]),
    ("Animate a cube rotating 360 degrees from frame 1 to 120", ["keyframes channel=rotation frame_end=120 frame_start=1"]),
    ("a cube that spins for 2 seconds", ["keyframes channel=rotation seconds=2.0"]),
    ("a 5-second animation of a rotating cube", ["keyframes channel=rotation seconds=5.0"]),
    ("keyframe the cube at frame 1 and frame 60 moving along the x axis", ["keyframes axis=0 channel=location frame_end=60 frame_start=1"]),
    ("animate the light's energy pulsing", ["keyframes"]),
    ("animate a cube changing colour from red to blue", ["keyframes"]),  # a changing colour has no one value to check
    ("a cube that rotates", []),  # a shape, not a motion asked for
    # copies
    ("a 10 by 10 grid of cubes", ["array count=100"]),
    ("an array of 8 spheres", ["array count=8"]),
    ("a cube with an array modifier with a count of 5", ["array count=5 modifier=ARRAY"]),
    ("a spiral staircase with 20 steps", ["array count=20"]),
    ("a ramp built in 3 steps: first a box, then a wedge", []),  # steps of the work, no stairs
    ("make 10 copies of the cube", ["array count=10"]),
    ("scatter 50 rocks on a plane", ["scatter count=50"]),
    # text
    ('a sign that says "HELLO"', ["text body=HELLO"]),
    ("3D text saying HELLO WORLD, extruded", ["text body=HELLO WORLD extrude=True"]),
    ("a logo with the letters ABC", ["text body=ABC"]),
    ('a logo with a stylized letter "A" and an arrow', []),  # a letter is a shape to model as often as text
    ("a book with no text on the cover", []),
    # modifiers, lights, camera, curves
    ("a cube with a subdivision surface modifier at level 2", ["modifier modifier=SUBSURF settings={'levels': 2}"]),
    ("use geometry nodes to make a grid", ["modifier modifier=NODES"]),
    ("a vase with a bevel modifier of 3 segments", ["modifier modifier=BEVEL settings={'segments': 3}"]),
    ("a cube with beveled edges", []),  # an edit-mode bevel is as good: no modifier asked
    ("add a sun lamp and a camera looking at the scene", ["light count=1 light_type=SUN", "camera"]),
    ("three point lights around a statue", ["light count=3 light_type=POINT"]),
    ("three-point lighting for a product shot", ["light count=3"]),
    ("an orthographic camera top view of a house", ["camera settings={'type': 'ORTHO'}"]),
    ("a pipe made from a bezier curve with a bevel", ["curve settings={'bevel': True}"]),
]


@pytest.mark.parametrize(("prompt", "expected"), READINGS, ids=[p for p, _ in READINGS])
def test_the_techniques_a_request_names_are_read_from_its_words(prompt: str, expected: list[str]) -> None:
    assert said(prompt) == expected


def test_the_readings_cover_forty_phrasings_with_the_negatives() -> None:
    assert len(READINGS) >= 40 and sum(1 for _, e in READINGS if not e) >= 20


# --- scenes -------------------------------------------------------------------------------------------------------------


def mesh(name: str, **fields: object) -> ObjectSummary:
    box = BoundingBox(min=(-1.0, -1.0, -1.0), max=(1.0, 1.0, 1.0))
    return ObjectSummary.model_validate({"name": name, "type": "MESH", "vertices": 8, "faces": 6, "visible": True, "bbox": box, **fields})


def material(name: str, **fields: object) -> MaterialSummary:
    values: dict[str, object] = {
        "name": name,
        "use_nodes": True,
        "users": 1,
        "base_color": (0.8, 0.8, 0.8, 1.0),
        "metallic": 0.0,
        "roughness": 0.5,
        "transmission": 0.0,
        "emission_color": (1.0, 1.0, 1.0, 1.0),
        "emission_strength": 0.0,
        "alpha": 1.0,
        "ior": 1.45,
        "node_types": ["BSDF_PRINCIPLED", "OUTPUT_MATERIAL"],
    }
    return MaterialSummary.model_validate(values | fields)


def scene(*objects: ObjectSummary, **fields: object) -> SceneSummary:
    values: dict[str, object] = {
        "object_count": len(objects),
        "objects": list(objects),
        "bbox": None,
        "camera": False,
        "light": False,
        "fps": 24,
    }
    return SceneSummary.model_validate(values | fields)


def painted(m: MaterialSummary, name: str = "Crown") -> SceneSummary:
    """One visible object with one material."""
    return scene(mesh(name, materials=[m.name]), materials=[m])


def key(
    path: str, index: int, *, keys: int = 2, frames: tuple[float, float] = (1, 48), values: tuple[float, float] = (0, 2)
) -> FCurveSummary:
    return FCurveSummary(
        owner="object",
        data_path=path,
        index=index,
        keyframes=keys,
        frame_min=frames[0],
        frame_max=frames[1],
        value_min=values[0],
        value_max=values[1],
    )


def one(prompt: str) -> Technique:
    found = techniques(prompt)
    assert len(found) == 1, found
    return found[0]


def verdict(prompt: str, s: SceneSummary) -> str:
    """'' when the technique the request names is in the scene, else the check's message."""
    result = check(one(prompt), s)
    assert result.ok == (result.message == "")
    return result.message


# --- materials ----------------------------------------------------------------------------------------------------------


def test_a_gold_crown_needs_a_gold_metal_and_says_what_a_pale_green_plastic_lacks() -> None:
    assert verdict("a gold crown", painted(material("Gold", base_color=(1.0, 0.766, 0.336, 1.0), metallic=1.0))) == ""
    message = verdict("a gold crown", painted(material("Gold", base_color=(0.4, 0.8, 0.4, 1.0))))
    assert message.startswith("material Gold: base colour #AAE7AA (green), asked for gold; metallic 0.0, asked for gold")
    assert verdict("a gold metal torus", painted(material("Gold", base_color=(1.0, 0.766, 0.336, 1.0)))) == (
        "material Gold: metallic 0.0, asked for gold metal (metallic at least 0.7)"
    )


def test_colours_are_judged_in_srgb_so_a_scripts_linear_values_and_the_plan_palette_read_as_named() -> None:
    orange = words().colours["orange"]
    assert within((1.0, 0.5, 0.0), orange) and hsv((1.0, 0.5, 0.0))[0] > 40  # linear 0.5 shows as sRGB 0.74: hue 44
    for name in ("white", "black", "grey", "silver", "gold", "red", "pink", "orange", "yellow", "brown", "green", "blue", "purple", "teal"):
        assert within(PALETTE[name], words().colours[name]), name
    assert not within(PALETTE["blue"], words().colours["red"]) and not within(PALETTE["white"], words().colours["black"])


@pytest.mark.parametrize(
    ("prompt", "good", "bad", "says"),
    [
        ("a glass of water", {"transmission": 1.0}, {}, "transmission 0.0 and alpha 1.0, no Glass BSDF, asked for glass"),
        ("a glass of water", {"node_types": ["BSDF_GLASS", "OUTPUT_MATERIAL"], "transmission": None}, {}, "no Glass BSDF"),
        ("a transparent cube", {"alpha": 0.3}, {"alpha": 0.9}, "asked for transparent"),
        ("a transparent cube", {"alpha": None, "base_color": (0.8, 0.8, 1.0, 0.3)}, {"alpha": None}, "alpha 1.0"),  # diffuse_color's
        ("a glowing orb", {"emission_strength": 5.0}, {}, "emission strength 0.0 (colour #FFFFFF (white)), asked for glowing"),
        (
            "a glowing orb",
            {"emission_strength": 2.0},
            {"emission_strength": 1.0, "emission_color": (0.0, 0.0, 0.0, 1.0)},
            "asked for glowing",
        ),
        (
            "a glowing red orb",
            {"emission_strength": 3.0, "emission_color": (1.0, 0.0, 0.0, 1.0)},
            {"emission_strength": 3.0},
            "base colour #E7E7E7 (white), asked for red",
        ),
        ("a shiny ball", {"roughness": 0.1}, {}, "roughness 0.5, asked for shiny (roughness at most 0.35)"),
        ("a matte vase", {"roughness": 0.9}, {"roughness": 0.2}, "roughness 0.2, asked for matte (roughness at least 0.6)"),
        ("a plastic bottle", {"metallic": 0.0}, {"metallic": 1.0}, "metallic 1.0, asked for plastic (metallic at most 0.3)"),
        ("a red sphere", {"base_color": (0.8, 0.05, 0.05, 1.0)}, {}, "base colour #E7E7E7 (white), asked for red"),
        ("a red sphere", {"linked": ["Base Color"]}, {"linked": ["Roughness"]}, "asked for red"),  # a texture's colour: unread
        ("a black vase", {"base_color": (0.05, 0.05, 0.05, 1.0)}, {"base_color": (0.5, 0.5, 0.5, 1.0)}, "(grey), asked for black"),
        ("a steel knife", {"metallic": 0.9}, {"metallic": 0.4}, "metallic 0.4, asked for steel (metallic at least 0.7)"),
        ("a steel knife", {"metallic": None, "node_types": ["BSDF_GLOSSY", "OUTPUT_MATERIAL"]}, {"metallic": None}, "metallic none"),
    ],
)
def test_each_material_bound_passes_a_material_that_has_it_and_names_what_one_without_it_lacks(
    prompt: str, good: dict[str, object], bad: dict[str, object], says: str
) -> None:
    assert verdict(prompt, painted(material("Mat", **good))) == ""
    message = verdict(prompt, painted(material("Mat", **bad)))
    assert message.startswith("material Mat: ") and says in message, message


def test_any_visible_material_may_meet_a_technique_and_a_hidden_one_does_not() -> None:
    gold, grey = material("Gold", base_color=(1.0, 0.7, 0.2, 1.0), metallic=1.0), material("Stone")
    both = scene(mesh("Crown", materials=["Gold"]), mesh("Pedestal", materials=["Stone"]), materials=[gold, grey])
    assert verdict("a gold crown", both) == ""
    hidden = scene(mesh("Crown", materials=["Gold"], visible=False), mesh("Pedestal", materials=["Stone"]), materials=[gold, grey])
    assert verdict("a gold crown", hidden).startswith("material Stone: ")
    assert verdict("a gold crown", scene(mesh("Crown"))) == "no material on any visible object, asked for gold"
    wood, metal = material("Wood", base_color=(0.4, 0.2, 0.1, 1.0)), material("Metal", base_color=(0.5, 0.5, 0.5, 1.0))
    two = scene(mesh("Handle", materials=["Wood"]), mesh("Head", materials=["Metal"]), materials=[wood, metal])
    assert verdict("a hammer with a metal head", two).startswith("material Metal: metallic 0.0, asked for metal")  # named for it


# --- keyframes ----------------------------------------------------------------------------------------------------------


BOUNCE = "a keyframed bounce of a ball over 48 frames"


def test_a_bounce_needs_keyframes_that_move_the_ball_up_and_down_over_the_frames_asked() -> None:
    ground = mesh("Ground")
    assert verdict(BOUNCE, scene(mesh("Ball", fcurves=[key("location", 2)]), ground)) == ""
    assert verdict(BOUNCE, scene(mesh("Ball"), ground)) == (
        "no keyframe on Ball.location[2] (z) (asked for keyframed motion: a keyframed bounce of a ball over 48 frames)"
    )
    sideways = verdict(BOUNCE, scene(mesh("Ball", fcurves=[key("location", 0)]), ground))
    assert sideways.startswith("no keyframe on Ball.location[2] (z)") and sideways.endswith("; keyed: Ball.location[0]")
    assert "has 1 keyframe: motion needs two or more" in verdict(BOUNCE, scene(mesh("Ball", fcurves=[key("location", 2, keys=1)])))
    held = verdict(BOUNCE, scene(mesh("Ball", fcurves=[key("location", 2, values=(1, 1))])))
    assert "keeps the value 1.0 over its 2 keyframes: nothing moves" in held
    short = verdict(BOUNCE, scene(mesh("Ball", fcurves=[key("location", 2, frames=(1, 24))])))
    assert short.startswith("Ball.location[2] is keyed on frames 1.0-24.0, asked for frames 1-48")
    assert verdict(BOUNCE, scene(mesh("Ball", fcurves=[key("location", 2, frames=(0, 40))]))) == ""  # 83 % of the range


def test_the_moving_object_is_named_and_the_exact_message_reads_as_asked() -> None:
    assert verdict("animate the sphere moving across the table", scene(mesh("Table"), mesh("Sphere"))).startswith(
        "no keyframe on Sphere.location (asked for keyframed motion"
    )


def test_seconds_are_frames_at_the_scenes_rate_and_any_property_may_be_keyed_where_none_is_named() -> None:
    spin = "a cube that spins for 2 seconds"
    assert verdict(spin, scene(mesh("Cube", fcurves=[key("rotation_euler", 2, frames=(1, 60))]), fps=30)) == ""
    assert "asked for frames 1-48" in verdict(spin, scene(mesh("Cube", fcurves=[key("rotation_euler", 2, frames=(1, 24))])))
    glow = FCurveSummary(
        owner="material:Glow",
        data_path='nodes["Emission"].inputs[1].default_value',
        index=0,
        keyframes=3,
        frame_min=1,
        frame_max=30,
        value_min=0,
        value_max=5,
    )
    pulse = "animate the light's energy pulsing"
    assert verdict(pulse, scene(mesh("Bulb"), material_fcurves=[glow])) == ""
    assert verdict(pulse, scene(mesh("Bulb"))).startswith("no keyframe on any object or material")


# --- text, curves, modifiers --------------------------------------------------------------------------------------------


def font(name: str, body: str, **fields: object) -> ObjectSummary:
    return ObjectSummary.model_validate({"name": name, "type": "FONT", "text": body, "visible": True, **fields})


def test_text_needs_a_text_object_that_reads_the_words_asked_and_depth_where_extruded() -> None:
    sign = 'a sign that says "HELLO"'
    assert verdict(sign, scene(mesh("Board"), font("Text", "Hello"))) == ""  # case-insensitive
    assert verdict(sign, scene(mesh("Board"))) == "no text object with 'HELLO'"
    assert verdict(sign, scene(font("Text", "HELO"))) == "no text object with 'HELLO'; text objects read: 'HELO'"
    assert verdict(sign, scene(mesh("HELLO_sign", vertices=400, faces=300))) == ""  # converted to a mesh: its name says so
    assert verdict(sign, scene(mesh("Board"), mesh("Text", vertices=400, faces=300))) == ""
    assert verdict(sign, scene(mesh("Board"), mesh("Text"), font("Other", "BYE"))).startswith("no text object with 'HELLO'")
    deep = "3D text saying HELLO WORLD, extruded"
    assert verdict(deep, scene(font("Title", "hello  world", text_extrude=0.1))) == ""
    assert verdict(deep, scene(font("Title", "hello world", modifiers=["SOLIDIFY"], text_extrude=0.0))) == ""
    assert verdict(deep, scene(font("Title", "hello world", text_extrude=0.0))) == (
        "text object Title reads 'hello world' and is flat: extrude 0.0, asked for extruded text"
    )


def test_a_curve_object_and_its_bevel() -> None:
    pipe = "a pipe made from a bezier curve with a bevel"

    def curve(depth: float) -> ObjectSummary:
        data = CurveSummary(dimensions="3D", splines=1, points=4, bevel_depth=depth, extrude=0.0, bevel_object=False, cyclic=False)
        return ObjectSummary(name="Pipe", type="CURVE", visible=True, curve=data)

    assert verdict(pipe, scene(curve(0.1))) == ""
    assert verdict(pipe, scene(curve(0.0))).startswith("curve Pipe has no bevel: bevel depth 0.0")
    assert verdict(pipe, scene(mesh("Pipe"))) == "no curve object (asked for bezier curve); the scene holds 1 MESH"


def test_a_modifier_named_with_its_setting() -> None:
    level2 = "a cube with a subdivision surface modifier at level 2"

    def subsurf(**settings: object) -> ObjectSummary:
        return mesh(
            "Cube", modifiers=["SUBSURF"], modifier_settings=[ModifierSummary(name="Subdivision", type="SUBSURF", settings=settings)]
        )

    assert verdict(level2, scene(subsurf(levels=2, render_levels=2))) == ""
    assert verdict(level2, scene(subsurf(levels=1, render_levels=2))) == ""  # rendered at the level asked
    assert (
        verdict(level2, scene(subsurf(levels=1, render_levels=1)))
        == "SUBSURF modifier on Cube: levels 1, asked for 2 (subdivision surface modifier)"
    )
    assert verdict(level2, scene(mesh("Cube", modifiers=["BEVEL"]))) == (
        "no SUBSURF modifier on any object (asked for subdivision surface modifier); modifiers: BEVEL"
    )


# --- copies, lights, camera ---------------------------------------------------------------------------------------------


def arrayed(name: str, *counts: int) -> ObjectSummary:
    mods = [ModifierSummary(name=f"Array{i}", type="ARRAY", settings={"count": c, "fit_type": "FIXED_COUNT"}) for i, c in enumerate(counts)]
    return mesh(
        name, modifiers=["ARRAY"] * len(counts), modifier_settings=mods, vertices=8 * math_prod(counts), faces=6 * math_prod(counts)
    )


def math_prod(counts: tuple[int, ...]) -> int:
    product = 1
    for c in counts:
        product *= c
    return product


def test_a_grid_is_copies_by_array_modifiers_look_alike_objects_or_instances() -> None:
    grid = "a 10 by 10 grid of cubes"
    assert verdict(grid, scene(arrayed("Cube", 10, 10))) == ""
    assert verdict(grid, scene(*(mesh(f"Cube.{i:03d}") for i in range(100)))) == ""
    assert verdict(grid, scene(mesh("Cube"), instance_count=100)) == ""
    assert (
        verdict(grid, scene(mesh("Cube")))
        == "no ARRAY modifier; 1 look-alike object(s) (Cube), no instances; asked for 100 (a 10 by 10 grid)"
    )
    assert verdict(grid, scene(arrayed("Cube", 10))).startswith("ARRAY modifier(s) on Cube make 10.0; 1 look-alike object(s)")
    named = "a cube with an array modifier with a count of 5"
    assert verdict(named, scene(arrayed("Cube", 5))) == ""
    assert verdict(named, scene(*(mesh(f"Cube{i}") for i in range(5)))).startswith("no ARRAY modifier on any object")


def test_a_scatter_counts_every_object_but_the_ground() -> None:
    rocks = "scatter 50 rocks on a plane"
    assert verdict(rocks, scene(mesh("Plane", vertices=4, faces=1), *(mesh(f"Rock{i}", vertices=40 + i) for i in range(50)))) == ""
    assert "asked for 50" in verdict(rocks, scene(mesh("Plane"), *(mesh(f"Rock{i}") for i in range(5))))


def light(name: str, kind: str, at: tuple[float, float, float] = (0.0, 0.0, 5.0)) -> ObjectSummary:
    return ObjectSummary(name=name, type="LIGHT", location=at, light=LightSummary(type=kind, energy=1000.0, color=(1.0, 1.0, 1.0)))


def test_a_light_of_the_type_asked_that_the_script_set_up() -> None:
    sun = "add a sun lamp to light a cube"
    assert verdict(sun, scene(mesh("Cube"), light("Sun", "SUN"))) == ""
    assert verdict(sun, scene(mesh("Cube"), light("Lamp", "POINT"))) == "no SUN light (asked for sun lamp); lights: POINT Lamp"
    assert verdict(sun, scene(mesh("Cube"), light("bpywright_sun", "SUN"))).startswith("no SUN light")  # the harness's staging
    factory = verdict("a point light above a cube", scene(mesh("Cube"), light("Light", "POINT", (4.0762, 1.0055, 5.9039))))
    assert "the factory startup's Light is left where it was" in factory
    three = "three point lights around a statue"
    assert verdict(three, scene(*(light(f"L{i}", "POINT") for i in range(3)))) == ""
    assert verdict(three, scene(light("L0", "POINT"), light("L1", "POINT"))) == "2 POINT light(s), asked for 3 (point lights)"


def camera(name: str, kind: str = "PERSP", at: tuple[float, float, float] = (0.0, -8.0, 3.0)) -> ObjectSummary:
    return ObjectSummary(name=name, type="CAMERA", location=at, camera=CameraSummary(type=kind, lens=50.0))


def test_a_camera_the_script_set_up_and_made_the_scenes() -> None:
    ask = "add a sun lamp"  # read separately: the camera request below
    assert one(ask).kind == "light"
    cam = "place a camera looking at the cube"
    assert verdict(cam, scene(mesh("Cube"), camera("Cam"), active_camera="Cam")) == ""
    staged = verdict(cam, scene(mesh("Cube"), camera("bpywright_camera"), active_camera="bpywright_camera"))
    assert staged == "no camera set up by the script (asked for place a camera): the render used the harness's staging camera"
    left = verdict(cam, scene(mesh("Cube"), camera("Camera", at=(7.3589, -6.9258, 4.9583)), active_camera="Camera"))
    assert "the factory startup's camera is left where it was" in left
    assert "set scene.camera" in verdict(
        cam, scene(mesh("Cube"), camera("Cam"), camera("bpywright_camera"), active_camera="bpywright_camera")
    )
    ortho = "an orthographic camera top view of a house"
    assert verdict(ortho, scene(mesh("House"), camera("Top", "ORTHO"), active_camera="Top")) == ""
    assert (
        verdict(ortho, scene(mesh("House"), camera("Top"), active_camera="Top"))
        == "camera Top is PERSP, asked for ORTHO (orthographic camera)"
    )


def test_an_object_type_checked_directly() -> None:
    empty = Technique(kind="object_type", object_type="EMPTY", source="an empty")
    assert check(empty, scene(ObjectSummary(name="Pivot", type="EMPTY"))).ok
    assert check(empty, scene(mesh("Cube"))).message == "0 EMPTY object(s), asked for 1 (an empty)"


# --- for the critic -----------------------------------------------------------------------------------------------------


def test_check_techniques_labels_each_check_and_gives_the_messages_of_the_failures() -> None:
    prompt = "a gold crown and a sign that says 'HEY', keyframed rotating"
    checks, reasons = check_techniques(prompt, scene(mesh("Crown")))
    assert checks == {"technique: material gold": False, "technique: keyframes rotation": False, "technique: text 'HEY'": False}
    assert reasons[0] == "no material on any visible object, asked for gold" and "no text object with 'HEY'" in reasons
    assert check_techniques(prompt, None) == ({}, [])
    assert check_techniques(prompt, scene(mesh("Crown"), fps=None)) == ({}, [])  # an older harness's summary: no facts
    assert check_techniques("a cube", scene(mesh("Cube"))) == ({}, [])


# --- the word table ------------------------------------------------------------------------------------------------------


def test_the_shipped_word_table_loads_and_a_bad_one_is_refused_with_where_it_is_wrong(tmp_path: Path) -> None:
    assert load_words().colours["gold"].hue == (28.0, 62.0)
    shipped = (Path(__file__).parents[2] / "bpywright" / "graph" / "data" / "techniques.toml").read_text(encoding="utf-8")
    bad = tmp_path / "techniques.toml"
    bad.write_text(shipped.replace("metallic_min = 0.7", "metalic_min = 0.7", 1), encoding="utf-8")
    with pytest.raises(TechniqueWordsError, match=r"do not fit their schema: materials\.0\.metalic_min: Extra inputs") as caught:
        load_words(bad)
    assert str(bad) in str(caught.value)
    bad.write_text(shipped.replace('colour = "gold"', 'colour = "gilded"', 1), encoding="utf-8")
    with pytest.raises(TechniqueWordsError, match="materials name colours the colour table lacks: gilded"):
        load_words(bad)
    bad.write_text(shipped.replace("saturation = [0.35, 1.0]", "saturation = [0.35, 1.5]", 1), encoding="utf-8")
    with pytest.raises(TechniqueWordsError, match=r"colours\.red.*saturation bounds"):
        load_words(bad)
    bad.write_text("negations = [", encoding="utf-8")
    with pytest.raises(TechniqueWordsError, match="cannot read the technique words"):
        load_words(bad)


# --- in the critic and the routing ---------------------------------------------------------------------------------------


def ran(s: SceneSummary) -> Attempt:
    """An attempt whose script ran and rendered this scene."""
    render = RenderInfo(path="r.png", width=64, height=64, engine="BLENDER_WORKBENCH", nonblank_fraction=0.3)
    report = RunReport(status="ok", backend="bpy-module", sandbox="bwrap", scene=s, render=render)
    return Attempt(index=0, origin="generate", script="import bpy\n", run=report, checked=True)


def critiqued(prompt: str, a: Attempt) -> Attempt:
    checks, reasons = objective(prompt, a)
    critique = Critique(score=0.5, reasons=reasons, objective_ok=all(checks.values()), checks=checks)
    return a.model_copy(update={"critique": critique})


def test_a_missing_technique_fails_the_objective_checks_with_its_message_and_gets_repair_rounds() -> None:
    """A bounce with no keyframe is not accepted, and is repaired even where the critic's findings get no round
    (max_critic_rounds 0, the local model's catalogue entry): it is a fact of the scene, not the critic model's opinion."""
    still = critiqued(BOUNCE, ran(scene(mesh("Ball"), mesh("Ground"))))
    assert still.critique is not None and not still.critique.objective_ok
    assert still.critique.checks["technique: keyframes location"] is False
    assert still.critique.reasons[0].startswith("no keyframe on Ball.location[2] (z)")
    assert lacks_technique(still.critique) and unbuilt(still)
    state = GenState(prompt=BOUNCE, max_critic_rounds=0, attempts=[still], current=0, reviews=1)
    assert after_critic(state) == "heal"
    turn = Turn(state, RunContext(settings=Settings(), thread_id="techniques"), still)
    assert turn.critic_rounds() == {}  # the repair is not one of the critic's rounds
    fresh = regenerate_after(state.model_copy(update={"repair": "regenerate"}), still)
    assert fresh is not None and "no keyframe on Ball.location[2] (z)" in fresh  # a fresh script is told what is missing

    moving = critiqued(BOUNCE, ran(scene(mesh("Ball", fcurves=[key("location", 2)]), mesh("Ground"))))
    assert moving.critique is not None and moving.critique.checks["technique: keyframes location"] is True
    assert not lacks_technique(moving.critique) and not unbuilt(moving)


def test_a_count_the_request_states_and_the_scene_lacks_gets_repair_rounds() -> None:
    """ "a chrome ball resting on a white floor plane" built as the ball alone: the missing plane is counted in the scene,
    so it is repaired even where the critic's findings get no round; with the plane it is not."""
    prompt = "a chrome ball resting on a white floor plane"
    alone = critiqued(prompt, ran(scene(mesh("Ball"))))
    assert alone.critique is not None and alone.critique.checks["scene: 1 plane"] is False
    assert lacks_asked(alone.critique) and unbuilt(alone)
    state = GenState(prompt=prompt, max_critic_rounds=0, attempts=[alone], current=0, reviews=1)
    assert after_critic(state) == "heal"
    both = critiqued(prompt, ran(scene(mesh("Ball"), mesh("Floor", vertices=4, faces=1))))
    assert both.critique is not None and both.critique.checks["scene: 1 plane"] is True
    assert lacks_asked(both.critique)  # its materials, chrome and white, are still missing: a material is counted too
    resting = scene(
        mesh("Ball", bbox=BoundingBox(min=(-1.0, -1.0, 0.0), max=(1.0, 1.0, 2.0))),
        mesh("Floor", vertices=4, faces=1, bbox=BoundingBox(min=(-3.0, -3.0, 0.0), max=(3.0, 3.0, 0.0))),
    )
    assert not lacks_asked(critiqued("a ball resting on a floor plane", ran(resting)).critique)
    sunk = critiqued("a ball resting on a floor plane", ran(scene(mesh("Ball"), mesh("Floor", vertices=4, faces=1))))
    assert sunk.critique is not None and sunk.critique.checks["placement: ball on plane"] is False  # the floor through its middle


def test_a_scene_that_built_nothing_is_told_so_not_every_technique_it_lacks() -> None:
    factory = scene(
        mesh("Cube", location=(0.0, 0.0, 0.0)), ObjectSummary(name="Camera", type="CAMERA"), ObjectSummary(name="Light", type="LIGHT")
    )
    a = critiqued(BOUNCE, ran(factory))
    assert a.critique is not None and a.critique.checks["built"] is False
    assert not any(name.startswith("technique:") for name in a.critique.checks)


def test_a_missing_technique_is_never_accepted_even_where_the_checks_alone_decide(offline_settings: Settings) -> None:
    """BPYWRIGHT_REVIEW=checks accepts on the objective checks without a model: a bounce with no keyframe is not
    accepted, the keyframed one is."""
    import dataclasses

    from bpywright.graph.loop.nodes.critic import critic_node

    ctx = RunContext(settings=dataclasses.replace(offline_settings, review="checks"), thread_id="techniques")
    for s, accepted in (
        (scene(mesh("Ball"), mesh("Ground")), False),
        (scene(mesh("Ball", fcurves=[key("location", 2)]), mesh("Ground")), True),
    ):
        state = GenState(prompt=BOUNCE, attempts=[ran(s)], current=0)
        judged = critic_node(state, ctx)["attempts"][0].critique
        assert judged.accepted is accepted and judged.objective_ok is accepted, judged.reasons


def test_a_lens_the_request_names_is_the_camera_s_focal_length() -> None:
    ask = "a cone with a camera using an 85 mm lens aimed at it"
    tele = ObjectSummary(name="Tele", type="CAMERA", location=(0.0, -8.0, 3.0), camera=CameraSummary(type="PERSP", lens=85.0))
    assert verdict(ask, scene(mesh("Cone"), tele, active_camera="Tele")) == ""
    assert verdict(ask, scene(mesh("Cone"), camera("Cam"), active_camera="Cam")) == (
        "camera Cam has a 50 mm lens, asked for 85 mm (85 mm lens)"
    )
    assert "lens" not in techniques("place a camera looking at the cube")[0].settings


def test_an_empty_the_request_parents_objects_to_and_one_with_nothing_parented() -> None:
    ask = "three cubes parented to an empty so they move together"
    (t,) = techniques(ask)
    assert (t.kind, t.object_type, t.settings) == ("object_type", "EMPTY", {"children": 1})
    pivot = ObjectSummary(name="Pivot", type="EMPTY")
    carried = scene(*(mesh(f"Cube{i}", parent="Pivot") for i in range(3)), pivot)
    assert verdict(ask, carried) == ""
    loose = scene(*(mesh(f"Cube{i}") for i in range(3)), pivot)
    assert verdict(ask, loose) == "no object is parented to Pivot (an empty): set each one's parent to it"
    assert verdict(ask, scene(*(mesh(f"Cube{i}") for i in range(3)))).startswith("0 EMPTY object(s), asked for 1")
    assert techniques("an empty bottle on a table") == []  # an empty bottle is a bottle
