"""Visual regression: --update-baseline writes baselines; a changed render is flagged, an unchanged one is not."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from .conftest import SMALL, junit_cases, write_tree

MONKEY = """
    import bpy
    bpy.ops.mesh.primitive_monkey_add(location=(0, 0, 1.5))
"""
SPHERE = """
    import bpy
    bpy.ops.mesh.primitive_uv_sphere_add(location=(1, 0, 0))
"""
MOVED = """
    import bpy
    bpy.data.objects["Cube"].location.x = 3
    bpy.ops.mesh.primitive_torus_add(location=(-1, 0, 0))
"""


@pytest.mark.blender
def test_baseline_written_then_changes_flagged(check, tmp_path: Path) -> None:
    folder = write_tree(tmp_path / "s", {"monkey.py": MONKEY, "sphere.py": SPHERE})
    baseline = tmp_path / "baseline"
    first = check(str(folder), *SMALL, "--no-lint", "--baseline", str(baseline), "--update-baseline", "--fail-on", "advisory")
    assert first.rc == 0  # no baseline yet: noted, not failed
    assert first.summary["baseline_updated"] and first.summary["counts"]["baseline_missing"] == 2
    assert "no baseline render" in first.case("monkey.py")["visual"]["note"]
    manifest = json.loads((baseline / "baseline.json").read_text())
    assert sorted(e["script"] for e in manifest["entries"]) == ["monkey.py", "sphere.py"]
    label = first.summary["targets"][0]["label"]
    assert all((baseline / e["png"]).is_file() and e["png"].startswith(label) and len(e["phash"]) == 16 for e in manifest["entries"])

    write_tree(folder, {"sphere.py": MOVED, "new.py": SPHERE})
    second = check(
        str(folder), *SMALL, "--no-lint", "--baseline", str(baseline), "--fail-on", "advisory", "--junit", str(tmp_path / "out.xml")
    )
    assert second.rc == 1
    unchanged, moved, new = second.case("monkey.py"), second.case("sphere.py"), second.case("new.py")
    assert not unchanged["visual"]["changed"] and unchanged["visual"]["phash_distance"] <= unchanged["visual"]["threshold"]
    assert unchanged["advisory"] == []
    assert moved["visual"]["changed"] and moved["visual"]["phash_distance"] > moved["visual"]["threshold"]
    assert moved["outcome"] == "passed" and moved["advisory"][0].startswith("render moved")
    assert new["visual"]["baseline"] is None and not new["visual"]["changed"]
    counts = second.summary["counts"]
    assert (counts["visual_changed"], counts["baseline_missing"], counts["failed"]) == (1, 1, 0)
    cases = junit_cases(tmp_path / "out.xml")
    assert cases[f"sphere.py [{label}]"].find("failure").get("type") == "advisory"
    assert cases[f"monkey.py [{label}]"].find("failure") is None
    assert ET.parse(tmp_path / "out.xml").getroot().get("failures") == "1"

    # the same moved render does not fail the check under --fail-on blocking
    third = check(str(folder), *SMALL, "--no-lint", "--baseline", str(baseline))
    assert third.rc == 0 and third.case("sphere.py")["visual"]["changed"]
    # an earlier run's artifacts folder has the baseline layout, so it works as a baseline as it is
    assert all((second.artifacts / e["png"]).is_file() for e in manifest["entries"])
