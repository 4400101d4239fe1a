"""Project shapes old script collections have: a helper package (`utils/__init__.py`) whose function was renamed while
the entry kept calling the old name, and a helper with cp1252 quotes in a comment (not UTF-8: Python still runs it).
Each heals on real Blender, and the written files keep every byte the heal did not change."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.cli import main
from bpywright.rules.project import module_names, read_source, source_bytes

from .test_project import make_project, tree

pytestmark = pytest.mark.blender

PACKAGE_ENTRY = """\
import os
import sys

sys.path.append(os.path.dirname(os.path.abspath(__file__)))
import utils

utils.remove_all()
utils.rainbowLights(5, 12)
"""
PACKAGE_INIT = """\
import bpy


def remove_all():
    bpy.ops.object.select_all(action="SELECT")
    bpy.ops.object.delete(use_global=False)
    bpy.context.scene.update()


def rainbow_lights(r=5, n=100):
    for i in range(n):
        light = bpy.data.lights.new(f"L{i}", "POINT")
        ob = bpy.data.objects.new(f"L{i}", light)
        bpy.context.scene.collection.objects.link(ob)
        ob.location = (r, i, 0)
"""


def test_module_names_reads_a_package_init(tmp_path: Path) -> None:
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text(PACKAGE_INIT)
    (tmp_path / "lights.py").write_text("def rainbow_lights():\n    pass\n")
    entry = tmp_path / "main.py"
    entry.write_text("import utils\n")
    assert module_names("utils", entry, tmp_path) == ("bpy", "rainbow_lights", "remove_all")
    assert module_names("lights", entry, tmp_path) == ("rainbow_lights",)
    assert module_names("utils.nothing", entry, tmp_path) == ()  # the import stops at the package: not its module


def test_a_renamed_helper_in_a_package_heals_beside_another_fix_in_its_init(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {"scripts/metaballs.py": PACKAGE_ENTRY, "scripts/utils/__init__.py": PACKAGE_INIT}
    project = make_project(tmp_path / "p", files)
    assert main(["run", str(project / "scripts" / "metaballs.py")]) != 0  # the old project fails as it is
    capsys.readouterr()
    assert main(["heal", str(project / "scripts" / "metaballs.py"), "--dry-run"]) == 0
    printed = capsys.readouterr()
    assert "+utils.rainbow_lights(5, 12)" in printed.out and "+    bpy.context.view_layer.update()" in printed.out
    assert "healed: the script passes" in printed.err
    assert tree(project) == files  # --dry-run writes nothing
    assert main(["heal", str(project / "scripts" / "metaballs.py")]) == 0
    report = capsys.readouterr().out
    assert "renamed-helper" in report and "  scripts/utils/__init__.py: scene-update (line 7: " in report


CP1252_HELPER = (
    b"import bpy\n\n\n"
    b"def remove_all():\n"
    b"    # Possible type: \x91MESH\x92, \x91LAMP\x92\n"
    b"    bpy.ops.object.select_by_layer()\n"
    b"    bpy.ops.object.delete(use_global=False)\n"
)


def test_a_helper_that_is_not_utf8_is_healed_and_keeps_its_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = make_project(tmp_path / "p", {"go.py": "import util\nutil.remove_all()\nimport bpy\nassert not bpy.data.objects\n"})
    (project / "util.py").write_bytes(CP1252_HELPER)
    assert main(["run", str(project / "go.py")]) != 0
    capsys.readouterr()
    assert main(["heal", str(project / "go.py"), "--write"]) == 0
    out = capsys.readouterr().out
    assert "layers-removed" in out and "healed: the script passes" in out
    healed = (project / "util.py").read_bytes()
    assert healed == CP1252_HELPER.replace(b"select_by_layer()", b"select_all(action='SELECT')")
    assert source_bytes(read_source(project / "util.py"), project / "util.py") == healed
    assert main(["run", str(project / "go.py")]) == 0


MATERIAL_293 = """\
import bpy


def glowing(name, colour):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs[0].default_value = colour
    bsdf.inputs[4].default_value = 0.9
    bsdf.inputs[5].default_value = 0.25
    bsdf.inputs[7].default_value = 0.2
    bsdf.inputs[11].default_value = 0.5
    bsdf.inputs["Clearcoat"].default_value = 0.4
    bsdf.inputs["Sheen"].default_value = 0.3
    bsdf.inputs["Transmission"].default_value = 0.1
    bsdf.inputs["Subsurface"].default_value = 0.05
    bsdf.inputs["Subsurface Color"].default_value = (1, 0, 0, 1)
    bsdf.inputs["Emission"].default_value = (0, 0.5, 1, 1)
    return mat
"""
MATERIAL_ENTRY = """\
import bpy
from utils.material import glowing

mat = glowing("Glow", (0.8, 0.2, 0.1, 1))
"""
MATERIAL_CHECK = """
b = mat.node_tree.nodes["Principled BSDF"].inputs
close = lambda a, b: abs(a - b) < 1e-4
assert close(b["Metallic"].default_value, 0.9) and close(b["Roughness"].default_value, 0.2)
assert close(b["Specular IOR Level"].default_value, 0.25) and close(b["Coat Weight"].default_value, 0.4)
assert close(b["Sheen Weight"].default_value, 0.3) and close(b["Transmission Weight"].default_value, 0.1)
assert close(b["Subsurface Weight"].default_value, 0.05) and close(b["Alpha"].default_value, 1.0)
assert tuple(round(c, 3) for c in b["Emission Color"].default_value) == (0, 0.5, 1, 1)
assert close(b["Emission Strength"].default_value, 1.0)
assert [round(c, 3) for c in b["Sheen Tint"].default_value] == [0.9, 0.6, 0.55, 1.0]
"""


def test_a_293_principled_helper_by_index_and_by_old_name_heals_to_the_same_material(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2.93's input order by index (inputs[5] was Specular, now Normal: 'sequence expected at dimension 1') and by old
    name; healed, every value lands on the 4.x input that means the same, converted where its type changed."""
    files = {"scene.py": MATERIAL_ENTRY, "utils/__init__.py": "", "utils/material.py": MATERIAL_293}
    project = make_project(tmp_path / "p", files)
    assert main(["run", str(project / "scene.py")]) != 0
    capsys.readouterr()
    assert main(["heal", str(project / "scene.py"), "--write"]) == 0
    out = capsys.readouterr().out
    assert "principled-input-index" in out and "healed: the script passes" in out
    (project / "scene.py").write_text(MATERIAL_ENTRY + MATERIAL_CHECK)
    assert main(["run", str(project / "scene.py")]) == 0, (project / "utils" / "material.py").read_text()


def test_a_division_passed_through_a_helpers_kwargs_in_another_file_gets_int(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {
        "main.py": "import bpy, bmesh\nimport shapes\n\nbm = bmesh.new()\nrings = 12\nshapes.cone(bm, segments=rings / 2)\n"
        "me = bpy.data.meshes.new('c')\nbm.to_mesh(me)\nassert len(me.polygons) >= 6\n",
        "shapes.py": "import bmesh\n\n\ndef cone(bm, **options):\n"
        "    return bmesh.ops.create_cone(bm, cap_ends=True, radius1=1.0, radius2=0.0, depth=2.0, **options)\n",
    }
    project = make_project(tmp_path / "p", files)
    assert main(["heal", str(project / "main.py"), "--write"]) == 0
    out = capsys.readouterr().out
    assert "  main.py: int-from-division (line 6: " in out
    assert "shapes.cone(bm, segments=int(rings / 2))" in (project / "main.py").read_text()
    assert (project / "shapes.py").read_text() == files["shapes.py"]


EXEC_ENTRY = """\
import os

import bpy

directory = os.path.basename(bpy.data.filepath)
for file_name in ["utils.py"]:
    file_path = os.path.join(directory, file_name)
    exec(compile(open(file_path).read(), file_path, 'exec'))

clear_scene()
bpy.ops.mesh.primitive_plane_add(location=(0, 0, 0))
bpy.context.object.name = "Plane from helper"
"""
EXEC_HELPER = """\
import bpy


def clear_scene():
    bpy.ops.object.select_all(action='DESELECT')
    for obj in bpy.context.scene.objects:
        obj.select = True
    bpy.ops.object.delete()
"""


def test_a_helper_read_by_its_relative_name_is_found_beside_the_script_and_healed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A script run from its own folder execs `utils.py` by a relative name; run from anywhere else (the harness, or
    `blender -b --python DIR/script.py`), open() looks in the working folder. The heal opens it beside the script, and
    the helper, which the traceback names relatively, is healed in its own file."""
    files = {"planes.py": EXEC_ENTRY, "utils.py": EXEC_HELPER}
    project = make_project(tmp_path / "p", files)
    assert main(["run", str(project / "planes.py")]) != 0
    capsys.readouterr()
    assert main(["heal", str(project / "planes.py"), "--write"]) == 0
    printed = capsys.readouterr()
    assert "open-beside-script" in printed.out and "object-select" in printed.out, printed.out
    healed = tree(project)
    assert "exec(compile(open(_beside_script(file_path)).read(), file_path, 'exec'))" in healed["planes.py"]
    assert "obj.select_set(True)" in healed["utils.py"] and "bpy.ops.object.delete()" in healed["utils.py"]
    assert main(["run", str(project / "planes.py")]) == 0
