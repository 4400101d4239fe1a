"""The introspect pass (probe.py in real Blender through the harness) and the normalise pass on its output."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.ingest.errors import IngestError
from bpywright.ingest.introspect import introspect
from bpywright.ingest.merge import SymbolTable, default_string, parse_doc, type_string


@pytest.fixture(scope="module")
def probe_45() -> dict:
    """One run of the probe in the bpy wheel (Blender 4.5)."""
    return introspect(timeout=300)


@pytest.fixture(scope="module")
def symbols_45(probe_45: dict) -> dict:
    table = SymbolTable("4.5")
    table.add_probe(probe_45)
    return table.by_name


def _struct(probe: dict, name: str) -> dict:
    return next(s for s in probe["structs"] if s["id"] == name)


def _operator(probe: dict, module: str, name: str) -> dict:
    return next(o for o in probe["operators"] if (o["module"], o["id"]) == (module, name))


def _enum_ids(probe: dict, rec: dict) -> list[str]:
    return [item[0] for item in probe["enums"][rec["enum"]]]


@pytest.mark.blender
def test_probe_reports_structs_operators_and_modules(probe_45: dict) -> None:
    assert probe_45["blender_version"].startswith("4.5")
    assert probe_45["errors"] == []
    modifiers = next(p for p in _struct(probe_45, "Object")["properties"] if p["id"] == "modifiers")
    assert (modifiers["type"], modifiers["fixed_type"], modifiers["srna"], modifiers["readonly"]) == (
        "COLLECTION",
        "Modifier",
        "ObjectModifiers",
        True,
    )
    mod_type = next(p for p in _struct(probe_45, "Modifier")["properties"] if p["id"] == "type")
    assert {"SUBSURF", "BEVEL", "ARRAY"} <= set(_enum_ids(probe_45, mod_type))
    new = next(f for f in _struct(probe_45, "ObjectModifiers")["functions"] if f["id"] == "new")
    assert [(p["id"], bool(p.get("required")), bool(p.get("output"))) for p in new["params"]] == [
        ("name", True, False),
        ("type", True, False),
        ("modifier", False, True),
    ]
    size = next(p for p in _operator(probe_45, "mesh", "primitive_cube_add")["properties"] if p["id"] == "size")
    assert size["default"] == 2.0
    members = {m["id"]: {x["id"] for x in m["members"]} for m in probe_45["modules"]}
    assert "create_cube" in members["bmesh.ops"] and "Vector" in members["mathutils"]
    # registered UI classes are not API; every struct found is a real bpy.types name
    assert not any("_PT_" in s["id"] or "_MT_" in s["id"] for s in probe_45["structs"])
    assert len(probe_45["structs"]) > 1500 and len(probe_45["operators"]) > 2000
    assert sum(probe_45["timings"].values()) < 20


@pytest.mark.blender
def test_normalised_symbols(symbols_45: dict) -> None:
    s = symbols_45
    assert s["bpy.types.Object"].kind == "struct" and s["bpy.types.Object"].type == "bpy.types.ID"
    mods = s["bpy.types.Object.modifiers"]
    assert (mods.kind, mods.parent, mods.readonly) == ("property", "bpy.types.Object", True)
    assert mods.type == "Collection of Modifier (ObjectModifiers)"
    assert s["bpy.types.Object.location"].type == "float array[3]"
    assert s["bpy.types.Object.location"].default == "(0.0, 0.0, 0.0)"
    assert s["bpy.types.Object.matrix_world"].type == "float array[4][4]"
    assert s["bpy.types.Object.active_material"].type == "pointer to Material"
    assert s["bpy.types.Modifier.type"].type.startswith("enum in [") and "SUBSURF" in s["bpy.types.Modifier.type"].enum_items
    new = s["bpy.types.ObjectModifiers.new"]
    assert (new.kind, new.signature, new.type) == ("function", "(name, type)", "pointer to Modifier")
    assert "SUBSURF" in new.enum_items and "Modifier type to add" in new.description
    cube = s["bpy.ops.mesh.primitive_cube_add"]
    assert cube.kind == "operator" and cube.parent == "bpy.ops.mesh"
    assert cube.signature.startswith("(size=2.0, calc_uvs=True, enter_editmode=False, align='WORLD', location=(0.0, 0.0, 0.0), rotation=")
    assert s["bpy.types.Mesh.from_pydata"].signature.startswith("(vertices, edges, faces")
    assert s["bpy.types.bpy_struct.keyframe_insert"].kind == "function"
    assert s["mathutils.Vector"].kind == "class" and s["mathutils.Vector.to_track_quat"].signature == "(track, up)"
    assert s["mathutils.Vector.to_track_quat"].type == "Quaternion"
    assert s["bmesh.ops.create_cube"].signature.startswith("(bmesh, size=")
    assert s["bpy.context.active_object"].kind == "data" and s["bpy.context.scene"].type == "pointer to Scene"
    # inherited members are documented once, on the struct that defines them
    assert "bpy.types.ID.name" in s and "bpy.types.Object.name" not in s
    assert "mathutils.Vector.xyz" not in s  # swizzles are not listed one by one
    assert all(sym.sources == ["introspect"] and sym.uri is None for sym in s.values())


@pytest.mark.blender
@pytest.mark.runtimes
def test_probe_runs_on_debian_blender(blender_exe: Path) -> None:
    data = introspect(blender_exe, timeout=300)
    assert data["blender_version"].startswith("3.")
    assert data["errors"] == []
    table = SymbolTable("3.4")
    table.add_probe(data)
    assert "size=2.0" in table.by_name["bpy.ops.mesh.primitive_cube_add"].signature
    assert table.by_name["bpy.types.Object.modifiers"].type.startswith("Collection of Modifier")
    assert "bmesh.ops.create_cube" in table.by_name


@pytest.mark.blender
@pytest.mark.runtimes
def test_a_blender_that_fails_raises_ingest_error(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # a job runs as an unprivileged host uid: a 0700 folder is closed to it
    fake = tmp_path / "blender"
    fake.write_text("#!/bin/sh\necho 'this is not blender' >&2\nexit 3\n")
    fake.chmod(0o755)  # executable by the job's unprivileged uid too
    with pytest.raises(IngestError, match="Blender at .* (failed|did not start: this is not blender)"):
        introspect(fake, timeout=30)
    with pytest.raises(IngestError, match="cannot start"):
        introspect(tmp_path / "missing-blender", timeout=30)


def test_type_and_default_strings() -> None:
    enums = [[["X", "X", ""], ["Y", "Y", ""]]]
    assert type_string({"type": "INT", "min": 0, "max": 6}, enums) == "int in [0, 6]"
    assert type_string({"type": "FLOAT", "min": -3.402823e38, "max": 3.402823e38}, enums) == "float"
    assert type_string({"type": "FLOAT", "array": [4], "min": 0.0, "max": 1.0}, enums) == "float array[4] in [0, 1]"
    assert type_string({"type": "ENUM", "enum": 0, "flag": True}, enums) == "enum set in ['X', 'Y']"
    assert type_string({"type": "COLLECTION", "fixed_type": "Object"}, enums) == "Collection of Object"
    assert default_string({"type": "ENUM", "flag": True, "default": []}) == "set()"
    assert default_string({"type": "FLOAT", "array": [2, 2], "default": [1.0, 0.0, 0.0, 1.0]}) == "((1.0, 0.0), (0.0, 1.0))"
    assert default_string({"type": "STRING", "default": ""}) == "''"


def test_parse_doc() -> None:
    doc = ".. method:: lerp(other, factor)\n\n   Returns the interpolation of two vectors.\n\n   :arg other: value\n   :type other: Vector\n   :rtype: :class:`Vector`\n"
    assert parse_doc(doc, "lerp") == ("(other, factor)", "Returns the interpolation of two vectors.", "Vector")
    assert parse_doc("Vector X axis.\n\n:type: float", "x") == (None, "Vector X axis.", "float")
    assert parse_doc("BMeshOpFunc bmesh.ops.create_cube(bmesh, size=0.0)\n  -> dict(verts=[])", "create_cube") == (
        "(bmesh, size=0.0)",
        "",
        "dict(verts=[])",
    )
