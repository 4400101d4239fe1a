"""The plain-request benchmark: its requests load and validate, a request's checks pass on a correct scene and fail on
one that lacks a part or puts it in the wrong place, and the table is written from cached verdicts."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import plain as bench  # noqa: E402

from bpywright.graph.review.agreement import kind_archetypes  # noqa: E402
from bpywright.harness.report import BoundingBox, ObjectSummary, SceneSummary  # noqa: E402

Box = tuple[tuple[float, float, float], tuple[float, float, float]]


def scene(objects: dict[str, Box]) -> SceneSummary:
    made = [
        ObjectSummary(name=name, type="MESH", vertices=8, faces=6, visible=True, bbox=BoundingBox(min=lo, max=hi))
        for name, (lo, hi) in objects.items()
    ]
    lo3 = (min(b[0][0] for b in objects.values()), min(b[0][1] for b in objects.values()), min(b[0][2] for b in objects.values()))
    hi3 = (max(b[1][0] for b in objects.values()), max(b[1][1] for b in objects.values()), max(b[1][2] for b in objects.values()))
    return SceneSummary(object_count=len(made), objects=made, bbox=BoundingBox(min=lo3, max=hi3), camera=True, light=True)


def cylinder(x: float, y: float, z: float, radius: float, height: float) -> Box:
    return ((x - radius, y - radius, z), (x + radius, y + radius, z + height))


# Correct answers, as a careful reader would build them; then each with one part gone and one part misplaced.
CORRECT: dict[str, dict[str, Box]] = {
    "mug-on-saucer": {
        "Saucer": cylinder(0, 0, 0, 0.08, 0.015),
        "Mug_Body": cylinder(0, 0, 0.015, 0.045, 0.1),
        "Mug_Handle": ((0.045, -0.006, 0.04), (0.08, 0.006, 0.1)),
    },
    "lamp-bedside-table": {
        "Nightstand_Top": ((-0.25, -0.2, 0.5), (0.25, 0.2, 0.55)),
        "Nightstand_Body": ((-0.23, -0.18, 0.0), (0.23, 0.18, 0.5)),
        "Lamp_Base": cylinder(0, 0, 0.55, 0.06, 0.03),
        "Lamp_Stem": cylinder(0, 0, 0.58, 0.01, 0.25),
        "Lamp_Shade": cylinder(0, 0, 0.8, 0.1, 0.15),
    },
    "birthday-cake": {
        "Cake": cylinder(0, 0, 0, 0.15, 0.1),
        **{f"Candle_{i}": cylinder(x, 0, 0.1, 0.006, 0.07) for i, x in enumerate((-0.06, 0.0, 0.06))},
    },
    "fishbowl": {"Fishbowl": cylinder(0, 0, 0, 0.15, 0.25), "Goldfish": ((-0.04, -0.015, 0.1), (0.04, 0.015, 0.14))},
    "chair-four-legs": {
        "Seat": ((-0.22, -0.22, 0.43), (0.22, 0.22, 0.47)),
        **{
            f"Leg_{i}": ((x, y, 0.0), (x + 0.04, y + 0.04, 0.43))
            for i, (x, y) in enumerate([(-0.22, -0.22), (0.18, -0.22), (-0.22, 0.18), (0.18, 0.18)])
        },
        "Backrest": ((-0.22, 0.18, 0.47), (0.22, 0.22, 0.9)),
    },
    "snowman": {
        "Snowball_Bottom": cylinder(0, 0, 0, 0.4, 0.8),
        "Snowball_Head": cylinder(0, 0, 0.75, 0.25, 0.5),
        "Carrot_Nose": ((-0.02, -0.4, 0.98), (0.02, -0.24, 1.02)),
        "Eye_L": ((-0.1, -0.26, 1.05), (-0.06, -0.2, 1.09)),
        "Eye_R": ((0.06, -0.26, 1.05), (0.1, -0.2, 1.09)),
    },
    "hot-air-balloon": {
        "Balloon": cylinder(0, 0, 2.0, 1.0, 2.4),
        "Rope": ((-0.3, -0.3, 1.0), (-0.28, -0.28, 2.1)),
        "Basket": cylinder(0, 0, 0.4, 0.35, 0.6),
    },
    "table-four-chairs": {
        "Table": ((-0.6, -0.4, 0), (0.6, 0.4, 0.75)),
        "Chair_1": ((-0.2, -0.9, 0), (0.2, -0.45, 0.9)),
        "Chair_2": ((-0.2, 0.45, 0), (0.2, 0.9, 0.9)),
        "Chair_3": ((-1.1, -0.2, 0), (-0.65, 0.2, 0.9)),
        "Chair_4": ((0.65, -0.2, 0), (1.1, 0.2, 0.9)),
    },
    "hourglass": {
        "Frame_Base": cylinder(0, 0, 0, 0.1, 0.02),
        "Glass_Bottom": cylinder(0, 0, 0.02, 0.08, 0.13),
        "Glass_Top": cylinder(0, 0, 0.15, 0.08, 0.13),
        "Frame_Top": cylinder(0, 0, 0.28, 0.1, 0.02),
        "Sand": cylinder(0, 0, 0.03, 0.06, 0.05),
    },
    "igloo": {"Igloo": cylinder(0, 0, 0, 1.5, 1.5), "Tunnel": ((-0.4, -2.2, 0), (0.4, -1.3, 0.8))},
    "treasure-chest": {
        "Chest": ((-0.5, -0.3, 0), (0.5, 0.3, 0.5)),
        "Chest_Lid": ((-0.5, -0.3, 0.5), (0.5, 0.3, 0.7)),
        "Coin_1": cylinder(-0.1, 0, 0.4, 0.03, 0.01),
        "Coin_2": cylinder(0.1, 0.05, 0.4, 0.03, 0.01),
    },
    "scarecrow": {
        "Pole": ((-0.03, -0.03, 0), (0.03, 0.03, 1.6)),
        "Scarecrow_Body": ((-0.25, -0.1, 0.9), (0.25, 0.1, 1.4)),
        "Scarecrow_Head": cylinder(0, 0, 1.4, 0.12, 0.2),
        "Hat": cylinder(0, 0, 1.6, 0.2, 0.15),
    },
}
# request → (the objects to remove, the object to move and where to)
BROKEN: dict[str, tuple[tuple[str, ...], str, Box]] = {
    "mug-on-saucer": (("Saucer",), "Mug_Handle", ((-0.015, -0.006, 0.115), (0.015, 0.006, 0.16))),  # a handle standing on the rim
    "lamp-bedside-table": (("Nightstand_Top", "Nightstand_Body"), "Lamp_Base", ((0.6, 0.6, 0.0), (0.72, 0.72, 0.03))),
    "birthday-cake": (("Cake",), "Candle_1", cylinder(0.5, 0.5, 0.0, 0.006, 0.07)),
    "fishbowl": (("Goldfish",), "Goldfish", ((0.3, -0.015, 0.1), (0.38, 0.015, 0.14))),
    "chair-four-legs": (("Backrest",), "Backrest", ((-0.22, 0.18, 0.0), (0.22, 0.22, 0.4))),
    "snowman": (("Carrot_Nose",), "Eye_L", ((-0.1, -0.9, 1.05), (-0.06, -0.84, 1.09))),
    "hot-air-balloon": (("Basket",), "Basket", cylinder(0, 0, 4.5, 0.35, 0.6)),  # carried on top
    "table-four-chairs": (("Table",), "Chair_1", ((-0.2, 0.95, 0), (0.2, 1.4, 0.9))),  # two chairs on one side, none at the front
    "hourglass": (("Sand",), "Sand", cylinder(0.3, 0, 0, 0.06, 0.05)),
    "igloo": (("Tunnel",), "Tunnel", ((-0.4, -0.45, 1.5), (0.4, 0.45, 2.3))),  # on the roof
    "treasure-chest": (("Coin_1", "Coin_2"), "Coin_1", cylinder(0.8, 0, 0, 0.03, 0.01)),
    "scarecrow": (("Hat",), "Hat", cylinder(0.8, 0, 0, 0.2, 0.15)),
}


def requests() -> dict[str, dict]:
    return {r["id"]: r for r in bench.load_requests()}


def failed(request: dict, s: SceneSummary) -> list[str]:
    return [c["message"] for c in bench.scene_checks(request, s) if not c["ok"] and c["kind"] in ("part", "relation")]


def test_the_requests_load_with_a_held_out_set_and_kinds_no_table_lists() -> None:
    everything = bench.load_requests()
    dev, holdout = bench.load_requests(which="dev"), bench.load_requests(which="holdout")
    assert len(everything) == len(dev) + len(holdout) >= 40
    assert 0.6 <= len(dev) / len(everything) <= 0.72
    assert len({r["id"] for r in everything}) == len(everything)
    assert sum(not r["archetype"] for r in everything) >= 12
    assert all(r["relations"] and r["parts"] for r in everything)
    assert {r.relation for q in everything for r in q["relations"]} >= {
        "on",
        "under",
        "beside",
        "inside",
        "around",
        "touches",
        "above",
        "count",
    }


def test_each_request_records_the_archetype_its_kind_is_held_against() -> None:
    for r in bench.load_requests():
        found = kind_archetypes(r["prompt"], "4.5")
        assert r["archetype"] == (found[0].id if found else ""), r["id"]
        assert r["shape"] == any(k.id.startswith("shape:") for k in found[:1]), r["id"]


GOOD = '[[request]]\nid = "a"\nset = "dev"\nprompt = "a mug on a saucer"\nparts = ["mug", "saucer"]\narchetype = ""\nshape = false\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD + 'relations = ["mug sits_on saucer"]\n', "request a: relation 'mug sits_on saucer': unknown relation 'sits_on'"),
        (GOOD + 'relations = ["mug on plate"]\n', r"request a: relation 'mug on plate' names \['plate'\], not among its parts"),
        (GOOD + "relations = []\n", "request a has no relations"),
        (GOOD + 'relations = ["mug count two"]\n', "request a: .*whole number"),
        (GOOD.replace('"dev"', '"later"') + 'relations = ["mug on saucer"]\n', "request a: set 'later'"),
        (GOOD.replace('["mug", "saucer"]', '["Mug", "saucer"]') + 'relations = ["Mug on saucer"]\n', "request a: parts must be"),
        (GOOD.replace("shape = false", "shape = true") + 'relations = ["mug on saucer"]\n', "request a: shape = true disagrees"),
        (GOOD.replace('archetype = ""\n', "") + 'relations = ["mug on saucer"]\n', r"request a lacks \['archetype'\]"),
        (GOOD + 'relations = ["mug on saucer"]\nnotes = "x"\n', "request a: unknown field"),
        (GOOD + 'relations = ["mug on saucer"]\n' + GOOD + 'relations = ["mug on saucer"]\n', "request id a appears twice"),
    ],
)
def test_a_malformed_request_is_refused_with_its_id(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "requests.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(bench.RequestsError, match=message):
        bench.load_requests(path)


@pytest.mark.parametrize("rid", sorted(CORRECT))
def test_a_correct_scene_holds_every_part_and_relation(rid: str) -> None:
    request = requests()[rid]
    checks = bench.scene_checks(request, scene(CORRECT[rid]))
    assert [c["message"] for c in checks if not c["ok"]] == []
    assert {c["kind"] for c in checks} == {"part", "relation", "structure"}


@pytest.mark.parametrize("rid", sorted(BROKEN))
def test_a_scene_lacking_a_part_or_misplacing_one_fails_saying_which(rid: str) -> None:
    request = requests()[rid]
    gone, moved, to = BROKEN[rid]
    lacking = {k: v for k, v in CORRECT[rid].items() if k not in gone}
    messages = failed(request, scene(lacking))
    assert any(m.startswith("no object named like") for m in messages), messages
    misplaced = CORRECT[rid] | {moved: to}
    assert failed(request, scene(misplaced)), f"{rid}: {moved} moved to {to} and every relation still holds"


def test_the_mug_answers_are_told_exactly_what_is_wrong() -> None:
    request = requests()["mug-on-saucer"]
    lacking = {k: v for k, v in CORRECT["mug-on-saucer"].items() if k != "Saucer"}
    assert "no object named like 'saucer'" in failed(request, scene(lacking))
    on_rim = CORRECT["mug-on-saucer"] | {"Mug_Handle": BROKEN["mug-on-saucer"][2]}
    assert failed(request, scene(on_rim)) == ["handle: not at the mug's side (above it: its middle is outside the mug's height)"]
    floating = CORRECT["mug-on-saucer"] | {
        "Mug_Body": cylinder(0, 0, 0.32, 0.045, 0.1),
        "Mug_Handle": ((0.045, -0.006, 0.34), (0.08, 0.006, 0.4)),
    }
    assert failed(request, scene(floating)) == ["mug: not on saucer (floats 0.30 m above its top)"]


def test_a_copy_or_a_failed_run_fails_every_check() -> None:
    request = requests()["mug-on-saucer"]
    copy = {"id": "mug-on-saucer", "generated": False, "copy_of": "the plan library's mug", "script": "x"}
    checks = bench.check_row(copy, request, run=lambda s: pytest.fail("a copy is not run"), measure=None)
    assert checks and not any(c["ok"] for c in checks)
    assert all(c["message"] == "a copy: the plan library's mug" for c in checks)


def test_the_table_is_written_from_cached_verdicts(tmp_path: Path) -> None:
    reqs = {r["id"]: r for r in bench.load_requests() if r["id"] in ("mug-on-saucer", "fishbowl")}
    rows = {
        "one-shot": [
            {"id": "mug-on-saucer", "generated": True, "ran": True, "script": "A", "seconds": 10.0},
            {"id": "fishbowl", "generated": False, "ran": True, "copy_of": "a recipe", "script": "B", "seconds": 20.0},
        ],
        "loop": [{"id": "mug-on-saucer", "generated": True, "ran": True, "script": "C", "seconds": 30.0, "accepted": True}],
    }
    good = scene(CORRECT["mug-on-saucer"])
    lacking = scene({k: v for k, v in CORRECT["mug-on-saucer"].items() if k != "Saucer"})
    verdicts = {"A": bench.scene_checks(reqs["mug-on-saucer"], lacking), "C": bench.scene_checks(reqs["mug-on-saucer"], good)}
    verdicts["C"].append({"kind": "shape", "label": "plan:4", "ok": True, "message": "accepted: its shape agrees"})
    for mode, mode_rows in rows.items():
        for row in mode_rows:
            request = reqs[row["id"]]
            key = bench.verdict_key(row, request)
            results = verdicts.get(str(row["script"])) or bench.failing(request, f"a copy: {row.get('copy_of')}")
            (tmp_path / mode).mkdir(exist_ok=True)
            (tmp_path / mode / f"{row['id']}.plain.json").write_text(json.dumps({"key": key, "results": results}), encoding="utf-8")
    bench.judged(rows, reqs, tmp_path, lambda: pytest.fail("a cached verdict is not measured again"))
    assert [r["recognisable"] for r in rows["one-shot"]] == [False, False] and rows["loop"][0]["recognisable"]
    text = bench.markdown("m", rows, reqs)
    assert "| one-shot | 2 | **0 (0 %)** | 0 (0 %) | 0 (0 %) | 2 of 5 | 1 of 5 | 1 of 2 | 0 of 1 | 1 | 0 | 0 | 15 |" in text
    assert "| loop | 1 | **1 (100 %)** | 1 (100 %) | 1 (100 %) | 3 of 3 | 3 of 3 | 1 of 1 | 1 of 1 | 0 | 0 | 1 | 30 |" in text
    assert "one-shot `mug-on-saucer` (a coffee mug with a handle on a saucer): no object named like 'saucer'" in text
    assert "one-shot `fishbowl`" in text and "a copy: a recipe" in text
    assert "| no archetype (no table lists it) | 0 of 1 | 0 of 1 | 0 of 0 | 0 of 0 |" in text
    assert "Contact sheet cells: 1 `mug-on-saucer`, 2 `fishbowl`." in text


def test_a_cached_verdict_is_measured_again_when_its_request_changes(tmp_path: Path) -> None:
    request = requests()["mug-on-saucer"]
    row = {"id": "mug-on-saucer", "generated": True, "ran": True, "script": "A", "seconds": 1.0}
    (tmp_path / "loop").mkdir()
    results = bench.scene_checks(request, scene(CORRECT["mug-on-saucer"]))
    (tmp_path / "loop" / "mug-on-saucer.plain.json").write_text(json.dumps({"key": bench.verdict_key(row, request), "results": results}))
    bench.judged({"loop": [dict(row)]}, {"mug-on-saucer": request}, tmp_path, lambda: pytest.fail("unchanged: read from the cache"))
    changed = request | {"relations": [*request["relations"], bench.Relation.parse("mug taller_than saucer")]}

    def pool() -> None:
        raise LookupError("measured again")

    with pytest.raises(LookupError, match="measured again"):
        bench.judged({"loop": [dict(row)]}, {"mug-on-saucer": changed}, tmp_path, pool)
