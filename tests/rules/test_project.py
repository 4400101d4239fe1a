"""Healing a project (rules/project.py, `bpywright heal` on a script with helper modules): fixes land in the helper
file the failure points at, each changed file has its own diff, -o writes a healed mirror, the original is untouched,
and a failure raised outside the project (site-packages) is reported as not healable."""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest

from bpywright.cli import main
from bpywright.harness.report import ExceptionInfo, RunReport
from bpywright.rules.project import compare_projects, failing_frame, frames, heal_project, module_names, outside_failure, project_imports

pytestmark = pytest.mark.blender

ENTRY = """\
import bpy
import ut
import utils
from utils import material

scene = utils.setup_render(bpy.context.scene)
ob = bpy.data.objects["Cube"]
print("tip at", ut.world_point(ob, (1, 0, 0)))
material.skin(ob)
"""
FILES = {
    "scene.py": ENTRY,
    "ut.py": """\
from mathutils import Vector


def world_point(ob, co):
    return ob.matrix_world * Vector(co)
""",
    "utils/__init__.py": """\
def setup_render(scene):
    scene.render.engine = 'BLENDER_EEVEE'
    scene.render.resolution_x = 64
    return scene
""",
    "utils/material.py": """\
import bpy


def skin(ob):
    mat = bpy.data.materials.new("Skin")
    mat.use_nodes = True
    principled = mat.node_tree.nodes["Principled BSDF"]
    principled.inputs["Subsurface"].default_value = 0.2
    ob.data.materials.append(mat)
    return mat
""",
}


def make_project(root: Path, files: dict[str, str]) -> Path:
    """A git work tree holding `files` (committed), like a user's checkout."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "old project"], check=True)
    return root


def tree(root: Path) -> dict[str, str]:
    """Every file's text under root (the .git folder left out)."""
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*")) if p.is_file() and ".git" not in p.parts}


def error(traceback: str, kind: str = "TypeError", message: str = "bad", line: int | None = None) -> RunReport:
    """A RunReport of a run that raised with this traceback."""
    exc = ExceptionInfo(type=kind, message=message, traceback=traceback, line=line)
    return RunReport(status="error", backend="bpy-module", sandbox="rlimits-only", exception=exc)


def test_the_failing_frame_is_the_innermost_one_under_the_root(tmp_path: Path) -> None:
    tb = textwrap.dedent(f"""\
        Traceback (most recent call last):
          File "{tmp_path}/scene.py", line 9, in <module>
          File "{tmp_path}/utils/material.py", line 8, in skin
          File "/opt/venv/lib/python3.11/site-packages/bpy/4.5/scripts/modules/bpy/ops.py", line 109, in __call__
        TypeError: bad
        """)
    assert failing_frame(error(tb, line=9), tmp_path, "scene.py") == ("utils/material.py", 8)
    assert outside_failure(error(tb), tmp_path) is None  # an operator's own frame: the call in the project failed
    lib = tb.replace("bpy/4.5/scripts/modules/bpy/ops.py", "oldlib/core.py")
    reason = outside_failure(error(lib), tmp_path)
    assert reason is not None and "oldlib/core.py" in reason and "outside the project root" in reason
    assert failing_frame(error("", line=4), tmp_path, "scene.py") == ("scene.py", 4)
    # a helper imported through sys.path.append(os.path.dirname(__file__) + '/..'): one file, one relative path
    dotted = f'  File "{tmp_path}/examples/../mylib/geom.py", line 3, in f\n  File "{tmp_path}/../elsewhere.py", line 1, in g\n'
    assert [f.rel for f in frames(error(dotted), tmp_path)] == ["mylib/geom.py", None]
    vendored = f'  File "{tmp_path}/.venv/lib/python3.11/site-packages/oldlib/core.py", line 1, in h\n'
    assert [f.rel for f in frames(error(vendored), tmp_path)] == [None]  # a virtualenv inside the root is not the project


def test_progress_is_compared_frame_by_frame_through_the_files(tmp_path: Path) -> None:
    def at(*frames: tuple[str, int]) -> RunReport:
        return error("".join(f'  File "{tmp_path}/{f}", line {n}, in x\n' for f, n in frames), message=str(frames))

    assert compare_projects(at(("a.py", 5), ("h.py", 3)), at(("a.py", 5), ("h.py", 9)), tmp_path, {}) == "better"
    assert compare_projects(at(("a.py", 5), ("h.py", 3)), at(("a.py", 2)), tmp_path, {}) == "worse"
    # A line moved by the round's own edit (two lines inserted above it in h.py) is the same place.
    edits = {"h.py": ("x = 1\ny = 2\n", "a = 0\nb = 0\nx = 1\ny = 2\n")}
    assert compare_projects(at(("a.py", 5), ("h.py", 2)), at(("a.py", 5), ("h.py", 3)), tmp_path, edits) == "worse"


def test_imports_are_followed_to_the_projects_own_modules_only(tmp_path: Path) -> None:
    make_project(tmp_path, {**FILES, "unused.py": "x = 1\n", "utils/deep.py": "def rainbow_lights(): pass\nclass Rig: pass\n"})
    (tmp_path / "utils" / "material.py").write_text("import bpy\nfrom . import deep\n")
    found = {p.relative_to(tmp_path).as_posix() for p in project_imports(tmp_path / "scene.py", tmp_path.resolve())}
    assert found == {"ut.py", "utils/__init__.py", "utils/material.py", "utils/deep.py"}
    assert module_names("utils.deep", tmp_path / "scene.py", tmp_path.resolve()) == ("Rig", "rainbow_lights")
    assert module_names("bpy", tmp_path / "scene.py", tmp_path.resolve()) == ()


def test_a_round_that_makes_the_project_worse_is_reverted_in_every_file(tmp_path: Path) -> None:
    """Fake runs: the fix in the helper makes the entry fail earlier, so neither file keeps it."""
    make_project(
        tmp_path, {"main.py": "import helper\nhelper.go()\n", "helper.py": "import bpy\ndef go():\n    bpy.context.scene.update()\n"}
    )
    tb = f'  File "{tmp_path}/main.py", line 2, in <module>\n  File "{tmp_path}/helper.py", line 3, in go\n'
    earlier = f'  File "{tmp_path}/main.py", line 1, in <module>\n'
    seen: list[dict[str, str]] = []

    def run(texts: dict[str, str]) -> RunReport:
        seen.append(texts)
        if not texts:
            return error(tb, "AttributeError", "'Scene' object has no attribute 'update'", 2)
        return error(earlier, "ImportError", "worse", 1)

    outcome = heal_project(tmp_path, "main.py", run=run)
    assert seen[1] and "helper.py" in seen[1] and outcome.rounds[0].reverted
    assert not outcome.texts and not outcome.files and outcome.failure_after == outcome.failure_before
    assert tree(tmp_path)["helper.py"].endswith("scene.update()\n")


def test_heal_a_git_project_whose_helpers_use_the_27x_api(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = make_project(tmp_path / "proj", FILES)
    before = tree(project)
    out = tmp_path / "healed"
    assert main(["check", str(project / "scene.py"), "--no-lint", "--artifacts", str(tmp_path / "before")]) != 0
    printed = capsys.readouterr().out
    assert "heal: " in printed and "eevee-next" in printed  # check says which rule explains it, and where: the helper
    summary = json.loads((tmp_path / "before" / "summary.json").read_text())
    assert "in utils/__init__.py, line 2" in summary["cases"][0]["heal"]
    assert main(["heal", str(project / "scene.py"), "-o", str(out)]) == 0
    printed = capsys.readouterr()
    assert "healed: the script passes" in printed.out
    for rel in ("ut.py", "utils/__init__.py", "utils/material.py"):
        assert f"+++ b/{rel}" in printed.out, rel  # each changed file with its own diff
    assert tree(project) == before  # -o leaves the original untouched
    assert not subprocess.run(["git", "-C", str(project), "status", "--porcelain"], capture_output=True, text=True).stdout
    healed = tree(out)
    assert set(healed) == set(before) and healed["scene.py"] == ENTRY  # a whole mirror; the entry needed no change
    assert "@" in healed["ut.py"] and "BLENDER_EEVEE_NEXT" in healed["utils/__init__.py"]
    assert "Subsurface Weight" in healed["utils/material.py"]
    assert main(["run", str(out / "scene.py")]) == 0  # the mirror imports its healed helpers
    assert main(["check", str(out / "scene.py"), "--no-lint", "--artifacts", str(tmp_path / "ci")]) == 0


def test_dry_run_prints_diffs_and_write_edits_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {"go.py": "import bpy\nimport ut\nprint(ut.world_point(bpy.data.objects['Cube'], (0, 0, 1)))\n", "ut.py": FILES["ut.py"]}
    project = make_project(tmp_path / "p", files)
    assert main(["heal", str(project / "go.py"), "--dry-run"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("--- a/ut.py\n+++ b/ut.py\n") and "+    return ob.matrix_world @ Vector(co)" in printed
    assert tree(project) == files
    assert main(["heal", str(project / "go.py"), "--write"]) == 0
    assert "@" in (project / "ut.py").read_text() and (project / "go.py").read_text() == files["go.py"]
    assert main(["heal", str(project / "go.py"), "-o", str(tmp_path / "one.py")]) == 0  # passes now: nothing else changed


def test_o_file_refuses_a_heal_that_changed_helpers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {"go.py": "import bpy\nimport ut\nprint(ut.world_point(bpy.data.objects['Cube'], (0, 0, 1)))\n", "ut.py": FILES["ut.py"]}
    project = make_project(tmp_path / "p", files)
    assert main(["heal", str(project / "go.py"), "-o", str(tmp_path / "go_healed.py")]) == 2
    assert "give -o a folder" in capsys.readouterr().err and not (tmp_path / "go_healed.py").exists()
    with pytest.raises(SystemExit) as refused:  # the project itself: a usage error, nothing lost
        main(["heal", str(project / "go.py"), "-o", str(project)])
    assert refused.value.code == 2
    assert tree(project) == files


def test_a_failure_inside_site_packages_is_not_healable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {
        "grid.py": "import bpy\nimport spacing\nprint(spacing.steps(-1))\n",
        "spacing.py": "import numpy\n\n\ndef steps(n):\n    return numpy.linspace(0.0, 1.0, num=n)\n",
    }
    project = make_project(tmp_path / "p", files)
    assert main(["heal", str(project / "grid.py"), "--write"]) == 1
    printed = capsys.readouterr().out
    assert "not healable: the failure is raised in" in printed and "site-packages/numpy" in printed
    assert tree(project) == files


def test_a_guess_stays_at_the_failing_statement_other_files_get_sure_fixes_only(tmp_path: Path) -> None:
    """renamed-helper only fixes the failing call: the same call in another helper is left alone, a sure fix is not."""
    files = {
        "main.py": "import lights\nimport other\nlights.rainbowLights()\n",
        "other.py": "import bpy\nimport lights\n\n\ndef f():\n    lights.rainbowLights()\n    bpy.context.scene.update()\n",
        "lights.py": "def rainbow_lights():\n    pass\n",
    }
    make_project(tmp_path, files)
    tb = f'  File "{tmp_path}/main.py", line 3, in <module>\n'
    runs: list[dict[str, str]] = []

    def run(texts: dict[str, str]) -> RunReport:
        runs.append(texts)
        if texts:
            return RunReport(status="ok", backend="bpy-module", sandbox="rlimits-only")
        return error(tb, "AttributeError", "module 'lights' has no attribute 'rainbowLights'", 3)

    outcome = heal_project(tmp_path, "main.py", run=run)
    assert outcome.healed and outcome.rounds[0].explained == "renamed-helper"
    assert outcome.texts["main.py"].endswith("lights.rainbow_lights()\n")
    assert "lights.rainbowLights()" in outcome.texts["other.py"] and "view_layer.update()" in outcome.texts["other.py"]
    assert [f.path for f in outcome.files] == ["main.py", "other.py"] and all(f.diff.startswith(f"--- a/{f.path}") for f in outcome.files)
