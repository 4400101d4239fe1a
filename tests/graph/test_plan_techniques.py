"""A part plan that says techniques (materials, modifiers, repeats, keyframes, text, lathes, curves, lights, the camera):
the schema takes it, malformed ones are refused with a clear error, the builder's script runs in real Blender and the
scene has the technique, and a plan that names none still builds the script it always did."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import jsonschema
import pytest

from bpywright.graph.plans.checks import missing_techniques
from bpywright.graph.plans.layout import box_of
from bpywright.graph.plans.library import LIBRARY, TECHNIQUES
from bpywright.graph.plans.parts import PALETTE
from bpywright.graph.plans.plan import (
    PLAN_SCHEMA,
    PlanError,
    build_script,
    grounded,
    parse_plan,
    plan_findings,
    plan_json,
    plan_of_script,
    related_plans,
)
from bpywright.graph.plans.shapes import SHAPES
from bpywright.graph.reading.request import strategy_for
from bpywright.graph.review.copies import copied_exemplar, shown_sources

SNAPSHOT = Path(__file__).parent / "snapshots" / "plan_scripts.json"


def part(
    name: str, shape: str, size: list, on: str = "ground", side: str = "top", at: str = "center", color: str = "grey", **extra
) -> dict:
    return {"name": name, "shape": shape, "size": size, "on": on, "side": side, "at": at, "rotation": [0, 0, 0], "color": color, **extra}


def plan(obj: str, *parts: dict) -> str:
    return json.dumps({"object": obj, "parts": list(parts)})


# Each request of the kind the plan could not say before, its plan, and the assertions (run inside Blender after the
# built script) that its scene has the technique: facts the run report may not show yet.
CASES = {
    "a torus with a shiny gold metal material and a subdivision surface modifier": (
        plan(
            "torus",
            part(
                "ring", "torus", [1, 1, 0.25], color="yellow", material="gold", roughness=0.2, modifiers=[{"type": "subsurf", "levels": 2}]
            ),
        ),
        """
ring = bpy.data.objects["ring"]
bsdf = ring.active_material.node_tree.nodes["Principled BSDF"]
assert bsdf.inputs["Metallic"].default_value == 1.0 and bsdf.inputs["Roughness"].default_value == pytest_approx(0.2)
assert ring.modifiers[0].type == "SUBSURF" and ring.modifiers[0].levels == 2
""",
    ),
    "a ball that bounces up and down over 48 frames, keyframed": (
        plan(
            "ball",
            part(
                "ball", "sphere", [0.4, 0.4, 0.4], color="red", animate="location_z", frames=[1, 12, 24, 36, 48], values=[0, 1.5, 0, 1.5, 0]
            ),
        ),
        """
ball = bpy.data.objects["ball"]
curve = ball.animation_data.action.fcurves.find("location", index=2)
assert len(curve.keyframe_points) == 5 and curve.evaluate(12) == pytest_approx(curve.evaluate(1) + 1.5)
assert (bpy.context.scene.frame_start, bpy.context.scene.frame_end) == (1, 48)
""",
    ),
    "a 10 by 10 grid of cubes with random heights": (
        plan("grid", part("cube", "box", [0.8, 0.8, 1.0], repeat=100, pattern="grid", rows=10, spacing=1.0, vary="height", seed=7)),
        """
cubes = [o for o in bpy.data.objects if o.name.startswith("cube")]
assert len(cubes) == 100 and len({round(o.dimensions.z, 4) for o in cubes}) > 50
assert len({(round(o.location.x, 3), round(o.location.y, 3)) for o in cubes}) == 100
assert all(abs(o.location.z - o.dimensions.z / 2) < 1e-4 for o in cubes)  # each stands on the ground
""",
    ),
    "the word HELLO as extruded 3D text": (
        plan("word", part("word", "text", [2.5, 0.2, 0.6], color="blue", text="HELLO")),
        """
word = bpy.data.objects["word"]
assert word.type == "FONT" and word.data.body == "HELLO" and word.data.extrude == pytest_approx(0.1)
""",
    ),
    "a lathed ceramic vase": (
        plan("vase", part("vase", "lathe", [0.3, 0.3, 0.5], color="teal", material="ceramic", profile=[0.6, 1.0, 0.8, 0.45, 0.6])),
        """
vase = bpy.data.objects["vase"]
assert vase.modifiers[0].type == "SCREW"
assert vase.evaluated_get(bpy.context.evaluated_depsgraph_get()).dimensions.x == pytest_approx(0.3, 0.02)
""",
    ),
    "a spiral staircase with 20 steps": (
        plan(
            "staircase",
            part("pole", "cylinder", [0.12, 0.12, 3.6], color="dark_grey"),
            part(
                "step",
                "box",
                [0.9, 0.3, 0.05],
                "pole",
                "right",
                "bottom",
                "light_wood",
                repeat=20,
                pattern="spiral",
                spacing=0.5,
                rise=0.18,
            ),
        ),
        """
steps = sorted((o for o in bpy.data.objects if o.name.startswith("step")), key=lambda o: o.location.z)
pole = bpy.data.objects["pole"]
assert len(steps) == 20 and steps[-1].location.z - steps[0].location.z == pytest_approx(19 * 0.18)
assert all(abs((o.location.xy - pole.location.xy).length - 0.5) < 0.02 for o in steps)  # round the pole
""",
    ),
    "a glowing glass orb lit by a spot light and seen through a 35 mm camera": (
        plan(
            "orb",
            part("orb", "sphere", [0.4, 0.4, 0.4], color="pink", material="glowing", transmission=1.0),
            part(
                "lamp",
                "light",
                [0.1, 0.1, 0.1],
                "orb",
                "front",
                "left",
                "white",
                light="spot",
                energy=500,
                animate="energy",
                frames=[1, 30],
                values=[500, 50],
            ),
            part("camera", "camera", [0.1, 0.1, 0.1], "orb", "front", "center", "white", lens=35),
        ),
        """
orb = bpy.data.objects["orb"]
bsdf = orb.active_material.node_tree.nodes["Principled BSDF"]
assert bsdf.inputs["Emission Strength"].default_value == 5.0 and bsdf.inputs["Transmission Weight"].default_value == 1.0
lamp = bpy.data.objects["lamp"]
assert lamp.data.type == "SPOT" and lamp.data.animation_data.action.fcurves[0].data_path == "energy"
assert bpy.context.scene.camera.name == "camera" and bpy.context.scene.camera.data.lens == 35
""",
    ),
    "a spring as a helix curve and a bevelled box arrayed 5 times": (
        plan(
            "spring",
            part("coil", "curve", [0.3, 0.3, 1.0], color="silver", path="helix", turns=8, thickness=0.03, material="steel"),
            part(
                "box",
                "box",
                [0.2, 0.2, 0.2],
                "coil",
                "right",
                "bottom",
                modifiers=[{"type": "bevel", "width": 0.02}, {"type": "array", "count": 5}],
            ),
        ),
        """
coil = bpy.data.objects["coil"]
assert coil.type == "CURVE" and coil.data.bevel_depth == pytest_approx(0.015) and len(coil.data.splines[0].points) > 200
block = bpy.data.objects["box"]
assert [m.type for m in block.modifiers] == ["BEVEL", "ARRAY"] and block.modifiers[0].width == pytest_approx(0.02)
xs = [v.co.x for v in block.data.vertices]
assert block.scale[:] == (1.0, 1.0, 1.0) and max(xs) - min(xs) == pytest_approx(0.2)  # its size applied: widths are metres
""",
    ),
}

CASES["a chess piece seen from an orthographic top-down camera"] = (
    plan(
        "chess piece",
        part("base", "cylinder", [0.4, 0.4, 0.1], color="white"),
        part("body", "cone", [0.25, 0.25, 0.6], "base", "top", "center", "white"),
        part("camera", "camera", [0.1, 0.1, 0.1], "base", "top", "center", "white", projection="orthographic"),
    ),
    """
camera = bpy.context.scene.camera
assert camera.name == "camera" and camera.data.type == "ORTHO" and camera.data.ortho_scale > 0.5
assert camera.location.z > 1.0  # seen from the top
""",
)

CASES["three cubes parented to an empty so they move together"] = (
    plan(
        "cubes on an empty",
        part("cube", "box", [0.5, 0.5, 0.5], repeat=3, pattern="line", parent="pivot"),
        part("pivot", "empty", [1, 1, 1], animate="rotation_z", frames=[1, 48], values=[0, 90]),
    ),
    """
pivot = bpy.data.objects["pivot"]
cubes = [o for o in bpy.data.objects if o.name.startswith("cube")]
assert pivot.type == "EMPTY" and len(cubes) == 3 and all(c.parent == pivot for c in cubes)
xs = sorted(c.matrix_world.translation.x for c in cubes)
assert pivot.location.x == pytest_approx((xs[0] + xs[-1]) / 2)  # at the centre of what it carries, the cubes where they were
bpy.context.scene.frame_set(1)
before = [c.matrix_world.translation.copy() for c in cubes]
bpy.context.scene.frame_set(48)
after = [c.matrix_world.translation.copy() for c in cubes]
assert max((a - b).length for a, b in zip(after, before)) > 0.3  # they turn with the empty
""",
)

CHECKS_PRELUDE = """

def pytest_approx(value, tolerance=1e-4):
    class Near:
        def __eq__(self, other):
            return abs(other - value) <= tolerance
    return Near()
"""


@pytest.mark.parametrize("prompt", list(CASES))
def test_a_technique_plan_fits_the_schema_and_passes_its_own_checks(prompt: str) -> None:
    text, _ = CASES[prompt]
    jsonschema.validate(json.loads(text), PLAN_SCHEMA)
    built = grounded(parse_plan(text), prompt)
    assert plan_findings(built, prompt) == []
    assert strategy_for("plan", prompt) == "plan"  # routed to the plan, which can say it now
    again = parse_plan(plan_json(built))  # a revision prompt shows the techniques, and reads back the same
    assert [p.model_dump(exclude={"location", "on", "side", "at"}) for p in again.parts] == [
        p.model_dump(exclude={"location", "on", "side", "at"}) for p in built.parts
    ]


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ({"material": "unobtainium"}, 'material "unobtainium" is not one of gold'),
        ({"modifiers": [{"type": "melt"}]}, 'modifiers: type "melt" is not one of subsurf'),
        ({"modifiers": [{"type": "bevel", "radius": 2}]}, "unknown setting(s) radius"),
        ({"animate": "location_z", "frames": [1, 48], "values": [0]}, "needs at least 2 frames, each with its value"),
        ({"frames": [1, 48], "values": [0, 1]}, "keyframes need a channel"),
        ({"animate": "energy", "frames": [1, 48], "values": [0, 1]}, "only a light part can animate energy"),
        ({"repeat": 100000}, "repeat 100000 is out of range"),
        ({"metallic": 3}, "metallic 3 is out of range"),
    ],
)
def test_a_malformed_technique_is_refused_with_what_to_write(extra: dict, says: str) -> None:
    with pytest.raises(PlanError) as caught:
        parse_plan(plan("thing", part("body", "box", [1, 1, 1], **extra)))
    assert says.replace("modifiers: ", "") in str(caught.value), str(caught.value)
    # frames and values of different lengths pair as far as both go (the local model's bounce gave four values to three frames)
    ball = parse_plan(plan("ball", part("ball", "sphere", [1, 1, 1], animate="location_z", frames=[1, 24, 48], values=[0, 1.2, 0, 0.8])))
    assert ball.parts[0].frames == (1, 24, 48) and ball.parts[0].values == (0.0, 1.2, 0.0)
    with pytest.raises(PlanError, match=r"a text part needs its words"):
        parse_plan(plan("sign", part("sign", "text", [1, 0.1, 0.3])))
    with pytest.raises(PlanError, match=r"only a light or a camera"):
        parse_plan(plan("light", part("lamp", "light", [0.1, 0.1, 0.1], light="sun")))
    with pytest.raises(jsonschema.ValidationError):  # the grammar refuses an unknown key or enum before parse_plan sees it
        jsonschema.validate(json.loads(plan("thing", part("body", "box", [1, 1, 1], sparkle=True))), PLAN_SCHEMA)


def test_a_plan_without_techniques_builds_the_script_it_did_before_techniques() -> None:
    """Every library plan and every critic's shape: the same bytes as before the plan could say techniques (hashes
    recorded from that builder), and a plain plan's script still reads back as its plan."""
    before = json.loads(SNAPSHOT.read_text())
    built = {a.request: build_script(grounded(parse_plan(a.plan), a.request), "4.5") for a in (*LIBRARY, *SHAPES)}
    assert len(built) == len(before) == len(LIBRARY) + len(SHAPES)
    changed = [r for r, s in built.items() if hashlib.sha256(s.encode()).hexdigest()[:16] != before[r]]
    assert changed == []
    assert all(plan_of_script(s) is not None for s in built.values())
    assert "# Techniques:" not in "".join(built.values())


def test_technique_examples_travel_with_their_requests_and_a_repeat_of_one_is_a_copy() -> None:
    shown = related_plans("a torus with a shiny gold metal material and a subdivision surface modifier", 2)
    assert [r for r, _ in shown] == ["a polished copper ring with a smooth subdivision surface"]
    assert related_plans("a wooden dining chair", 2)[-1][0] != TECHNIQUES[0].request  # a plain object: no technique shown
    sources = shown_sources("4.5")
    for example in TECHNIQUES:
        script = build_script(grounded(parse_plan(example.plan), example.request), "4.5")
        found = copied_exemplar(script, sources)
        assert found is not None and found.prompt == example.request
    own = build_script(grounded(parse_plan(CASES["the word HELLO as extruded 3D text"][0]), "text"), "4.5")
    assert copied_exemplar(own, sources) is None


def test_a_copied_technique_example_is_shown_again_and_its_finding_says_to_keep_the_technique() -> None:
    """A plan drawn without the technique's example drops the technique (a bounce with no keyframes): after an attempt
    copied it, the example still travels with the request, and the copy's finding names what to keep."""
    bounce = "a ball that bounces up and down over 48 frames, keyframed"
    example = next(a for a in TECHNIQUES if "frames" in a.kinds)
    shown = related_plans(bounce, 2, left_out={example.request})
    assert (example.request, example.plan) in shown
    repeat = grounded(parse_plan(example.plan), bounce)
    found = plan_findings(repeat, bounce, 2)
    assert len(found) == 1 and "copies the example (bouncing ball)" in found[0]
    assert "keep what it shows (material, animate, frames, values)" in found[0] and "own parts, sizes and values" in found[0]
    own = json.loads(example.plan)
    own["parts"][0]["size"] = [0.5, 0.5, 0.5]
    own["parts"][0]["frames"], own["parts"][0]["values"] = [1, 12, 24, 36, 48], [0, 2, 0, 1, 0]
    assert not any("copies" in f for f in plan_findings(grounded(parse_plan(json.dumps(own)), bounce), bounce, 2))


BOX = part("thing", "box", [1, 1, 1])


@pytest.mark.parametrize(
    ("prompt", "says", "fixed"),
    [
        ("a torus with a shiny gold metal material", '"metallic": 1', {"material": "gold"}),
        ("a clear glass cube", '"transmission": 1', {"transmission": 1.0}),
        ("a cube that glows green", "no part glows", {"emission": 4.0}),
        ("the word HELLO as extruded 3D text", '"shape": "text" and "text": "HELLO"', {"shape": "text", "text": "hello"}),
        ("a bezier curve path winding across the scene", '"shape": "curve"', {"shape": "curve", "path": "wave"}),
        (
            "a cube that spins one full turn around Z over 100 frames",
            '"animate": "rotation_z"',
            {"animate": "rotation_z", "frames": [1, 100], "values": [0, 360]},
        ),
    ],
)
def test_a_plan_that_lacks_a_technique_the_request_names_is_told_which_field_says_it(prompt: str, says: str, fixed: dict) -> None:
    """Before any run: the scene check would find the technique missing, so the plan revision is told the field."""
    (finding,) = missing_techniques(parse_plan(plan("thing", BOX)), prompt)
    assert says in finding, finding
    assert missing_techniques(parse_plan(plan("thing", {**BOX, **fixed})), prompt) == []


def test_lights_and_the_camera_the_request_names_are_asked_of_the_plan() -> None:
    lit = "a cube on a plane lit by a sun light"
    (finding,) = missing_techniques(parse_plan(plan("cube", BOX)), lit)
    assert '"shape": "light" and "light": "sun"' in finding
    sun = part("sun", "light", [0.1, 0.1, 0.1], "thing", "top", "center", light="sun")
    assert missing_techniques(parse_plan(plan("cube", BOX, sun)), lit) == []
    point = part("sun", "light", [0.1, 0.1, 0.1], "thing", "top", "center", light="point")
    assert missing_techniques(parse_plan(plan("cube", BOX, point)), lit) != []  # a light of another type is not it
    top = "a chess piece seen from an orthographic top-down camera"
    camera = part("camera", "camera", [0.1, 0.1, 0.1], "thing", "top", "center")
    (finding,) = missing_techniques(parse_plan(plan("piece", BOX, camera)), top)
    assert '"projection": "orthographic"' in finding
    ortho = part("camera", "camera", [0.1, 0.1, 0.1], "thing", "top", "center", projection="orthographic")
    assert missing_techniques(parse_plan(plan("piece", BOX, ortho)), top) == []
    lens = "a cone with a camera using a 85 mm lens aimed at it"
    assert '"lens": 85' in missing_techniques(parse_plan(plan("cone", BOX, camera)), lens)[0]
    assert missing_techniques(parse_plan(plan("cone", BOX, {**camera, "lens": 85})), lens) == []


def test_one_motion_read_twice_is_asked_for_once() -> None:
    assert len(missing_techniques(parse_plan(plan("pendulum", BOX)), "a pendulum that swings back and forth, keyframed rotation")) == 1


def test_an_empty_the_request_names_is_asked_of_the_plan_with_the_parts_it_carries() -> None:
    ask = "three cubes parented to an empty so they move together"
    (finding,) = missing_techniques(parse_plan(plan("cubes", BOX)), ask)
    assert '"shape": "empty"' in finding
    pivot = part("pivot", "empty", [1, 1, 1])
    (finding,) = missing_techniques(parse_plan(plan("cubes", BOX, pivot)), ask)
    assert finding == 'no part is parented to pivot: give each part that moves with it "parent": "pivot"'
    assert missing_techniques(parse_plan(plan("cubes", {**BOX, "parent": "Pivot"}, pivot)), ask) == []
    # a parent that is no part of the plan is dropped: the local model wrote "parent": "plane" for text on a plane
    assert parse_plan(plan("cubes", {**BOX, "parent": "hinge"}, pivot)).parts[0].parent == ""


@pytest.mark.parametrize(
    ("prompt", "floor"),
    [
        ("a chrome ball resting on a white floor plane", ("floor", PALETTE["white"])),
        ("the word HELLO as extruded 3D text on a plane", ("floor", (0.6, 0.6, 0.6))),
        ("a dog sitting on the ground", ("ground", (0.6, 0.6, 0.6))),
        ("a red toy plane", None),  # an aircraft
        ("a paper plane on a desk", None),
    ],
)
def test_a_floor_the_request_stands_its_object_on_is_added_where_the_plan_forgot_it(prompt: str, floor: tuple | None) -> None:
    """The local model, told "the plan has 0 part(s) of shape plane: add it", left the floor out twice in a row: the
    floor the request names is added under the parts, three times as wide, in the colour it is given."""
    ball = parse_plan(plan("ball", part("ball", "sphere", [1, 1, 1])))
    built = grounded(ball, prompt)
    added = [(p.name, p.color) for p in built.parts if p.shape == "plane"]
    assert added == ([] if floor is None else [floor])
    if floor is not None:
        (plane,) = [p for p in built.parts if p.shape == "plane"]
        ball_box = box_of(built.parts[0])
        assert plane.size[0] == 3.0 and plane.location[2] == ball_box[0][2]  # under the ball, touching it
        assert plan_findings(built, prompt) == [] or all("plane" not in f for f in plan_findings(built, prompt))
    with_floor = parse_plan(plan("ball", part("ball", "sphere", [1, 1, 1]), part("ground", "box", [4, 4, 0.1])))
    assert grounded(with_floor, prompt).parts == grounded(with_floor, "a ball").parts  # a plan with its floor keeps it


def test_a_row_of_copies_becomes_the_array_modifier_the_request_names() -> None:
    """Told twice that the request asks for an array modifier, the local model kept a post repeated 12 times: the same
    12 posts in the same places become one post with an array modifier. Without the word, a repeat stays a repeat."""
    ask = "a fence of 12 wooden posts in a row made with an array modifier"
    posts = parse_plan(plan("fence", part("post", "box", [0.1, 0.1, 1.0], repeat=12)))
    (post,) = grounded(posts, ask).parts
    assert post.repeat == 1 and [(m.type, m.count, m.offset, m.axis) for m in post.modifiers] == [("array", 12, 1.2, "x")]
    assert post.location[0] == pytest.approx(-0.66)  # the first of 12 copies 0.12 m apart, centred where the row was
    assert plan_findings(grounded(posts, ask), ask) == []
    assert grounded(posts, "a fence of 12 wooden posts in a row").parts[0].repeat == 12
    # posts 0.1 m wide "0.1 m apart" would touch and make a wall: the spacing meant the gap between them
    close = parse_plan(plan("fence", part("post", "box", [0.1, 0.1, 1.0], repeat=12, spacing=0.1)))
    assert grounded(close, ask).parts[0].modifiers[0].offset == 2.0
