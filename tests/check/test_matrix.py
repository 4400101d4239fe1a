"""Version matrix: the bpy 4.5 wheel and Debian's Blender 3.4 in one run; lint gates only the 4.5 cases."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from bpywright.check.contact_sheet import sheet_size
from bpywright.check.targets import WHEEL, resolve_targets

from .conftest import SMALL, junit_cases, sheet_outcomes, write_tree

pytestmark = [pytest.mark.blender, pytest.mark.runtimes]

SCRIPTS = {
    "good.py": """
        import bpy
        bpy.ops.mesh.primitive_monkey_add()
    """,
    # Blender 4.0+ API: node-group interfaces
    "interface_4x.py": """
        import bpy

        group = bpy.data.node_groups.new("Scatter", "GeometryNodeTree")
        group.interface.new_socket("Geometry", in_out="OUTPUT", socket_type="NodeSocketGeometry")
    """,
    # removed in 4.1: fine on 3.4, fails (and is flagged by the 4.5 lint) on 4.5
    "auto_smooth_3x.py": """
        import bpy

        mesh = bpy.data.objects["Cube"].data
        mesh.use_auto_smooth = True
    """,
}


def test_wheel_and_executable_in_one_run(check, blender_exe: Path, tmp_path: Path) -> None:
    folder = write_tree(tmp_path / "s", SCRIPTS)
    run = check(str(folder), *SMALL, "--blender", WHEEL, "--blender", str(blender_exe), "--junit", str(tmp_path / "out.xml"))
    assert run.rc == 1
    labels = [t["label"] for t in run.summary["targets"]]
    assert len(labels) == 2 and labels[0].startswith("blender-4.5.") and labels[1].startswith("blender-3.")
    assert [t["backend"] for t in run.summary["targets"]] == ["bpy-module", "blender-exe"]

    suites = ET.parse(tmp_path / "out.xml").getroot()
    assert [s.get("name") for s in suites] == labels
    names = set(junit_cases(tmp_path / "out.xml"))
    assert names == {f"{script} [{label}]" for script in SCRIPTS for label in labels}

    new, old = labels
    assert run.case("good.py", new)["outcome"] == run.case("good.py", old)["outcome"] == "passed"
    assert run.case("interface_4x.py", new)["outcome"] == "passed"
    on_34 = run.case("interface_4x.py", old)
    assert on_34["outcome"] == "failed" and on_34["line"] == 4 and "interface" in on_34["message"]

    smooth_45, smooth_34 = run.case("auto_smooth_3x.py", new), run.case("auto_smooth_3x.py", old)
    assert smooth_45["outcome"] == "failed" and smooth_45["lint_applies"]
    assert any(r.startswith("blocking lint line 4") for r in smooth_45["reasons"])
    # linted once against the 4.5 stubs: shown on 3.4 for information, never failing it
    assert smooth_34["outcome"] == "passed" and not smooth_34["lint_applies"] and smooth_34["lint"] == smooth_45["lint"]
    assert "for information on Blender 3." in smooth_34["summary"]
    assert Path(smooth_34["render"]).is_file() and Path(smooth_34["render"]).parent.name == old
    # the contact sheet shows each script on both versions side by side
    sheet = Path(run.summary["contact_sheet"])
    with Image.open(sheet) as image:
        assert image.size == sheet_size(6, 2)
    assert sheet_outcomes(sheet, 6, 2) == ["failed", "passed", "passed", "passed", "passed", "failed"]


def test_version_matrix_is_the_wheel_plus_blenders_on_path(blender_exe: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", f"{blender_exe.parent}:{blender_exe.parent}")  # twice: found once
    targets, _ = resolve_targets([], version_matrix=True, default=None)
    assert [t.backend for t in targets] == ["bpy-module", "blender-exe"]
    assert targets[1].executable == str(blender_exe)
    # the same Blender named twice runs once
    targets, _ = resolve_targets([str(blender_exe), str(blender_exe)], version_matrix=False, default=None)
    assert len(targets) == 1
