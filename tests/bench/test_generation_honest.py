"""bench/generation.py's honest counting: an answer that copies what its prompt showed is a failure in every table."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))  # bench/ is scripts, not a package

from generation import copy_of, honest, mode_settings, summarise  # noqa: E402

from bpywright.config import Settings  # noqa: E402
from bpywright.graph.review.copies import system_example  # noqa: E402

OWN = "import bpy\n" + "".join(
    f"bpy.ops.mesh.primitive_cube_add(location=({i}, 0, 0))\nbpy.context.object.name = 'Step{i}'\n" for i in range(4)
)
SHOWN = "import bpy\n" + "".join(
    f"bpy.ops.mesh.primitive_cylinder_add(depth={i + 1})\nbpy.context.object.name = 'Leg{i}'\n" for i in range(4)
)


def row(script: str | None, ran: bool = True, **extra) -> dict:
    base = {"id": "x", "ran": ran, "nonblank": ran, "objective": ran, "accepted": ran, "seconds": 1.0, "tokens": 1, "rounds": 0}
    return base | {"first_token_s": None, "script": script} | extra


def test_copies_of_what_the_prompt_showed_are_failures() -> None:
    shown = [{"id": "ex1", "source": "imported", "prompt": "a table", "script": SHOWN}]
    assert copy_of(row(system_example("4.5").script)) == "a copy of the system prompt's API example"
    assert copy_of(row(SHOWN + "x = 1\n", shown=shown)) == 'a copy of the exemplar written for "a table"'
    assert copy_of(row(SHOWN)) is None  # not shown to this row: its own script
    assert copy_of(row(OWN)) is None
    judged = honest({"one-shot": [row(OWN), row(system_example("4.5").script), row(None, ran=False)]})
    assert [r["generated"] for r in judged["one-shot"]] == [True, False, False]
    table = summarise(judged)["one-shot"]
    assert round(table["run_failure"], 1) == 66.7 and round(table["copies"], 1) == 33.3 and round(table["run_failure_uncounted"], 1) == 33.3
    assert round(table["accepted"], 1) == 33.3  # a copy is never counted as accepted


def test_the_plan_mode_runs_the_loop_with_the_plan_strategy() -> None:
    settings = Settings.from_env()
    assert mode_settings(settings, "plan").strategy == "plan"
    assert mode_settings(settings, "loop") is settings
