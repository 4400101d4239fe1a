"""CLIP on (a randomly initialised tiny open_clip model: real code, no weights) and CLIP off with a reason."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from bpywright.config import Settings
from bpywright.exemplars.store import ExemplarStore

from .conftest import Rendered
from .test_renders import add


@pytest.mark.blender
def test_encoder_gives_normalised_float32_vectors(tiny_clip, renders: dict[str, Rendered]) -> None:
    image, text = tiny_clip.encode_image(renders["table"].render), tiny_clip.encode_text("a wooden table")
    assert image.dtype == np.float32 and image.shape == text.shape == (tiny_clip.dim,)
    assert abs(float(np.linalg.norm(image)) - 1) < 1e-5 and abs(float(np.linalg.norm(text)) - 1) < 1e-5
    assert not np.allclose(image, tiny_clip.encode_image(renders["spiral"].render))


@pytest.mark.blender
def test_clip_search_similar_persistence_and_rebuild(tmp_path: Path, tiny_clip, renders: dict[str, Rendered]) -> None:
    db, files = tmp_path / "exemplars.sqlite", tmp_path / "files"
    with ExemplarStore(db, files, clip=tiny_clip) as store:
        status = store.status()
        assert status.clip_enabled and "random init" in status.clip_reason
        table = add(store, renders["table"]).exemplar
        add(store, renders["table_nudged"])
        spiral = add(store, renders["spiral"]).exemplar
        assert table.clip and spiral.clip
        hits = store.search("qwxyz")  # no word matches: only CLIP text→image can rank anything
        assert {h.why for h in hits} == {"clip"} and {h.exemplar.group_id or h.exemplar.id for h in hits} == {table.id, spiral.id}
        assert any("text" in h.why for h in store.search("copper spiral"))
        similar = store.similar(table.id)
        assert [h.exemplar.id for h in similar] == [spiral.id] and similar[0].why == "clip"
        expected = similar[0].score
    index_file = db.with_name("exemplars.clip.faiss")
    assert index_file.is_file()
    rows = sqlite3.connect(db).execute("SELECT COUNT(*), MIN(LENGTH(vector)) FROM clip_vectors").fetchone()
    assert rows == (3, 4 * tiny_clip.dim)  # the vectors are in SQLite, the source of truth

    with ExemplarStore(db, files, clip=tiny_clip) as store:  # the persisted index is loaded, not rebuilt
        assert store.similar(table.id)[0].score == expected
        assert store._index is not None and store._index.rebuilt == 0

    index_file.unlink()
    with ExemplarStore(db, files, clip=tiny_clip) as store:  # rebuilt from the DB's blobs
        again = store.similar(table.id)
        assert [h.exemplar.id for h in again] == [spiral.id] and abs(again[0].score - expected) < 1e-5
        assert store._index is not None and store._index.rebuilt == 1
    assert index_file.is_file()


@pytest.mark.blender
def test_vectors_added_while_clip_was_off_are_backfilled(tmp_path: Path, tiny_clip, renders: dict[str, Rendered]) -> None:
    db, files = tmp_path / "exemplars.sqlite", tmp_path / "files"
    with ExemplarStore(db, files) as store:
        spiral = add(store, renders["spiral"]).exemplar
        assert not spiral.clip and store.similar(spiral.id) == []
    with ExemplarStore(db, files, clip=tiny_clip) as store:
        assert store.backfill_clip() == 1 and store.backfill_clip() == 0
        assert store.get(spiral.id).clip  # type: ignore[union-attr]


def settings_for(tmp_path: Path, **changes) -> Settings:
    return dataclasses.replace(Settings(), artifacts=tmp_path / "artifacts", **changes)


def test_clip_off_when_nothing_is_configured(tmp_path: Path) -> None:
    with ExemplarStore.open(settings_for(tmp_path)) as store:
        status = store.status()
    assert not status.clip_enabled and "BPYWRIGHT_CLIP_WEIGHTS" in status.clip_reason
    assert status.db_path == str(tmp_path / "artifacts" / "exemplars" / "exemplars.sqlite")


@pytest.mark.blender
def test_clip_off_with_a_reason_for_a_bogus_weights_path(tmp_path: Path, renders: dict[str, Rendered]) -> None:
    missing = tmp_path / "no-such-checkpoint.pt"
    with ExemplarStore.open(settings_for(tmp_path, clip_weights=missing)) as store:
        status = store.status()
        assert not status.clip_enabled and str(missing) in status.clip_reason and "not found" in status.clip_reason
        table = add(store, renders["table"]).exemplar  # the store still works: text + hashes
        assert not table.clip and store.search("table")[0].exemplar.id == table.id


def test_clip_off_with_a_reason_for_weights_that_do_not_load(tmp_path: Path, tiny_clip_name: str) -> None:
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"this is not a checkpoint")
    with ExemplarStore.open(settings_for(tmp_path, clip_weights=garbage, clip_model=tiny_clip_name)) as store:
        status = store.status()
    assert not status.clip_enabled and "could not load CLIP" in status.clip_reason


def test_clip_off_offline_for_a_pretrained_tag_not_in_the_cache(tmp_path: Path, tiny_clip_name: str, monkeypatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-hf-cache"))  # nothing cached; no network needed to say so
    monkeypatch.setenv("HOME", str(tmp_path))
    with ExemplarStore.open(settings_for(tmp_path, clip_model="ViT-B-32", clip_pretrained="laion2b_s34b_b79k")) as store:
        status = store.status()
    assert not status.clip_enabled and "not in the local cache" in status.clip_reason


@pytest.mark.blender
def test_clip_on_from_a_local_checkpoint(tmp_path: Path, tiny_clip, tiny_clip_name: str, renders: dict[str, Rendered]) -> None:
    import torch

    checkpoint = tmp_path / "tiny.pt"
    torch.save(tiny_clip.model.state_dict(), checkpoint)
    with ExemplarStore.open(settings_for(tmp_path, clip_weights=checkpoint, clip_model=tiny_clip_name)) as store:
        assert store.clip.loaded is None  # lazy: nothing loaded until CLIP is needed
        quick = store.status(load_clip=False)
        assert not quick.clip_enabled and "not loaded yet" in quick.clip_reason and store.clip.loaded is None
        status = store.status()
        assert status.clip_enabled and str(checkpoint) in status.clip_reason
        loaded = store.clip.loaded
        assert loaded is not None and str(checkpoint.resolve()) in loaded.key
        assert np.allclose(loaded.encode_text("a table"), tiny_clip.encode_text("a table"), atol=1e-5)  # the weights were loaded
        assert add(store, renders["spiral"]).exemplar.clip
