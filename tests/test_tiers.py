"""The test tiers: what a test starts is recorded (bpywright.starts), and a test that starts Blender, a model, Ray or another
Blender without its tier's mark fails, so `make test-fast` (which deselects the tiers) never starts one."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bpywright.starts import RECORD_ENV, record

from .conftest import tiers_started

ROOT = Path(__file__).resolve().parent.parent


def test_a_start_is_recorded_in_this_process_and_in_its_children(tmp_path: Path, monkeypatch) -> None:
    log = tmp_path / "starts.log"
    monkeypatch.setenv(RECORD_ENV, str(log))
    record("model", "m.gguf")
    child = "from bpywright.starts import record; record('blender', '/opt/blender-3.6/blender')"
    subprocess.run([sys.executable, "-c", child], check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = log.read_text(encoding="utf-8").splitlines()
    assert [line.split("\t")[0] for line in lines] == ["model", "blender"]
    assert tiers_started(lines, bpy_imported=False) == {
        "model": "model (m.gguf)",
        "blender": "Blender (/opt/blender-3.6/blender)",
        "runtimes": "another Blender (/opt/blender-3.6/blender)",
    }


def test_the_bundled_blender_needs_only_the_blender_mark_and_nothing_recorded_needs_none(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(RECORD_ENV)
    record("blender", sys.executable)  # unset: nothing written, nothing raised
    assert tiers_started([f"blender\t1\t{sys.executable}", "blender\t2\tRayPool", "ray\t2\tRayPool"], False).keys() == {"blender", "ray"}
    assert tiers_started([], bpy_imported=True) == {"blender": "bpy imported into the test process"}
    assert tiers_started([], bpy_imported=False) == {}


@pytest.mark.blender
def test_a_test_that_starts_blender_unmarked_fails_and_marked_passes(tmp_path: Path) -> None:
    """A real pytest run of three tests with this suite's hooks: Blender unmarked, Blender marked, nothing."""
    (tmp_path / "test_inner.py").write_text(
        textwrap.dedent(
            """
            import pytest
            from bpywright.harness.options import RunOptions
            from bpywright.harness.pool import WorkerPool

            def one_job():
                with WorkerPool(1, RunOptions(render=False, timeout=30)) as pool:
                    assert pool.run(source="import bpy\\n").ok

            def test_unmarked():
                one_job()

            @pytest.mark.blender
            def test_marked():
                one_job()

            def test_nothing():
                assert 1 + 1 == 2
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(RECORD_ENV, None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider", "-rA", "-q", "test_inner.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "FAILED test_inner.py::test_unmarked - Failed: this test started Blender" in out and "pytest.mark.blender" in out
    assert "PASSED test_inner.py::test_marked" in out and "PASSED test_inner.py::test_nothing" in out
    assert "1 failed, 2 passed" in out


def test_make_tests_groups_put_a_tier_and_a_module_fixture_on_one_worker(tmp_path: Path) -> None:
    """A real `-n 2 --dist loadgroup` run with this suite's hooks: the Ray-marked tests share a worker, so do a module's
    tests with a module-scoped fixture (made once), while single tests spread. Each test writes its worker's name."""
    (tmp_path / "test_groups.py").write_text(
        textwrap.dedent(
            """
            import os
            import pytest

            MADE = []

            def seen(name):
                with open("seen.txt", "a", encoding="utf-8") as fh:
                    fh.write(f"{name} {os.environ['PYTEST_XDIST_WORKER']}\\n")

            @pytest.fixture(scope="module")
            def costly():
                MADE.append(1)
                seen("costly-made")

            @pytest.mark.ray
            @pytest.mark.parametrize("i", range(4))
            def test_ray(i):
                seen("ray")

            @pytest.mark.parametrize("i", range(4))
            def test_module_fixture(costly, i):
                seen("module")

            @pytest.mark.parametrize("i", range(8))
            def test_single(i):
                seen("single")
            """
        ),
        encoding="utf-8",
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    ray: r\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}  # this run's own workers, not ours
    env["PYTHONPATH"] = str(ROOT)
    env.pop(RECORD_ENV, None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider", "-q", "-n", "2", "--dist", "loadgroup"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line.split() for line in (tmp_path / "seen.txt").read_text(encoding="utf-8").splitlines()]
    workers = {kind: [w for k, w in rows if k == kind] for kind in ("ray", "module", "costly-made", "single")}
    assert len(workers["ray"]) == 4 and len(set(workers["ray"])) == 1
    assert len(workers["module"]) == 4 and len(set(workers["module"])) == 1
    assert workers["costly-made"] == workers["module"][:1]  # the module fixture made once, on that worker
    assert len(workers["single"]) == 8
