"""Scripts as they live in real repositories: sibling modules, packages, data files, __file__ and '--' arguments."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from bpywright.cli import main

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.blender]

MAIN = """
import json, os, sys
import bpy
import utils
from helpers.geo import add_row

here = os.path.dirname(__file__)
params = json.load(open(os.path.join(here, "..", "data", "params.json")))
args = sys.argv[sys.argv.index("--") + 1 :] if "--" in sys.argv else []
add_row(int(args[0]) if args else params["count"])
open("result.txt", "w").write(utils.describe())
print("ARGS", args, "FILE", __file__, "PATH0", sys.path[0])
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small git repository: scenes/main.py, scenes/utils.py, scenes/helpers/geo.py, data/params.json."""
    root = tmp_path / "repo"
    (root / "scenes" / "helpers").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "scenes" / "main.py").write_text(MAIN)
    (root / "scenes" / "utils.py").write_text("import bpy\n\ndef describe():\n    return f'{len(bpy.data.objects)} objects'\n")
    (root / "scenes" / "helpers" / "__init__.py").write_text("")
    (root / "scenes" / "helpers" / "geo.py").write_text(
        "import bpy\n\ndef add_row(n):\n    for i in range(n):\n        bpy.ops.mesh.primitive_cube_add(location=(3 * i, 0, 0))\n"
    )
    (root / "data" / "params.json").write_text(json.dumps({"count": 2}))
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_run_sees_siblings_packages_data_file_and_arguments(project: Path, tmp_path: Path, capsys) -> None:
    script = project / "scenes" / "main.py"
    report_path = tmp_path / "r.json"
    code = main(["run", str(script), "--no-render", "--report", str(report_path), "--outputs", str(tmp_path / "out"), "--", "4", "x"])
    report = json.loads(report_path.read_text())
    assert code == 0, report["exception"]
    assert "ARGS ['4', 'x']" in report["stdout"]
    assert f"FILE {script}" in report["stdout"] and f"PATH0 {script.parent}" in report["stdout"]
    assert report["scene"]["object_count"] == 3 + 4
    assert (tmp_path / "out" / "result.txt").read_text() == "7 objects"


def test_data_file_default_and_read_only_project(project: Path, tmp_path: Path) -> None:
    script = project / "scenes" / "writer.py"
    script.write_text(MAIN + "open(os.path.join(here, 'planted.txt'), 'w')\n")
    report_path = tmp_path / "r.json"
    assert main(["run", str(script), "--no-render", "--report", str(report_path)]) == 1
    report = json.loads(report_path.read_text())
    assert report["status"] == "rejected" and "Read-only" in report["exception"]["message"]
    assert "ARGS []" in report["stdout"] and report["scene"]["object_count"] == 3 + 2  # params.json's count
    assert not (project / "scenes" / "planted.txt").exists()


def test_root_outside_the_script_is_refused(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    with pytest.raises(SystemExit) as exc:
        main(["run", str(project / "scenes" / "main.py"), "--root", str(other)])
    assert exc.value.code == 2


def test_heal_runs_the_script_in_its_project(project: Path, tmp_path: Path, capsys) -> None:
    script = project / "scenes" / "old.py"
    script.write_text("import bpy\nimport utils\nob = bpy.data.objects['Cube']\nob.select = True\nprint(utils.describe())\n")
    out = tmp_path / "healed.py"
    assert main(["heal", str(script), "-o", str(out)]) == 0
    assert "ob.select_set(True)" in out.read_text() and "healed: the script passes" in capsys.readouterr().out


def test_check_passes_project_scripts_with_configured_arguments(project: Path, tmp_path: Path) -> None:
    (project / "bpywright.toml").write_text('[args]\n"scenes/main.py" = ["5"]\n')
    (project / "scenes" / "utils.py").write_text((project / "scenes" / "utils.py").read_text())
    artifacts = tmp_path / "artifacts"
    code = main(
        ["check", str(project / "scenes" / "main.py"), "--artifacts", str(artifacts), "--no-lint", "--json", str(tmp_path / "s.json")]
    )
    summary = json.loads((tmp_path / "s.json").read_text())
    assert code == 0, summary
    reports = list(artifacts.rglob("main.json"))
    assert reports and "ARGS ['5']" in json.loads(reports[0].read_text())["stdout"]
