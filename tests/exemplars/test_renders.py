"""With real renders: content-addressed files, near-duplicate grouping, one entry per group, similar by hash."""

from __future__ import annotations

import hashlib

import pytest
from PIL import Image

from bpywright.exemplars import features
from bpywright.exemplars.store import ExemplarStore, Filters

from .conftest import Rendered


def add(store: ExemplarStore, r: Rendered, source: str = "recipe"):
    return store.add(script=r.script, prompt=r.prompt, report=r.report, render=r.render, source=source, blender_version="4.5")


@pytest.mark.blender
def test_renders_and_thumbnails_are_content_addressed(store: ExemplarStore, renders: dict[str, Rendered]) -> None:
    exemplar = add(store, renders["table"]).exemplar
    render, thumb = store.file(exemplar.render_path or ""), store.file(exemplar.thumbnail_path or "")
    assert render.read_bytes() == renders["table"].render.read_bytes()
    assert exemplar.render_path.endswith(".png") and hashlib.sha256(render.read_bytes()).hexdigest() == render.stem  # type: ignore[union-attr]
    with Image.open(thumb) as img:
        assert img.format == "WEBP" and max(img.size) <= features.THUMBNAIL_PX
    assert exemplar.report is not None and exemplar.report.render is not None and exemplar.report.render.path == exemplar.render_path
    assert set(exemplar.hashes) == {"phash", "dhash", "colour"}
    assert not list(store.files.root.rglob("*.tmp"))


@pytest.mark.blender
def test_hashes_tell_a_tiny_change_from_a_different_scene(renders: dict[str, Rendered]) -> None:
    table, nudged, spiral = (
        features.hash_values(features.perceptual_hashes(renders[k].render)) for k in ("table", "table_nudged", "spiral")
    )
    assert table and nudged and spiral
    assert renders["table"].render.read_bytes() != renders["table_nudged"].render.read_bytes()  # the change is visible
    assert features.near_duplicate(table, nudged)
    assert not features.near_duplicate(table, spiral)
    assert features.hash_distance(table, nudged) < features.hash_distance(table, spiral)


@pytest.mark.blender
def test_near_duplicates_are_grouped_and_listed_once(store: ExemplarStore, renders: dict[str, Rendered]) -> None:
    table = add(store, renders["table"])
    nudged = add(store, renders["table_nudged"], source="imported")
    spiral = add(store, renders["spiral"])
    assert table.created and table.duplicate_of is None
    assert nudged.created and nudged.duplicate_of == table.exemplar.id and nudged.exemplar.group_id == table.exemplar.id
    assert spiral.created and spiral.duplicate_of is None and spiral.exemplar.group_id is None
    page = store.list()
    assert page.total == 2 and [e.id for e in page.items] == [spiral.exemplar.id, table.exemplar.id]
    assert page.items[1].group_size == 2
    assert [m.id for m in store.members(table.exemplar.id)] == [table.exemplar.id, nudged.exemplar.id]
    assert [e.id for e in store.list(filters=Filters(source="imported")).items] == [nudged.exemplar.id]
    hits = store.search("wooden table")
    assert [h.exemplar.id for h in hits] == [table.exemplar.id]  # both match the text; the group shows once
    status = store.status()
    assert (status.count, status.groups) == (3, 2)


@pytest.mark.blender
def test_similar_by_hash_without_clip(store: ExemplarStore, renders: dict[str, Rendered]) -> None:
    table = add(store, renders["table"]).exemplar
    add(store, renders["table_nudged"])
    spiral = add(store, renders["spiral"]).exemplar
    similar = store.similar(table.id)
    assert [h.exemplar.id for h in similar] == [spiral.id]  # its own group is left out
    assert similar[0].why == "hash" and 0 <= similar[0].score < 1
    back = store.similar(spiral.id)
    assert len(back) == 1 and back[0].exemplar.group_id == table.id  # the group's best-matching member, once
    assert store.similar("no-such-id") == []
