"""An exemplar's scene read back as a part plan (graph/plans/scene.py), and the plan strategy showing it."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bpywright.exemplars.models import Exemplar
from bpywright.graph.model.fake_llm import FakeLLM
from bpywright.graph.plans.layout import box_of
from bpywright.graph.plans.plan import copied_plan, grounded, parse_plan, plan_findings, plan_json, plan_messages, related_plans
from bpywright.graph.plans.scene import colour_of, object_name, plan_of_scene, shape_of, size_and_turn
from bpywright.harness.report import BoundingBox, ObjectSummary, RunReport, SceneSummary

pytestmark = pytest.mark.blender


def mesh(
    name: str, low: tuple[float, float, float], high: tuple[float, float, float], v: int = 8, f: int = 6, materials=()
) -> ObjectSummary:
    return ObjectSummary(
        name=name, type="MESH", vertices=v, faces=f, materials=list(materials), visible=True, bbox=BoundingBox(min=low, max=high)
    )


def stool() -> SceneSummary:
    """A stool 0.5 m tall: a 0.4 m square seat on four legs at its corners, with a camera that is not a part."""
    legs = [
        mesh(f"Leg.{i:03d}", (x, y, 0.0), (x + 0.04, y + 0.04, 0.46), materials=["DarkWood"])
        for i, (x, y) in enumerate([(-0.2, -0.2), (0.16, -0.2), (-0.2, 0.16), (0.16, 0.16)])
    ]
    seat = mesh("Seat", (-0.2, -0.2, 0.46), (0.2, 0.2, 0.5), materials=["Red Cushion"])
    camera = ObjectSummary(name="Camera", type="CAMERA")
    objects = [camera, *legs, seat]
    return SceneSummary(
        object_count=len(objects), objects=objects, bbox=BoundingBox(min=(-0.2, -0.2, 0), max=(0.2, 0.2, 0.5)), camera=True, light=False
    )


@pytest.mark.parametrize(
    ("name", "v", "f", "shape"),
    [
        ("Seat", 8, 6, "box"),
        ("Floor", 4, 1, "plane"),
        ("Leg", 64, 34, "cylinder"),  # cylinder_add(vertices=32)
        ("Shade", 33, 33, "cone"),  # cone_add(vertices=32)
        ("Head", 482, 512, "sphere"),  # uv_sphere_add(segments=32, ring_count=16)
        ("Eye", 42, 80, "sphere"),  # ico_sphere_add(subdivisions=2)
        ("Ring", 576, 576, "torus"),  # torus_add(48, 12)
        ("Cylinder.002", 300, 200, "cylinder"),  # Blender's own name says it, whatever a modifier did to the counts
        ("Blob", 1000, 997, "box"),  # nothing says: a box of its bounds
    ],
)
def test_shape_from_name_or_primitive_counts(name: str, v: int, f: int, shape: str) -> None:
    assert shape_of(mesh(name, (0, 0, 0), (1, 1, 1), v, f)) == shape


def test_a_cylinder_whose_round_extents_are_y_and_z_lies_along_x() -> None:
    assert size_and_turn("cylinder", (2.0, 0.5, 0.5)) == ((0.5, 0.5, 2.0), (0.0, 90.0, 0.0))
    assert size_and_turn("cylinder", (0.5, 2.0, 0.5)) == ((0.5, 0.5, 2.0), (90.0, 0.0, 0.0))
    assert size_and_turn("cylinder", (0.5, 0.5, 2.0)) == ((0.5, 0.5, 2.0), (0.0, 0.0, 0.0))
    assert size_and_turn("torus", (0.1, 1.0, 1.0)) == ((1.0, 1.0, 0.1), (0.0, 90.0, 0.0))
    assert size_and_turn("box", (2.0, 0.5, 0.5)) == ((2.0, 0.5, 0.5), (0.0, 0.0, 0.0))


def test_colours_come_from_material_names() -> None:
    assert colour_of(mesh("a", (0, 0, 0), (1, 1, 1), materials=["DarkGrey.001"])) == "dark_grey"
    assert colour_of(mesh("a", (0, 0, 0), (1, 1, 1), materials=["Oak Veneer"])) == "light_wood"
    assert colour_of(mesh("a", (0, 0, 0), (1, 1, 1), materials=["Material.003"])) == "grey"


def test_the_stool_reads_back_as_a_plan_whose_layout_rebuilds_it() -> None:
    """The seat (largest) stands on the ground, each leg goes under its corner; the plan builder's layout puts the
    parts back where the scene had them."""
    plan = plan_of_scene(stool(), "Create a wooden stool with four legs")
    assert plan is not None and plan.object == "stool"
    seat, *legs = plan.parts
    assert (seat.name, seat.on, seat.color) == ("seat", "ground", pytest.approx((0.8, 0.08, 0.06)))
    assert [leg.name for leg in legs] == ["leg", "leg_2", "leg_3", "leg_4"]
    assert {(leg.on, leg.side) for leg in legs} == {("seat", "bottom")}
    assert sorted(leg.at for leg in legs) == ["back_left", "back_right", "front_left", "front_right"]
    rebuilt = grounded(parse_plan(plan_json(plan)), "a stool")  # as the model would be shown it, laid out again
    boxes = {p.name: box_of(p) for p in rebuilt.parts}
    source = {o.name: o.bbox for o in stool().objects if o.bbox is not None}
    for name, obj in (("seat", "Seat"), ("leg", "Leg.000"), ("leg_4", "Leg.003")):
        low, high = boxes[name]
        assert low == pytest.approx(source[obj].min, abs=1e-6) and high == pytest.approx(source[obj].max, abs=1e-6)


def test_a_scene_without_visible_meshes_has_no_plan() -> None:
    hidden = mesh("Cube", (0, 0, 0), (1, 1, 1)).model_copy(update={"visible": False})
    empty = SceneSummary(object_count=1, objects=[hidden], bbox=None, camera=False, light=False)
    assert plan_of_scene(empty, "a cube") is None and plan_of_scene(None, "a cube") is None


def test_object_name_leaves_out_the_asking() -> None:
    assert object_name("Imagine a desktop computer with a large monitor") == "desktop computer"
    assert object_name("Let's design a bookshelf. It has five shelves") == "bookshelf"


STOOL_PLAN = plan_json(plan_of_scene(stool(), "a wooden stool with four legs"))  # type: ignore[arg-type]


def test_a_related_exemplar_plan_is_shown_first_and_an_unrelated_one_never() -> None:
    stored = [("a bar stool with a round seat", STOOL_PLAN), ("a red fire truck", STOOL_PLAN)]
    shown = related_plans("a tall stool for a kitchen counter", 2, stored)
    assert shown[0] == ("a bar stool with a round seat", STOOL_PLAN)
    assert len(shown) == 2 and shown[1][0] != "a red fire truck"  # the library's nearest archetype fills the rest
    assert related_plans("a tall stool", 0, stored) == []
    user = plan_messages("a tall stool", "4.5", examples=2, stored=stored)[1]["content"]
    assert "Request: a bar stool with a round seat" in user and "fire truck" not in user


def test_repeating_a_shown_exemplar_plan_is_a_copy() -> None:
    stored = [("a bar stool with a round seat", STOOL_PLAN)]
    repeat = parse_plan(STOOL_PLAN)
    assert copied_plan(repeat, "a tall stool", 2, stored) == "stool"
    assert plan_findings(repeat, "a tall stool", 2, stored)[0].startswith("the plan copies the example (stool)")
    assert copied_plan(repeat, "a tall stool", 2) is None  # not shown: not a copy


def test_the_plan_strategy_shows_the_stores_scene_as_a_plan(settings, fake: FakeLLM, render_pool, tmp_path) -> None:
    """A verified exemplar in the store is shown to the plan request as its scene's plan (run in Blender here), and a
    plan that repeats it is asked again, told it copies, before anything runs."""
    import dataclasses

    from bpywright.graph.loop.run import generate
    from tests.graph.test_budget import critic_json

    legs = "".join(
        f"bpy.ops.mesh.primitive_cube_add(size=1, location=({x}, {y}, 0.23)); leg = bpy.context.object; leg.name = 'Leg'; leg.scale = (0.04, 0.04, 0.46)\n"
        for x, y in ((-0.18, -0.18), (0.18, -0.18), (-0.18, 0.18), (0.18, 0.18))
    )
    script = (
        "import bpy\nbpy.ops.object.select_all(action='SELECT')\nbpy.ops.object.delete()\n"
        "bpy.ops.mesh.primitive_cylinder_add(radius=0.2, depth=0.04, location=(0, 0, 0.48)); bpy.context.object.name = 'Seat'\n" + legs
    )
    path = tmp_path / "stool.py"
    path.write_text(script, encoding="utf-8")
    report: RunReport = render_pool.run(path)
    assert report.ok and report.scene is not None
    exemplar = Exemplar(
        id="stool",
        prompt="a bar stool with a round seat",
        script=script,
        script_sha256="0" * 64,
        blender_version="4.5",
        status="ok",
        report=report,
        source="user",
        created_at=datetime.now(UTC),
        trusted=True,
    )

    class OneExemplar:
        def nearest(self, prompt: str, version: str, k: int = 3) -> list[Exemplar]:
            return [exemplar][:k]

        def add(self, **kwargs) -> object:
            raise AssertionError("nothing is accepted in this test")

    shown = plan_json(plan_of_scene(report.scene, exemplar.prompt))  # type: ignore[arg-type]
    assert '"shape": "cylinder"' in shown and shown.count('"on": "seat", "side": "bottom"') == 4
    own = {
        "object": "stool",
        "parts": [
            {
                "name": "seat",
                "shape": "cylinder",
                "size": [0.35, 0.35, 0.03],
                "on": "ground",
                "side": "top",
                "at": "center",
                "rotation": [0, 0, 0],
                "color": "red",
            },
            *(
                {
                    "name": f"leg_{c}",
                    "shape": "cylinder",
                    "size": [0.03, 0.03, 0.7],
                    "on": "seat",
                    "side": "bottom",
                    "at": c,
                    "rotation": [0, 0, 0],
                    "color": "silver",
                }
                for c in ("front_left", "front_right", "back_left", "back_right")
            ),
        ],
    }
    fake.script("plan", shown, json.dumps(own)).script("critic", critic_json(0.9))
    settings = dataclasses.replace(settings, strategy="plan", max_heal_rounds=0, prompt_exemplars=1)
    result = generate("a tall kitchen stool with four legs", settings=settings, pool=render_pool, store=OneExemplar())
    asked = [r["messages"][-1]["content"] for r in fake.chat_requests if "plan" in json.dumps(r.get("response_format") or {})]
    assert len(asked) == 2
    assert "Request: a bar stool with a round seat" in asked[0] and shown in asked[0]
    assert "copies the example" in asked[1]
    assert result.script is not None and "'leg_front_left', 'cylinder', (0.03, 0.03, 0.7)" in result.script

    # A plan that repeats the exemplar's after being told: a copy, never the answer while a round is left (even with no
    # round for the critic's findings: a copy is not a script that built what was asked); the fresh plan is not shown
    # the exemplar it copied.
    before = len(fake.chat_requests)
    fake.script("plan", shown, shown, json.dumps(own))
    copying = dataclasses.replace(settings, max_heal_rounds=1, max_critic_rounds=0, review="none")  # the local model's entry
    result = generate("a tall kitchen stool with four legs", settings=copying, pool=render_pool, store=OneExemplar())
    asked = [r["messages"][-1]["content"] for r in fake.chat_requests[before:] if "plan" in json.dumps(r.get("response_format") or {})]
    assert len(asked) == 3 and shown in asked[0] and "copies the example" in asked[1]
    assert "a bar stool with a round seat" in asked[2] and shown not in asked[2]  # told what it copied, not shown it
    assert result.script is not None and "'leg_front_left', 'cylinder', (0.03, 0.03, 0.7)" in result.script, result.message
    assert "copy" not in result.message


def test_a_library_plan_an_attempt_copied_is_not_shown_to_the_fresh_plan(settings, fake: FakeLLM, render_pool) -> None:
    """Asked to "Make a toy car.", the local model drew the plan library's toy car, was caught, and drew it again three
    times, shown it with each fresh plan (634 s, and a copy returned). Like an exemplar it copied, a library plan an
    attempt copied is left out of the fresh plan's examples: told what it copied, not shown it."""
    import dataclasses

    from bpywright.graph.loop.run import generate
    from bpywright.graph.plans.library import LIBRARY

    toy = next(a for a in LIBRARY if a.request == "a toy car with four wheels")
    corners = ("front_left", "front_right", "back_left", "back_right")

    def part(name: str, shape: str, size: list[float], on: str, side: str, at: str, color: str, turn: list[int]) -> dict:
        return {"name": name, "shape": shape, "size": size, "on": on, "side": side, "at": at, "rotation": turn, "color": color}

    wheels = [part(f"wheel_{c}", "cylinder", [0.07, 0.07, 0.04], "body", "bottom", c, "black", [90, 0, 0]) for c in corners]
    body = part("body", "box", [0.5, 0.25, 0.12], "ground", "top", "center", "red", [0, 0, 0])
    own = {
        "object": "toy car",
        "parts": [body, part("cabin", "box", [0.25, 0.22, 0.1], "body", "top", "center", "blue", [0, 0, 0]), *wheels],
    }
    fake.script("plan", toy.plan, toy.plan, json.dumps(own))
    copying = dataclasses.replace(settings, strategy="plan", max_heal_rounds=1, max_critic_rounds=0, review="none")
    result = generate("Make a toy car.", settings=copying, pool=render_pool)
    asked = [r["messages"][-1]["content"] for r in fake.chat_requests if "plan" in json.dumps(r.get("response_format") or {})]
    assert len(asked) == 3 and "Request: a toy car with four wheels" in asked[0] and "copies the example" in asked[1]
    assert "a toy car with four wheels" in asked[2] and "Request: a toy car with four wheels" not in asked[2]  # told, not shown
    assert toy.plan not in asked[2] and "Request: a car: a body, a cabin and four wheels" in asked[2]  # the shape still is
    assert result.script is not None and "'cabin', 'box', (0.25, 0.22, 0.1)" in result.script, result.message
    assert "copy" not in result.message


CHAIR_REQUEST = "a wooden dining chair with four legs and a backrest"


def test_the_critics_shape_of_the_kind_is_shown_first_and_repeating_it_is_a_copy() -> None:
    """Settings.plan_shapes: the critic's shape of the request's kind leads the plan examples; a plan that repeats it is
    asked again, and a script that is it again counts as a copy of what was shown (never of what was not)."""
    from bpywright.graph.loop.nodes.retrieve import kind_shape
    from bpywright.graph.review.copies import SHAPE_SOURCE, copied_exemplar, describe, shown_sources

    shape = kind_shape(CHAIR_REQUEST, "4.5")
    assert shape is not None and shape.source == SHAPE_SOURCE and shape.id.startswith("shape:")
    assert shape.prompt == "a dining chair with four legs and a backrest" and '"name": "backrest"' in shape.plan
    assert kind_shape("a brain coral on the sea floor", "4.5") is None  # no shape of its kind: nothing extra is shown
    pair = (shape.prompt, shape.plan)
    shown = related_plans(CHAIR_REQUEST, 2, [], pair)
    assert shown[0] == pair and len(shown) == 2 and shown[1][0] != pair[0]  # then the library's nearest
    assert related_plans(CHAIR_REQUEST, 1, [("a bar stool with a round seat", STOOL_PLAN)], pair) == [pair]
    user = plan_messages(CHAIR_REQUEST, "4.5", examples=2, shape=pair)[1]["content"]
    assert user.index("Request: a dining chair with four legs and a backrest") < user.index(f"Request: {CHAIR_REQUEST}")
    repeat = parse_plan(shape.plan)
    assert plan_findings(repeat, CHAIR_REQUEST, 2, [], pair)[0].startswith("the plan copies the example (chair)")
    assert copied_plan(repeat, CHAIR_REQUEST, 2) is None  # not shown: not a copy
    found = copied_exemplar(shape.script, shown_sources("4.5", [shape]))
    assert (
        found is not None and describe(found) == 'a copy of the critic\'s shape written for "a dining chair with four legs and a backrest"'
    )
    assert copied_exemplar(shape.script, shown_sources("4.5")) is None


def test_bpywright_plan_shapes_turns_the_shown_shape_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from bpywright.config import Settings

    monkeypatch.delenv("BPYWRIGHT_PLAN_SHAPES", raising=False)
    assert Settings.from_env().plan_shapes
    for off in ("0", "false", "off"):
        monkeypatch.setenv("BPYWRIGHT_PLAN_SHAPES", off)
        assert not Settings.from_env().plan_shapes


def test_the_loop_shows_the_critics_shape_only_where_asked(settings, fake: FakeLLM, render_pool) -> None:
    """With plan_shapes (the default; BPYWRIGHT_PLAN_SHAPES=0 turns it off) the plan request carries the chair's shape
    first; without, it does not."""
    from bpywright.config import Settings

    assert Settings().plan_shapes
    import dataclasses

    from bpywright.graph.loop.nodes.retrieve import kind_shape
    from bpywright.graph.loop.run import generate

    shape = kind_shape(CHAIR_REQUEST, "4.5")
    assert shape is not None
    own = json.loads(shape.plan)
    for p in own["parts"]:
        p["color"] = "red"
        p["size"] = [round(v * 1.3, 3) for v in p["size"]]
    base = dataclasses.replace(settings, strategy="plan", max_heal_rounds=0, review="none", prompt_exemplars=0)
    asked: dict[bool, str] = {}
    for on in (True, False):
        before = len(fake.chat_requests)
        fake.script("plan", json.dumps(own))
        result = generate(CHAIR_REQUEST, settings=dataclasses.replace(base, plan_shapes=on), pool=render_pool)
        assert result.script is not None and "'backrest', 'box'" in result.script, result.message
        plans = [r["messages"][-1]["content"] for r in fake.chat_requests[before:] if "plan" in json.dumps(r.get("response_format") or {})]
        assert len(plans) == 1
        asked[on] = plans[0]
        assert ("copy" in result.message) is False
    assert f"Request: {shape.prompt}" in asked[True] and shape.plan in asked[True]
    assert f"Request: {shape.prompt}" not in asked[False]
