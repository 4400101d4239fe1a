"""The shape table as data: loaded, validated against its schema with errors that name the shape, plans as structures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bpywright.graph.plans.plan import parse_plan
from bpywright.graph.plans.tables import SHAPE_TABLE, ShapeTableError, load_shapes


def table() -> dict:
    return json.loads(SHAPE_TABLE.read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict) -> Path:
    path = tmp_path / "shapes.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_every_shipped_shape_loads_and_its_plan_is_the_table_entry() -> None:
    shapes = load_shapes()
    entries = table()["shapes"]
    assert len(shapes) == len(entries) >= 300
    for shape, entry in zip(shapes, entries, strict=True):
        plan = json.loads(shape.plan)
        assert plan == {"object": entry["object"], "parts": entry["parts"]}
        assert shape.kinds == frozenset(entry["kinds"]) and shape.request == entry["request"]


def test_a_shape_plan_parses_as_a_model_plan() -> None:
    """What the table holds is what the model writes: the plan parser reads it as it reads a reply."""
    for shape in load_shapes()[:20]:
        assert parse_plan(shape.plan).parts


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s["parts"][0].update(color="sky"), "colour 'sky' is not in the palette"),
        (lambda s: s["parts"][0].update(size=[1, 0, 0]), "above 0"),
        (lambda s: s["parts"][1].update(on="nowhere"), "neither 'ground' nor an earlier part"),
        (lambda s: s["parts"][0].update(side="under"), "parts.0.side"),
        (lambda s: s["parts"][0].update(shape="pyramid"), "parts.0.shape"),
        (lambda s: s.update(kinds=["Arm chair"]), "single lower-case words"),
        (lambda s: s.update(colour="blue"), "colour"),
    ],
)
def test_a_malformed_shape_is_refused_with_where_and_why(tmp_path: Path, change, message: str) -> None:
    data = table()
    change(data["shapes"][1])
    with pytest.raises(ShapeTableError) as info:
        load_shapes(write(tmp_path, data))
    text = str(info.value)
    assert "shape 1 (" in text and data["shapes"][1]["request"] in text and message in text


def test_an_unreadable_or_wrongly_versioned_table_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "shapes.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(ShapeTableError, match="cannot be read as JSON"):
        load_shapes(broken)
    with pytest.raises(ShapeTableError, match='"schema": 1'):
        load_shapes(write(tmp_path, {"schema": 2, "shapes": []}))


def test_the_plan_library_is_data_with_its_technique_keys_checked(tmp_path: Path) -> None:
    from bpywright.graph.plans.library import LIBRARY, TECHNIQUES
    from bpywright.graph.plans.tables import PLAN_LIBRARY, load_plan_library

    library, techniques = load_plan_library()
    assert (library, techniques) == (LIBRARY, TECHNIQUES) and len(library) >= 10 and len(techniques) >= 8
    assert all(json.loads(a.plan)["parts"] for a in library + techniques)
    data = json.loads(PLAN_LIBRARY.read_text(encoding="utf-8"))
    data["techniques"][0]["parts"][0]["modifiers"] = [{"type": "melt"}]
    with pytest.raises(ShapeTableError, match=r"technique 0 \('a polished copper ring"):
        load_plan_library(write(tmp_path, data))
    with pytest.raises(ShapeTableError, match="unknown section"):
        load_plan_library(write(tmp_path, {"schema": 1, "library": [], "techniques": [], "extras": []}))
