"""A fix after which the script runs long, on real Blender: kept, retried once with a longer budget, reported in words."""

from __future__ import annotations

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.rules.command import heal_project_of, heal_source, render_outcome
from bpywright.rules.healer import heal, longer_limit

from .helpers import src

pytestmark = pytest.mark.blender

# Fails at once on the 2.7x keyword; once it is fixed, the loop runs SECONDS.
SLOW = src("""
import time

import bpy

bpy.ops.mesh.primitive_uv_sphere_add(size=1.5, location=(0, 0, 1))
start = time.time()
while time.time() - start < SECONDS:
    time.sleep(0.1)
print("done", len(bpy.data.objects))
""")


def slow(seconds: float) -> str:
    return SLOW.replace("SECONDS", str(seconds))


def test_the_longer_budget_is_four_times_the_limit_up_to_600_s() -> None:
    assert longer_limit(60) == 240 and longer_limit(240) == 600 and longer_limit(600) is None and longer_limit(3) == 12


def test_a_fix_that_runs_past_both_budgets_is_kept_and_reported() -> None:
    outcome = heal_source(slow(60), target="4.5", max_rounds=3, options=RunOptions(render=False, timeout=3))
    assert outcome.status_before == "error" and "size" in (outcome.failure_before or "")
    assert len(outcome.rounds) == 1 and not outcome.rounds[0].reverted
    assert "primitive_uv_sphere_add(radius=1.5" in outcome.script  # the fix is kept, not reverted
    assert outcome.status_after == "timeout" and not outcome.healed and outcome.ran_past == 12
    assert outcome.rounds[0].note.startswith("ran past 3 s after the fix, and past 12 s on a second run; not an error")
    assert "more time" in outcome.stopped
    text = render_outcome(outcome)
    assert "not healed, but not an error: it ran past 3 s after the fix, and past 12 s on a second run" in text


def test_a_fix_that_finishes_within_the_longer_budget_heals() -> None:
    outcome = heal_source(slow(5), target="4.5", max_rounds=3, options=RunOptions(render=False, timeout=3))
    assert outcome.healed and outcome.status_after == "ok" and outcome.ran_past is None
    assert "ran past 3 s after the fix; passed on a second run with 12 s" in outcome.rounds[0].note
    assert "healed: the script passes" in render_outcome(outcome)


def test_a_project_heal_keeps_a_slow_fix_in_the_helper(tmp_path) -> None:
    (tmp_path / "shapes.py").write_text(slow(60).replace("import bpy\n", "import bpy\n\n\ndef build():\n    pass\n"))
    (tmp_path / "main.py").write_text("import shapes\n")
    tmp_path.chmod(0o755)  # the sandbox lists the project's folder to import the helper
    outcome = heal_project_of(tmp_path / "main.py", tmp_path, target="4.5", max_rounds=3, options=RunOptions(render=False, timeout=3))
    assert [f.path for f in outcome.files] == ["shapes.py"] and "radius=1.5" in outcome.texts["shapes.py"]
    assert outcome.status_after == "timeout" and outcome.ran_past == 12 and not outcome.rounds[-1].reverted


def test_without_a_longer_run_a_timeout_after_the_fix_still_keeps_it() -> None:
    quick = RunOptions(render=False, timeout=3)
    with WorkerPool(1, quick) as pool:
        outcome = heal(slow(60), run=lambda s: pool.run(source=s, options=quick), max_rounds=3)
    assert "radius=1.5" in outcome.script and outcome.status_after == "timeout"
    assert outcome.rounds[0].note.startswith("ran past the time limit after the fix; not an error")
