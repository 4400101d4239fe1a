"""The part plan: parsing the model's JSON, the script built from it (run and rendered in real Blender), its checks."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from bpywright.graph.model.fake_llm import FakeLLM
from bpywright.graph.model.llm import LLMClient
from bpywright.graph.plans.checks import grounded
from bpywright.graph.plans.parts import Modifier
from bpywright.graph.plans.plan import PALETTE, PLAN_SCHEMA, Part, Plan, PlanError, build_script, parse_plan, plan_findings, plan_messages
from bpywright.graph.plans.techniques import TECHNIQUE_PROPERTIES
from bpywright.graph.reading.expectations import MIN_NONBLANK
from bpywright.graph.reading.request import requested_parts
from bpywright.harness.pool import WorkerPool

pytestmark = pytest.mark.blender


def plan_text(obj: str, *parts: tuple) -> str:
    """A plan as the model writes it: (name, shape, size, location, rotation, colour name) per part."""
    keys = ("name", "shape", "size", "location", "rotation", "color")
    return json.dumps({"object": obj, "parts": [dict(zip(keys, p, strict=True)) for p in parts]})


ZERO = [0, 0, 0]
CHAIR = plan_text(
    "dining chair",
    ("seat", "box", [0.45, 0.45, 0.05], [0, 0, 0.475], ZERO, "light_wood"),
    ("leg_front_left", "box", [0.04, 0.04, 0.45], [-0.2, -0.2, 0.225], ZERO, "brown"),
    ("leg_front_right", "box", [0.04, 0.04, 0.45], [0.2, -0.2, 0.225], ZERO, "brown"),
    ("leg_back_left", "box", [0.04, 0.04, 0.45], [-0.2, 0.2, 0.225], ZERO, "brown"),
    ("leg_back_right", "box", [0.04, 0.04, 0.45], [0.2, 0.2, 0.225], ZERO, "brown"),
    ("backrest", "box", [0.45, 0.04, 0.5], [0, 0.205, 0.725], ZERO, "light_wood"),
)
CHAIR_PROMPT = "a wooden dining chair with four legs and a backrest"
BURGER = plan_text(
    "burger",
    ("bun_bottom", "cylinder", [0.12, 0.12, 0.03], [0, 0, 0.015], ZERO, "tan"),
    ("patty", "cylinder", [0.11, 0.11, 0.02], [0, 0, 0.04], ZERO, "dark_brown"),
    ("cheese", "box", [0.1, 0.1, 0.005], [0, 0, 0.0525], [0, 0, 45], "yellow"),
    ("lettuce", "cylinder", [0.13, 0.13, 0.006], [0, 0, 0.058], ZERO, "light_green"),
    ("tomato", "cylinder", [0.1, 0.1, 0.008], [0, 0, 0.065], ZERO, "red"),
    ("pickle", "cylinder", [0.03, 0.03, 0.004], [0.02, 0, 0.071], ZERO, "green"),
    ("pickle", "cylinder", [0.03, 0.03, 0.004], [-0.02, 0, 0.071], ZERO, "green"),
    ("bun_top", "sphere", [0.12, 0.12, 0.06], [0, 0, 0.103], ZERO, "tan"),
)
BURGER_PROMPT = "a burger with a sesame seed bun, a beef patty, a slice of cheese, lettuce, tomato and pickles"


def test_parse_plan_takes_the_json_of_a_fenced_reply_and_repairs_what_is_harmless() -> None:
    reply = "Here is the plan:\n```json\n" + BURGER + "\n```\nEnjoy!"
    plan = parse_plan(reply)
    names = [p.name for p in plan.parts]
    assert plan.object == "burger" and names == ["bun_bottom", "patty", "cheese", "lettuce", "tomato", "pickle", "pickle_2", "bun_top"]
    assert plan.parts[0].color == PALETTE["tan"] and plan.parts[2].rotation == (0.0, 0.0, 45.0)
    odd = parse_plan(
        '{"object": "x", "parts": [{"name": "Top Plate!", "shape": "cube", "size": [-0.5, 0.4, 0.02], "location": [0, 0, 0.5],'
        ' "color": [255, 0, 0]}, {"shape": "plane", "size": [1, 1, 0], "location": [0, 0, 0], "color": "Dark Green"}]}'
    )
    top, floor = odd.parts
    assert (top.name, top.shape, top.size, top.rotation) == ("top_plate", "box", (0.5, 0.4, 0.02), (0.0, 0.0, 0.0))
    assert top.color == (1.0, 0.0, 0.0) and floor.color == PALETTE["dark_green"] and floor.name == "plane_2"


@pytest.mark.parametrize(
    ("reply", "says"),
    [
        ("I would build a chair from a seat and four legs.", "no JSON object"),
        ('{"object": "chair", "parts": [{"name": "seat", "shape": "box", "size": [0.4, 0.4', "not valid JSON"),
        ('{"object": "chair", "parts": []}', "no parts"),
        ('{"object": "chair"}', "no parts"),
        ("[1, 2]", "no JSON object"),
        (plan_text("c", ("seat", "box", [0.4, 0, 0], ZERO, ZERO, "red")), "size 0 along y, z"),  # a line, not a sheet
        (plan_text("c", ("leg", "cylinder", [0, 0.04, 0.5], ZERO, ZERO, "red")), "size 0 along x"),  # no radius
        ('{"object": "c", "parts": [{"name": "seat", "shape": "box", "size": [NaN, 1, 1]}]}', "not a number"),
        (plan_text("c", ("seat", "box", [4500, 450, 50], ZERO, ZERO, "red")), "in metres"),
        (plan_text("c", ("seat", "pyramid", [1, 1, 1], ZERO, ZERO, "red")), "use one of box, cylinder"),
        (plan_text("c", ("seat", "box", [1, 1], ZERO, ZERO, "red")), "three numbers"),
    ],
)
def test_parse_plan_refuses_what_cannot_be_built_and_says_what_to_change(reply: str, says: str) -> None:
    with pytest.raises(PlanError, match=says):
        parse_plan(reply)


def test_a_box_or_disc_planned_0_thick_is_a_sheet_not_a_refusal() -> None:
    """A chessboard whose plans each gave the squares a height of 0 was refused 4 times, and the request ended with no
    script. A box with a width and a depth is a tile; 1 % of its larger extent thick."""
    board = parse_plan(
        plan_text(
            "chessboard",
            ("square", "box", [0.05, 0.05, 0], ZERO, ZERO, "white"),
            ("panel", "box", [0.4, 0, 0.3], ZERO, ZERO, "black"),
            ("coaster", "cylinder", [0.1, 0.1, 0], ZERO, ZERO, "tan"),
        )
    )
    square, panel, coaster = board.parts
    assert square.size == pytest.approx((0.05, 0.05, 0.0005)) and panel.size == pytest.approx((0.4, 0.004, 0.3))
    assert coaster.size == pytest.approx((0.1, 0.1, 0.001))


def test_a_reply_cut_off_at_the_token_limit_keeps_its_whole_parts() -> None:
    cut = CHAIR[: CHAIR.index('"backrest"') + 30]
    plan = parse_plan(cut)
    assert plan.object == "dining chair" and [p.name for p in plan.parts][-1] == "leg_back_right" and len(plan.parts) == 5


def placed(name: str, shape: str, size: list, on: str, side: str, at: str, colour: str = "brown", rotation: list = ZERO) -> dict:
    """A part placed in words, as the schema asks the model for it."""
    return {"name": name, "shape": shape, "size": size, "on": on, "side": side, "at": at, "rotation": rotation, "color": colour}


def test_parts_placed_in_words_touch_where_they_say() -> None:
    """The local model's own coordinates stacked a chair's four legs one above the other; in words, the layout does the sums."""
    leg = [0.04, 0.04, 0.45]
    chair = parse_plan(
        json.dumps(
            {
                "object": "chair",
                "parts": [
                    placed("seat", "box", [0.45, 0.45, 0.05], "ground", "top", "center"),
                    *(
                        placed(f"leg_{c}", "box", leg, "seat", "bottom", c)
                        for c in ("front_left", "front_right", "back_left", "back_right")
                    ),
                    placed("backrest", "box", [0.45, 0.04, 0.5], "seat", "top", "Back"),
                    placed("cushion", "box", [0.4, 0.4, 0.03], "sofa", "top", "centre"),  # no such part: on the ground under it all
                ],
            }
        )
    )
    at = {p.name: p.location for p in chair.parts}
    assert at["seat"] == (0, 0, 0.025)
    assert at["leg_front_left"] == pytest.approx((-0.205, -0.205, -0.225)) and at["leg_back_right"] == pytest.approx((0.205, 0.205, -0.225))
    assert at["backrest"] == pytest.approx((0, 0.205, 0.3)) and at["cushion"] == pytest.approx((0, 0, -0.435))
    assert chair.parts[5].side == "top" and chair.parts[5].at == "back" and chair.parts[6].on == "sofa"
    assert plan_findings(grounded(chair, CHAIR_PROMPT), CHAIR_PROMPT) == []
    down = grounded(chair, CHAIR_PROMPT).parts  # the legs and the cushion stand on z = 0
    assert down[1].location[2] == pytest.approx(0.225) and down[6].location[2] == pytest.approx(0.015)
    again = parse_plan(plan_messages(CHAIR_PROMPT, "4.5", previous=chair)[1]["content"].split("\n", 2)[2])
    assert [(p.on, p.side, p.at, p.location) for p in again.parts] == [(p.on, p.side, p.at, p.location) for p in chair.parts]
    lying = parse_plan(
        json.dumps({"object": "x", "parts": [placed("log", "cylinder", [0.2, 0.2, 1], "ground", "top", "center", rotation=[0, 90, 0])]})
    )
    assert lying.parts[0].location == pytest.approx((0, 0, 0.1))  # turned, it is 0.2 tall


def test_small_pieces_sent_to_one_spot_sit_side_by_side_and_layers_stack() -> None:
    """The local model's desk organizer: three compartments all "on base, top, center" became a tower; each is small beside the
    base's top, so they make a row across it. A burger's layers, each as wide as the bun, still stack."""
    organizer = parse_plan(
        json.dumps(
            {
                "object": "desk organizer",
                "parts": [
                    placed("base", "box", [0.3, 0.3, 0.05], "ground", "top", "center"),
                    *(placed(f"compartment_{n}", "box", [0.1, 0.1, 0.1], "base", "top", "center") for n in ("pens", "papers", "phone")),
                    placed("pen", "cylinder", [0.01, 0.01, 0.14], "compartment_pens", "top", "center"),
                ],
            }
        )
    )
    at = {p.name: p.location for p in organizer.parts}
    assert [at[f"compartment_{n}"] for n in ("pens", "papers", "phone")] == [
        pytest.approx((-0.1, 0, 0.1)),
        pytest.approx((0, 0, 0.1)),
        pytest.approx((0.1, 0, 0.1)),
    ]
    assert at["pen"] == pytest.approx((-0.1, 0, 0.22))  # what goes on a piece of the row follows it
    assert plan_findings(organizer, "a desk organizer") == []
    burger = parse_plan(
        json.dumps(
            {
                "object": "burger",
                "parts": [
                    placed("bun", "cylinder", [0.1, 0.1, 0.03], "ground", "top", "center"),
                    *(placed(n, "cylinder", [0.1, 0.1, 0.01], "bun", "top", "center") for n in ("patty", "cheese", "lettuce")),
                ],
            }
        )
    )
    assert [p.location[2] for p in burger.parts] == pytest.approx([0.015, 0.035, 0.045, 0.055])
    assert {p.location[:2] for p in burger.parts} == {(0, 0)}


def test_a_part_named_for_its_corner_goes_there_and_parts_in_one_place_are_named() -> None:
    """The local model's chairs: every part 'on top, at center' (the system prompt's example's words), then legs on the seat's
    front and back sides."""
    legs = [placed(f"leg_{c}", "box", [0.05, 0.05, 0.1], "seat", "top", "center") for c in ("front_left", "front_right")]
    legs += [placed(f"leg_{c}", "box", [0.05, 0.05, 0.1], "seat", "back", "center") for c in ("back_left", "back_right")]  # next try
    seat = placed("seat", "box", [0.3, 0.2, 0.02], "ground", "top", "center")
    plan = parse_plan(json.dumps({"object": "dining chair", "parts": [seat, *legs]}))
    assert [(p.side, p.at) for p in plan.parts[1:]] == [("bottom", c) for c in ("front_left", "front_right", "back_left", "back_right")]
    assert {p.location for p in plan.parts[1:]} == {(x, y, -0.05) for x in (-0.125, 0.125) for y in (-0.075, 0.075)}
    layers = [placed(n, "cylinder", [0.1, 0.1, 0.01], "bun", "top", "center") for n in ("patty", "cheese", "lettuce")]
    burger = parse_plan(
        json.dumps({"object": "burger", "parts": [placed("bun", "cylinder", [0.12, 0.12, 0.03], "ground", "top", "center"), *layers]})
    )
    # the local model's "all on the bun" is a stack
    assert [p.location[2] for p in burger.parts] == pytest.approx([0.015, 0.035, 0.045, 0.055])
    twins = [Part(name=f"pickle_{i}", shape="cylinder", size=(0.03, 0.03, 0.004), location=(0, 0, 0.062)) for i in (1, 2)]
    same = plan_findings(Plan(object="x", parts=[*burger.parts, *twins]), "a burger")
    assert same == ["parts pickle_1, pickle_2 are the same shape in the same place: give each its own side or corner"]


def test_the_schema_bounds_what_a_grammar_can_bound() -> None:
    part = PLAN_SCHEMA["properties"]["parts"]
    assert part["maxItems"] == 24 and part["items"]["properties"]["shape"]["enum"][:6] == [
        "box",
        "cylinder",
        "cone",
        "sphere",
        "torus",
        "plane",
    ]
    # a part's own keys are required; its technique keys (plan_techniques) optional, so a plain object names none
    required = ["name", "shape", "size", "on", "side", "at", "rotation", "color"]
    assert part["items"]["required"] == required and "minimum" not in json.dumps(PLAN_SCHEMA)
    assert set(part["items"]["properties"]) - set(required) == set(TECHNIQUE_PROPERTIES)
    assert part["items"]["properties"]["color"]["enum"] == list(PALETTE) and "location" not in part["items"]["properties"]
    assert part["items"]["properties"]["at"]["enum"][:3] == ["center", "front", "back"]


def test_the_system_prompt_is_constant_and_its_example_is_a_good_plan_of_something_else() -> None:
    first = plan_messages(CHAIR_PROMPT, "4.5")
    second = plan_messages(BURGER_PROMPT, "5.2", feedback="part 'cheese' floats", previous=parse_plan(BURGER))
    assert first[0] == second[0] and first[0]["role"] == "system"  # the server's cached prefix serves every request
    assert first[1]["content"].strip() == f"Request: {CHAIR_PROMPT}"
    revision = second[1]["content"]
    assert "part 'cheese' floats" in revision and '"name": "pickle_2"' in revision and '"color": "tan"' in revision
    system = first[0]["content"]
    example = parse_plan(system[system.index('{"object"') :])
    assert example.object == "mailbox" and plan_findings(example, "a mailbox on a wooden post") == []
    assert not {"chair", "burger", "lamp", "table"} & set(system.lower().split())
    copied = example.model_copy(update={"object": "desk lamp"})
    assert plan_findings(copied, "a desk lamp") == ["the plan copies the example (mailbox): plan the requested object's own parts instead"]


def test_findings_are_silent_for_good_plans_and_a_plain_cube() -> None:
    assert plan_findings(parse_plan(CHAIR), CHAIR_PROMPT) == []
    assert plan_findings(parse_plan(BURGER), BURGER_PROMPT) == []
    cube = Plan(object="cube", parts=[Part(name="cube", shape="box", size=(1, 1, 1), location=(0, 0, 0.5))])
    assert plan_findings(cube, "a cube") == [] and requested_parts("a desk lamp") == {}


def test_findings_name_a_floating_part_a_missing_part_and_a_wrong_count() -> None:
    chair = parse_plan(CHAIR)
    lifted = [p.model_copy(update={"location": (0, 0.205, 1.2)}) if p.name == "backrest" else p for p in chair.parts]
    floating = plan_findings(chair.model_copy(update={"parts": lifted}), CHAIR_PROMPT)
    assert len(floating) == 1 and floating[0].startswith("part backrest floats") and "seat" in floating[0]
    three_legs = plan_findings(chair.model_copy(update={"parts": chair.parts[:4] + chair.parts[5:]}), CHAIR_PROMPT)
    assert three_legs == [
        "the request asks for 4 legs; the plan has 3 part(s) named so (leg_front_left, leg_front_right, leg_back_left): make it 4"
    ]
    burger = parse_plan(BURGER)
    no_pickles = plan_findings(burger.model_copy(update={"parts": [p for p in burger.parts if "pickle" not in p.name]}), BURGER_PROMPT)
    assert no_pickles == ["the request names pickle, and no part is named for it: add a part named pickle"]
    zero = Plan(object="x", parts=[Part(name="sheet", shape="box", size=(1, 1, 0), location=(0, 0, 0))])
    boxed = Plan(object="chair", parts=[Part(name="box", shape="box", size=(0.3, 0.3, 0.1)), *chair.parts[1:]])  # the local model's
    assert plan_findings(boxed, CHAIR_PROMPT)[0] == "box: name each part by what it is in the object (seat, shade, patty), not by its shape"
    assert plan_findings(zero, "a sheet") == ["part 'sheet' has size 0 along z: give it a real width, depth and height"]


def test_a_primitive_the_request_counts_is_asked_of_the_plan_before_anything_runs() -> None:
    """ "a chrome ball resting on a white floor plane" planned as the ball alone: the plane the scene check will count is
    missing, said before a Blender run; a floor plane, or a grid part repeated 100 times for 100 cubes, is enough."""
    ball = Part(name="ball", shape="sphere", size=(0.2, 0.2, 0.2), location=(0, 0, 0.1), material="chrome")
    prompt = "a chrome ball resting on a white floor plane"
    assert plan_findings(Plan(object="ball", parts=[ball]), prompt) == [
        "the request asks for 1 plane; the plan has 0 part(s) of shape plane: add it"
    ]
    floor = Part(name="floor", shape="plane", size=(3, 3, 0), location=(0, 0, 0))
    assert plan_findings(Plan(object="ball", parts=[ball, floor]), prompt) == []
    one = Part(name="tower", shape="box", size=(0.2, 0.2, 0.5), location=(0, 0, 0.25))
    grid = "a grid of 100 cubes with random heights"
    assert "the request asks for 100 cubes; the plan has 1 part(s) of shape box: add them" in plan_findings(
        Plan(object="city", parts=[one]), grid
    )
    hundred = one.model_copy(update={"repeat": 100, "pattern": "grid", "rows": 10, "spacing": 0.3})
    assert not any("cubes" in f for f in plan_findings(Plan(object="city", parts=[hundred]), grid))


def test_a_modifier_the_request_names_is_asked_of_the_plan_and_repeats_are_no_array_modifier() -> None:
    post = Part(name="post", shape="box", size=(0.1, 0.1, 1.0), location=(0, 0, 0.5))
    prompt = "a fence of 12 wooden posts in a row made with an array modifier"
    repeated = Plan(object="fence", parts=[post.model_copy(update={"repeat": 12, "pattern": "line", "spacing": 0.5})])
    assert plan_findings(repeated, prompt) == [
        'the request asks for an array modifier and no part has one: add "modifiers": [{"type": "array"}] to the part it shapes'
    ]
    arrayed = Plan(object="fence", parts=[post.model_copy(update={"modifiers": (Modifier(type="array", count=12),)})])
    assert plan_findings(arrayed, prompt) == []
    assert plan_findings(Plan(object="cube", parts=[post]), "a cube with a bevel modifier")[-1].startswith(
        "the request asks for a bevel modifier"
    )


def test_a_scene_of_separate_things_may_have_gaps_and_a_plan_off_the_ground_is_set_down() -> None:
    cubes = Plan(object="cubes", parts=[Part(name=f"cube_{i}", shape="box", size=(1, 1, 1), location=(2 * i, 0, 0.5)) for i in range(3)])
    assert plan_findings(cubes, "three red cubes in a row") == []
    assert plan_findings(cubes, "a staircase") != []  # one object: the cubes must touch
    assert plan_findings(cubes.model_copy(update={"parts": cubes.parts[:2]}), "three cubes in a row") == [
        "the request asks for 3 cubes; the plan has 2 part(s) named so (cube_0, cube_1): make it 3"
    ]
    high = Plan(object="ball", parts=[Part(name="ball", shape="sphere", size=(1, 1, 1), location=(0, 0, 3))])
    assert grounded(high, "a ball").parts[0].location == (0, 0, 0.5)
    assert grounded(high, "a balloon floating in the air").parts[0].location == (0, 0, 3)


def test_the_script_keeps_hostile_names_as_literals() -> None:
    evil = 'x"""\nimport os\nos.system("echo pwned")  # '
    short = "a', 'box')]\nimport os\n#"
    plan = Plan(object=evil, parts=[Part(name=short, shape="box", size=(1, 1, 1), location=(0, 0, 0.5))])
    script = build_script(plan, "4.5\nimport socket")
    tree = ast.parse(script)
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom) for alias in node.names}
    assert imported == {"math", "bpy", "Vector"}
    parts = next(n for n in tree.body if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "PARTS")
    assert ast.literal_eval(parts.value)[0][0] == short  # the name is data, exactly as given
    assert parse_plan(plan_text(evil, (short, "box", [1, 1, 1], ZERO, ZERO, "red"))).parts[0].name == "a_box_import_os"


def test_built_scripts_run_in_blender_with_named_coloured_parts_and_a_render(render_pool: WorkerPool, warm_linter, tmp_path: Path) -> None:
    for text, colours in ((CHAIR, 2), (BURGER, 6)):
        plan = parse_plan(text)
        png = tmp_path / f"{plan.object}.png"
        report = render_pool.run(source=build_script(plan, "4.5"), render_to=png, linter=warm_linter)
        assert report.ok, report.exception
        assert report.lint is not None and report.lint.blocking == []
        assert report.scene is not None and report.render is not None
        meshes = {o.name: o for o in report.scene.objects if o.type == "MESH"}
        assert sorted(meshes) == sorted(p.name for p in plan.parts)
        assert all(len(o.materials) == 1 for o in meshes.values())
        assert len({o.materials[0] for o in meshes.values()}) == colours
        assert report.scene.camera and report.scene.light and report.scene.bbox is not None
        low, high = report.scene.bbox.min, report.scene.bbox.max
        assert abs(low[2]) < 1e-4 and high[2] == pytest.approx(max(p.location[2] + p.size[2] / 2 for p in plan.parts), abs=1e-3)
        assert (report.render.nonblank_fraction or 0) >= 10 * MIN_NONBLANK and png.stat().st_size > 0


def test_a_small_object_is_framed_inside_the_cameras_clipping_range(render_pool: WorkerPool, tmp_path: Path) -> None:
    """A 16 mm die: the builder's camera sits about 3 cm from it, nearer than Blender's default 0.1 m clip start, which
    rendered it blank before the builder pulled the clip start in."""
    plan = parse_plan(
        plan_text(
            "die",
            ("cube", "box", [0.016, 0.016, 0.016], [0, 0, 0.008], ZERO, "white"),
            ("pip", "sphere", [0.003, 0.003, 0.003], [0, -0.0095, 0.008], ZERO, "black"),
        )
    )
    report = render_pool.run(source=build_script(plan, "4.5"), render_to=tmp_path / "die.png")
    assert report.ok and report.render is not None, report.exception
    assert (report.render.nonblank_fraction or 0) >= 10 * MIN_NONBLANK


def test_a_plan_comes_back_from_the_model_through_the_schema(fake: FakeLLM) -> None:
    fake.script("plan", BURGER)  # a response_format request whose schema holds parts: the FAKE's plan queue
    client = LLMClient(fake.base_url, "fake-coder", retries=0)
    text = client.structured(plan_messages(BURGER_PROMPT, "4.5"), "plan", PLAN_SCHEMA)
    assert [p.name for p in parse_plan(text).parts][-1] == "bun_top"
    sent = fake.chat_requests[-1]["response_format"]
    assert sent["type"] == "json_schema" and sent["json_schema"]["schema"] == PLAN_SCHEMA
    assert fake.structured == []  # the critic was not asked


SHAPES_PLAN = plan_text(
    "every shape",
    ("plinth", "box", [1, 1, 0.2], [0, 0, 0.1], ZERO, "grey"),
    ("column", "cylinder", [0.3, 0.3, 1], [0, 0, 0.7], ZERO, "white"),
    ("collar", "torus", [0.6, 0.6, 0.1], [0, 0, 0.5], ZERO, "gold"),
    ("knob", "sphere", [0.4, 0.4, 0.4], [0, 0, 1.4], ZERO, "red"),
    ("spike", "cone", [0.2, 0.2, 0.3], [0, 0, 1.7], ZERO, "navy"),
    ("sign", "plane", [0.4, 0.3, 0], [0, -0.51, 0.1], [90, 0, 0], "yellow"),
)


@pytest.mark.runtimes
def test_a_built_script_runs_on_blender_5_2_with_every_shape(runtime, tmp_path: Path) -> None:
    """The builder's API is the same from 4.2 to 5.2: the newest LTS builds every shape, coloured, and renders it."""
    from bpywright.harness.options import RunOptions

    plan = parse_plan(SHAPES_PLAN)
    assert plan_findings(plan, "a column on a plinth") == []
    with WorkerPool(1, runtime("5.2").run_options(RunOptions(resolution=64))) as pool:
        report = pool.run(source=build_script(plan, "5.2"), render_to=tmp_path / "shapes.png")
    assert report.ok and (report.blender_version or "").startswith("5.2"), report.exception
    assert report.scene is not None and report.render is not None
    meshes = {o.name: o for o in report.scene.objects if o.type == "MESH"}
    assert sorted(meshes) == sorted(p.name for p in plan.parts) and all(o.materials for o in meshes.values())
    assert meshes["sign"].faces == 1 and meshes["plinth"].faces == 6 and (meshes["collar"].faces or 0) > 100
    assert (report.render.nonblank_fraction or 0) >= 10 * MIN_NONBLANK


def test_a_reviewer_reads_a_plan_built_script_as_its_parts_table_unless_its_builder_was_edited() -> None:
    from bpywright.graph.plans.plan import plan_view

    script = build_script(parse_plan(CHAIR), "4.5")
    view = plan_view(script)
    assert view is not None and len(view) < len(script) / 2
    assert "PARTS = [" in view and "'backrest'" in view and "def add_part" not in view and "fixed builder" in view
    assert plan_view(script.replace("obj.name = name", "obj.name = name.upper()")) is None  # edited builder: all of it
    assert plan_view("import bpy\nbpy.ops.mesh.primitive_cube_add()\n") is None and plan_view(None) is None
