"""Config files: lookup, include/exclude, per-script timeouts, engine/resolution, expected failures; CLI overrides."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bpywright.check.command import _plan
from bpywright.check.project_config import CheckConfig, ConfigError, find_config, glob_match, load_config
from bpywright.cli import build_parser
from bpywright.config import Settings

from .conftest import junit_cases, write_tree

CONFIG = """
    [tool.bpywright]
    include = ["scenes/**/*.py"]
    exclude = ["scenes/wip/"]
    resolution = 48
    timeout = 60
    expected-failures = ["scenes/known_broken.py", "fixed.py"]

    [tool.bpywright.timeouts]
    "scenes/slow_*.py" = 2
"""
PROJECT = {
    "pyproject.toml": CONFIG,
    "scenes/ok.py": "import bpy\nbpy.ops.mesh.primitive_cylinder_add()\n",
    "scenes/known_broken.py": "import bpy\nbpy.ops.mesh.no_such_operator()\n",
    "scenes/nested/fixed.py": "import bpy\nbpy.ops.mesh.primitive_torus_add()\n",
    "scenes/slow_loop.py": "import time\nimport bpy\nwhile True:\n    time.sleep(0.5)\n",
    "scenes/wip/draft.py": "import bpy\nraise RuntimeError('draft')\n",
    "tools/generate.py": "import bpy\nraise RuntimeError('not a scene')\n",
}


@pytest.mark.blender
def test_config_drives_the_run(check, tmp_path: Path) -> None:
    project = write_tree(tmp_path / "project", PROJECT)
    run = check(str(project), "--no-lint", "--jobs", "1", "--junit", str(tmp_path / "out.xml"), "--allow-expected-failures")
    assert run.rc == 1  # the slow scene timed out (an error); the accepted expected failure does not fail the check
    assert sorted(c["script"] for c in run.summary["cases"]) == [
        "scenes/known_broken.py",
        "scenes/nested/fixed.py",
        "scenes/ok.py",
        "scenes/slow_loop.py",
    ]
    assert run.case("ok.py")["outcome"] == "passed"
    assert Path(run.case("ok.py")["render"]).is_file()
    from PIL import Image

    with Image.open(run.case("ok.py")["render"]) as image:
        assert image.size == (48, 48)
    broken = run.case("known_broken.py")
    assert broken["outcome"] == "xfail" and broken["expected_failure"] and broken["status"] == "error"
    assert broken["expected_failure_allowed"] and run.summary["expected_failures"] == "allowed"
    fixed = run.case("fixed.py")
    assert fixed["outcome"] == "xpass" and "take it off the list" in fixed["advisory"][0]
    slow = run.case("slow_loop.py")
    assert slow["status"] == "timeout" and "2s" in slow["message"]
    counts = run.summary["counts"]
    assert (counts["xfail"], counts["xpass"], counts["error"]) == (1, 1, 1)
    cases = junit_cases(tmp_path / "out.xml")
    skipped = cases[f"scenes/known_broken.py [{broken['target']}]"].find("skipped")
    assert skipped.get("type") == "xfail" and "claimed by the checked repository's config" in skipped.get("message")
    assert ET.parse(tmp_path / "out.xml").getroot().get("skipped") == "1"


def _plan_for(*argv: str):
    args = build_parser().parse_args(["check", *argv])
    return _plan(args, Settings())[1]


@pytest.mark.blender
def test_cli_flags_override_the_config(tmp_path: Path) -> None:
    project = write_tree(tmp_path / "project", PROJECT)
    plan = _plan_for(str(project))
    slow = next(s for s in plan.scripts if s.rel.endswith("slow_loop.py"))
    ok = next(s for s in plan.scripts if s.rel.endswith("ok.py"))
    assert (plan.timeout_for(slow), plan.timeout_for(ok), plan.resolution) == (2, 60, 48)
    plan = _plan_for(str(project), "--timeout", "7", "--resolution", "96", "--engine", "cycles")
    assert (plan.timeout_for(slow), plan.timeout_for(ok), plan.resolution, plan.engine) == (7, 7, 96, "cycles")
    # --no-config: every bpy script in the folder, defaults
    plan = _plan_for(str(project), "--no-config")
    assert len(plan.scripts) == 6 and plan.resolution == 256 and not plan.expected_failure(ok)


def test_bpywright_toml_is_found_from_a_script_upward(tmp_path: Path) -> None:
    write_tree(tmp_path / "repo", {"bpywright.toml": "engine = 'eevee'\n", "a/b/scene.py": "import bpy\n"})
    (tmp_path / "repo" / ".git").mkdir()
    found = find_config(tmp_path / "repo" / "a" / "b" / "scene.py")
    assert found == tmp_path / "repo" / "bpywright.toml"
    assert load_config(found).engine == "eevee"
    # the search stops at the git root
    write_tree(tmp_path, {"bpywright.toml": "engine = 'cycles'\n", "inner/.git/HEAD": "", "inner/x.py": "import bpy\n"})
    assert find_config(tmp_path / "inner" / "x.py") is None
    # a pyproject.toml without [tool.bpywright] is passed over
    write_tree(tmp_path / "p", {"pyproject.toml": "[project]\nname = 'x'\n", "sub/pyproject.toml": "[tool.ruff]\n", "sub/s.py": ""})
    (tmp_path / "p" / ".git").mkdir()
    assert find_config(tmp_path / "p" / "sub" / "s.py") is None


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[tool.bpywright]\nexlude = ['x']\n", "exlude"),
        ("[tool.bpywright]\nresolution = 4\n", "resolution"),
        ("[tool.bpywright\n", "not valid TOML"),
        ("[tool.bpywright]\nengine = 'povray'\n", "engine"),
        ("[tool.bpywright.timeouts]\n'a.py' = -1\n", "timeouts"),
    ],
)
def test_bad_config_says_which_file_and_key(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=needle) as info:
        load_config(path)
    assert str(path) in str(info.value)


def test_globs() -> None:
    assert glob_match("scenes/**/*.py", "scenes/a.py") and glob_match("scenes/**/*.py", "scenes/x/y/a.py")
    assert not glob_match("scenes/*.py", "scenes/x/a.py")
    assert glob_match("fixed.py", "deep/er/fixed.py") and not glob_match("fixed.py", "unfixed.py")
    assert glob_match("scenes/wip/", "scenes/wip/a/b.py") and not glob_match("scenes/wip/", "scenes/wipe.py")
    config = CheckConfig(timeouts={"heavy/*": 300, "*.py": 5})
    assert config.timeout_for("heavy/a.py") == 300 and config.timeout_for("light.py") == 5
