"""The inventory pass on the real Blender 4.2/4.4 objects.inv files (read from ../shared/data, never copied)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bpywright.ingest.errors import IngestError
from bpywright.ingest.inventory import load_inventory, read_inventory
from bpywright.versions import VersionError, major_minor

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "objects_inv"
INV_42 = DATA / "blender_4.2_objects.inv"
INV_44 = DATA / "blender_4.4_objects.inv"


@pytest.fixture(scope="module")
def entries_44():
    if not INV_44.is_file():
        pytest.skip(f"reference data missing: {INV_44}")
    return {(e.name, e.role): e for e in read_inventory(str(INV_44))}


def test_counts_of_both_inventories() -> None:
    if not INV_42.is_file():
        pytest.skip(f"reference data missing: {INV_42}")
    assert len(read_inventory(str(INV_42))) == 24_685
    assert len(read_inventory(str(INV_44))) == 24_574


def test_names_roles_and_urls_resolved_against_that_versions_docs(entries_44) -> None:
    base = "https://docs.blender.org/api/4.4/"
    # Sphinx writes `$` for "the name itself" in URIs; it must come out expanded
    assert entries_44[("bpy.types.Object.location", "py:attribute")].uri == base + "bpy.types.Object.html#bpy.types.Object.location"
    # read-only properties are documented as py:data
    assert entries_44[("bpy.types.Object.modifiers", "py:data")].uri == base + "bpy.types.Object.html#bpy.types.Object.modifiers"
    assert entries_44[("bpy.ops.mesh.primitive_cube_add", "py:function")].uri == base + "bpy.ops.mesh.html#bpy.ops.mesh.primitive_cube_add"
    assert entries_44[("bpy.types.Object", "py:class")].uri.endswith("bpy.types.Object.html#bpy.types.Object")
    assert entries_44[("bpy.types.Object", "std:doc")].uri == base + "bpy.types.Object.html"
    assert entries_44[("mathutils.Vector.to_track_quat", "py:method")].uri.startswith(base + "mathutils.html#")
    assert all("$" not in e.uri for e in entries_44.values())


def test_version_is_inferred_from_the_inventory_or_given() -> None:
    inv = load_inventory(str(INV_42))
    assert (inv.version, inv.base_url) == ("4.2", "https://docs.blender.org/api/4.2/")
    assert len(inv.sha256) == 64
    forced = load_inventory(str(INV_42), version="4.2.9 LTS")
    assert forced.base_url == "https://docs.blender.org/api/4.2/"
    assert load_inventory(INV_44.as_uri()).version == "4.4"  # file:// URLs read like paths


def test_plaintext_inventory_reads_like_the_compressed_one(tmp_path: Path) -> None:
    import sphobjinv

    plain = tmp_path / "objects.txt"
    plain.write_bytes(sphobjinv.Inventory(str(INV_42)).data_file())
    assert len(read_inventory(str(plain))) == 24_685


def test_missing_corrupt_and_foreign_files_raise_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(IngestError, match="cannot read the inventory"):
        read_inventory(str(tmp_path / "nope.inv"))
    foreign = tmp_path / "notes.txt"
    foreign.write_text("hello\n")
    with pytest.raises(IngestError, match="not a Sphinx objects.inv"):
        read_inventory(str(foreign))
    truncated = tmp_path / "truncated.inv"
    truncated.write_bytes(INV_42.read_bytes()[:2000])
    with pytest.raises(IngestError, match="corrupt"):
        read_inventory(str(truncated))


def test_major_minor() -> None:
    assert major_minor("4.5.15 LTS") == "4.5"
    assert major_minor("Blender 3.4.1") == "3.4"
    assert major_minor("5.0.0 Release Candidate") == "5.0"
    for bad in ("latest", "", None, "../4.5"):
        with pytest.raises(VersionError):
            major_minor(bad)
