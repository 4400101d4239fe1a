"""api-check resolves bpy/bmesh/mathutils chains against a version's symbols, with suggestions."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bpywright.ingest.apicheck import api_check
from bpywright.ingest.search import IndexMissing
from bpywright.ingest.symbols import Symbol, write_symbols


def _index(root: Path, version: str, names: dict[str, dict]) -> None:
    (root / version).mkdir(parents=True)
    write_symbols([Symbol(name=n, blender_version=version, **extra) for n, extra in names.items()], root / version / "symbols.jsonl")


@pytest.fixture
def index_root(tmp_path: Path) -> Path:
    common = {
        "bpy.types.Context": {"kind": "struct"},
        "bpy.types.Context.scene": {"kind": "property", "type": "pointer to Scene"},
        "bpy.types.Context.active_object": {"kind": "property", "type": "pointer to Object"},
        "bpy.types.Scene": {"kind": "struct"},
        "bpy.types.Scene.render": {"kind": "property", "type": "pointer to RenderSettings"},
        "bpy.types.Scene.frame_end": {"kind": "property", "type": "int"},
        "bpy.types.RenderSettings": {"kind": "struct"},
        "bpy.types.RenderSettings.engine": {"kind": "property", "type": "enum"},
        "bpy.types.Object": {"kind": "struct"},
        "bpy.types.Object.location": {"kind": "property", "type": "float array[3]"},
        "bpy.types.BlendData": {"kind": "struct"},
        "bpy.types.BlendData.materials": {"kind": "property", "type": "Collection of Material"},
        "bpy.ops.mesh.primitive_cube_add": {"kind": "operator"},
        "bpy.ops.mesh.primitive_uv_sphere_add": {"kind": "operator"},
        "bpy.ops.object.select_all": {"kind": "operator"},
        "bmesh.ops.create_cube": {"kind": "function"},
        "bmesh.new": {"kind": "function"},
        "mathutils.Vector": {"kind": "class"},
        "bpy.types.Operator": {"kind": "struct"},
    }
    _index(tmp_path, "4.5", common)
    _index(tmp_path, "3.4", common | {"bpy.types.BlendData.lamps": {"kind": "property", "type": "Collection of Lamp"}})
    return tmp_path


def check(source: str, root: Path):
    return api_check(textwrap.dedent(source), version="4.5", index_root=root)


def test_known_names_pass(index_root: Path) -> None:
    report = check(
        """
        import bpy, bmesh
        from mathutils import Vector
        bpy.ops.mesh.primitive_cube_add(size=2)
        bpy.context.scene.render.engine = "CYCLES"
        bpy.context.scene.frame_end = 48
        mat = bpy.data.materials.new("M")
        bm = bmesh.new()
        bmesh.ops.create_cube(bm, size=1)
        v = Vector((0, 0, 1))
        """,
        index_root,
    )
    assert report.diagnostics == []


def test_unknown_operator_with_suggestion(index_root: Path) -> None:
    report = check("import bpy\nbpy.ops.mesh.primitive_uvsphere_add(radius=1)\n", index_root)
    [diag] = report.blocking
    assert diag.line == 2 and diag.tool == "rules" and '"primitive_uvsphere_add"' in diag.message
    assert diag.fix and "primitive_uv_sphere_add" in diag.fix


def test_pointer_chain_and_other_version(index_root: Path) -> None:
    report = check("import bpy\nbpy.context.scene.rendr.engine = 'CYCLES'\nlamps = bpy.data.lamps\n", index_root)
    by_line = {d.line: d for d in report.blocking}
    assert "render" in by_line[2].fix
    assert "exists in Blender 3.4" in by_line[3].message


def test_aliases_and_script_defined_names(index_root: Path) -> None:
    report = check(
        """
        import bpy
        import bmesh as bm
        class MY_OT_op(bpy.types.Operator):
            bl_idname = "object.my_op"
        bpy.types.Scene.my_setting = 3
        bpy.ops.object.my_op()
        print(bpy.context.scene.my_setting)
        bm.ops.create_cone(None)
        """,
        index_root,
    )
    assert [(d.line, d.message.split()[0]) for d in report.blocking] == [(9, '"create_cone"')]


def test_missing_index_says_what_to_run(tmp_path: Path) -> None:
    with pytest.raises(IndexMissing, match="bpywright ingest --blender-version 4.5") as caught:
        api_check("import bpy\n", version="4.5", index_root=tmp_path)
    assert "bpywright blender add 4.5" in str(caught.value)


def test_rule_pack_has_api_check_only_with_an_index_root(index_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bpywright.rules import rule_pack

    source = "import bpy\nbpy.data.lamps.new('L', 'POINT')\n"
    monkeypatch.setenv("BPYWRIGHT_ARTIFACTS", str(index_root.parent))  # never read: the caller passes the index root
    without = [d.code for rule in rule_pack("4.5") for d in rule(source)]
    found = [d for rule in rule_pack("4.5", index_root) for d in rule(source) if d.code == "api-unknown"]
    assert "api-unknown" not in without
    assert [d.line for d in found] == [2] and "it exists in Blender 3.4" in found[0].message
    assert not [d for rule in rule_pack("5.0", index_root) for d in rule(source) if d.code == "api-unknown"]  # 5.0 not indexed there


def test_variables_bound_once_to_an_api_chain_are_followed(index_root: Path) -> None:
    report = check(
        """
        import bpy
        C = bpy.context
        scene = C.scene
        rs = scene.render
        scene.frame_ned = 10
        rs.engin = "CYCLES"
        print(scene.frame_end, rs.engine)
        """,
        index_root,
    )
    by_line = {d.line: d for d in report.blocking}
    assert sorted(by_line) == [6, 7]
    assert '"frame_ned"' in by_line[6].message and "scene.frame_ned, that is bpy.context.scene.frame_ned" in by_line[6].message
    assert by_line[6].fix and "frame_end" in by_line[6].fix
    assert "rs.engin, that is bpy.context.scene.render.engin" in by_line[7].message


def test_rebound_names_and_call_results_are_not_followed(index_root: Path) -> None:
    report = check(
        """
        import bpy
        scene = bpy.context.scene
        for scene in bpy.data.materials:
            scene.whatever = 1
        def f(obj):
            obj.anything = 2
        obj = bpy.context.active_object
        mat = bpy.data.materials.new("M")
        mat.not_checked = 3
        """,
        index_root,
    )
    assert report.blocking == []


def test_a_wrong_chain_is_reported_once_where_the_variable_is_assigned(index_root: Path) -> None:
    report = check("import bpy\nscene = bpy.context.scen\nscene.frame_end = 3\n", index_root)
    assert [d.line for d in report.blocking] == [2]
