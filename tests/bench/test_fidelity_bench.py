"""bench/fidelity.py's calibration on a tiny dev set in real Blender: references that do not run are skipped, the
reference is faithful to itself, a unit cube and the wrong object are floors, and leave-one-out hides a prompt's pair."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from fidelity import LeaveOneOut, MeasureCache, choose_sample, faithful, floor, floors  # noqa: E402

from bpywright.fidelity.models import Fidelity  # noqa: E402
from bpywright.harness.pool import WorkerPool  # noqa: E402

CLEAR = "import bpy\nbpy.ops.object.select_all(action='SELECT')\nbpy.ops.object.delete()\n"
CHAIR = CLEAR + "".join(
    f"bpy.ops.mesh.primitive_cube_add(size=1, location={at})\nbpy.context.object.scale = {size}\n"
    for at, size in [
        ((-0.2, -0.2, 0.2), (0.05, 0.05, 0.4)),
        ((0.2, 0.2, 0.2), (0.05, 0.05, 0.4)),
        ((0, 0, 0.45), (0.5, 0.5, 0.05)),
        ((0, 0.23, 0.75), (0.5, 0.04, 0.6)),
    ]
)
TORUS = CLEAR + "bpy.ops.mesh.primitive_torus_add(major_radius=1, minor_radius=0.1)\n"
ROWS = [
    {"id": "a", "name": "Chair", "category": "furniture", "instruction": "a chair", "script": CHAIR},
    {"id": "b", "name": "Ring", "category": "furniture", "instruction": "a ring", "script": TORUS},
    {"id": "c", "name": "Broken", "category": "furniture", "instruction": "x", "script": "import bpy\nbpy.ops.mesh.no_such()\n"},
    {"id": "d", "name": "Chair", "category": "furniture", "instruction": "another chair", "script": CHAIR + "x = 1\n"},
]


@pytest.mark.blender
@pytest.mark.blender
def test_floors_on_a_tiny_dev_set(tmp_path: Path, pool: WorkerPool) -> None:
    cache = MeasureCache(tmp_path, lambda: pool)
    sample = choose_sample(ROWS, 3, seed=1, cache=cache)
    assert {r["id"] for r in sample} == {"a", "b", "d"}  # the broken reference is skipped
    entries = {e["id"]: e for e in floors(sample, ROWS, 1, cache)}
    chair = entries["a"]
    assert chair["self"]["fscore"] == 1.0 and chair["self_faithful"]
    assert chair["wrong_name"] == "Ring"  # never another chair: the same object is no floor
    assert chair["cube"]["fscore"] < 0.5 and chair["wrong"]["fscore"] < 0.5
    assert not faithful(Fidelity.model_validate(chair["cube"]), chair)  # a cube never beats its own floor
    assert floor(chair) == max(chair["cube"]["fscore"], chair["wrong"]["fscore"])
    assert (tmp_path / "references" / "a.json").is_file() and (tmp_path / "cube.json").is_file()
    again = MeasureCache(tmp_path, lambda: (_ for _ in ()).throw(AssertionError("measured twice")))
    assert choose_sample(ROWS, 3, seed=1, cache=again) == sample  # all from the cache


def test_leave_one_out_hides_the_prompts_own_pair() -> None:
    own = SimpleNamespace(prompt="a chair ", script=CHAIR)
    same_script = SimpleNamespace(prompt="a seat", script=CHAIR + "\n")
    other = [SimpleNamespace(prompt=f"thing {i}", script=f"x = {i}") for i in range(5)]
    store = SimpleNamespace(nearest=lambda prompt, version, k: ([own, same_script] + other)[:k])
    view = LeaveOneOut(store, "a chair", CHAIR)
    assert view.nearest("a chair", "4.5", 3) == other[:3]
    assert view.add(script="x") is None


TABLE = CLEAR + "".join(
    f"bpy.ops.mesh.primitive_cube_add(size=1, location={at})\nbpy.context.object.scale = {size}\n"
    for at, size in [((-0.8, -0.4, 0.35), (0.06, 0.06, 0.7)), ((0.8, 0.4, 0.35), (0.06, 0.06, 0.7)), ((0, 0, 0.72), (1.8, 0.9, 0.05))]
)


@pytest.mark.blender
@pytest.mark.blender
@pytest.mark.slow  # ~1 min a row here: the lint (ruff, mypy, pyright) of each answer is the bulk
def test_modes_against_the_fake_model_faithful_and_copies(tmp_path: Path) -> None:
    """One-shot on three prompts: the reference's own geometry (faithful), a cube for a ring (not), and the system prompt's
    example returned verbatim (a copy: a failure, whatever it built)."""
    import json
    import os
    import subprocess

    from bpywright.graph.model.fake_llm import FakeLLM, critic_json
    from bpywright.graph.review.copies import system_example

    rows = [r | {"id": f"{r['id']}0000000"} for r in ROWS[:2]] + [
        {"id": "e0000000", "name": "Table", "category": "furniture", "instruction": "a table", "script": TABLE}
    ]
    data = tmp_path / "dev.jsonl"
    data.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    answers = {
        "a chair": CHAIR + "x = 2\n",
        "a ring": CLEAR + "bpy.ops.mesh.primitive_cube_add()\n",
        "a table": system_example("4.5").script,
    }

    def reply(body: dict) -> str:
        asked = body["messages"][-1]["content"]
        prompt = next(p for p in answers if p in asked)
        return f"```python\n{answers[prompt]}\n```\n"

    root = Path(__file__).resolve().parents[2]
    with FakeLLM() as fake:
        fake.script("generate", *([reply] * 3)).script("critic", *([critic_json(0.9, "fine")] * 3))
        env = {**os.environ, "BPYWRIGHT_ARTIFACTS": str(tmp_path / "artifacts"), "BPYWRIGHT_LLM_BASE_URL": ""}
        cmd = [sys.executable, str(root / "bench" / "fidelity.py"), "--data", str(data), "--n", "3", "--modes", "one-shot"]
        cmd += ["--base-url", fake.base_url, "--model", "fake-coder", "--out", str(tmp_path / "out")]
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600, cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]
    table = (tmp_path / "out" / "fidelity-fake-coder.md").read_text(encoding="utf-8")
    line = next(x for x in table.splitlines() if x.startswith("| one-shot |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[:3] == ["one-shot", "3", "33.3 %"]  # the chair only
    assert cells[4] == "33.3 %" and cells[5] == "1"  # the copy is the run failure
    judged = {p.stem: json.loads(p.read_text()) for p in (tmp_path / "out" / "fake-coder" / "one-shot").glob("*0000000.json")}
    assert judged["e0000000"]["ran"]  # it ran: only the copy judgement makes it a failure
    # a critic that scores everything 0.9 accepts what passes the checks: the two acceptance columns agree
    assert cells[10] == f"{cells[7]} ({cells[8]})" and cells[7] != "0", cells
    rows_shown = [x for x in table.splitlines() if x.startswith("| ") and "`" in x]
    assert len(rows_shown) == 3 and any("| copy |" in x for x in rows_shown) and any("| yes |" in x for x in rows_shown)
    assert (tmp_path / "out" / "fidelity-fake-coder-one-shot.png").is_file()


def test_attempts_report_reads_time_to_the_first_review_and_the_checks_alone_verdict() -> None:
    from fidelity_attempts import llm_seconds_to_first_review, markdown

    calls = [
        {"name": "", "tokens": 478, "seconds": 57.0},  # the one-shot's call, held by the shared client's old cost.json
        {"name": "plan", "tokens": 359, "seconds": 67.0},
        {"name": "plan", "tokens": 430, "seconds": 64.0},
        {"name": "critique", "tokens": 80, "seconds": 66.0},
    ]
    assert llm_seconds_to_first_review({"calls": calls}, 359 + 430 + 80) == 131.0  # the stranger's call dropped
    assert llm_seconds_to_first_review({"calls": calls[1:3]}, None) == 131.0  # no review: the whole run
    assert llm_seconds_to_first_review({}, 10) is None
    one = {"index": 0, "fscore": 0.5, "faithful": True, "objective": True, "accepted": False, "accepted_now": True}
    bad = {"index": 1, "fscore": 0.1, "faithful": False, "objective": True, "accepted": True, "accepted_now": False}
    rows = [
        {
            "name": "A",
            "id": "a" * 8,
            "attempts": 2,
            "floor": 0.3,
            "returned": bad,
            "first_ok": one,
            "any_faithful": True,
            "seconds": 200,
            "first_review_llm_s": 90,
        },
        {
            "name": "B",
            "id": "b" * 8,
            "attempts": 1,
            "floor": 0.3,
            "returned": bad,
            "first_ok": bad,
            "any_faithful": False,
            "seconds": 100,
            "first_review_llm_s": 50,
        },
    ]
    text = markdown(rows, "m", "loop")
    assert "accepted: 2 (0 faithful); by today's critic code: 0 (0 faithful)" in text
    assert "returned answers faithful: 0 of 2" in text and "2 of 2 accepted, 1 faithful (precision 0.50)" in text
    assert "some attempt faithful: 1 of 2" in text and "median LLM seconds to the first review 70" in text
