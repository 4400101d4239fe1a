"""Durable runs (resume by thread id from the SQLite checkpoints), offline mode, the exemplar store, the symbol index."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bpywright.graph.loop.events import ProgressEvent
from bpywright.graph.loop.run import RunNotFound, generate
from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.ingest.index import build_index
from bpywright.ingest.symbols import Symbol, write_symbols
from bpywright.recipes import all_recipes

from .samples import DRIFT_CUBES, PROMPT, THREE_CUBES, fenced


class Interrupted(Exception):
    """Raised from on_event to stop a run mid-way, like a killed process."""


@pytest.mark.blender
def test_resume_after_interruption_continues_from_the_last_checkpoint(settings, fake: FakeLLM, render_pool, events) -> None:
    fake.script("generate", fenced(THREE_CUBES)).script("critic", critic_json(0.9))

    def stop_at_first_run(event: ProgressEvent) -> None:
        events(event)
        if event.node == "run":
            raise Interrupted

    with pytest.raises(Interrupted):
        generate(PROMPT, settings=settings, pool=render_pool, on_event=stop_at_first_run, thread_id="t-resume")
    assert events.nodes() == ["retrieve", "generate", "lint", "run"]
    db = settings.runs_dir / "checkpoints.sqlite"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id = 't-resume'").fetchone()[0] >= 3
    assert not (settings.runs_dir / "t-resume" / "script.py").exists()

    events.clear()
    result = generate("", settings=settings, pool=render_pool, on_event=events, thread_id="t-resume", resume=True)
    assert result.outcome == "accepted" and result.prompt == PROMPT and result.script == THREE_CUBES
    assert events.nodes() == ["lint", "run", "critic", "accept", "done"]  # validate re-ran; retrieve/generate did not
    assert fake.roles_asked() == ["generate", "critic"]  # the generated script came from the checkpoint
    assert (settings.runs_dir / "t-resume" / "script.py").read_text() == THREE_CUBES

    again = generate("", settings=settings, pool=render_pool, thread_id="t-resume", resume=True)  # finished: same result
    assert again.outcome == "accepted" and again.script_path == result.script_path and fake.roles_asked() == ["generate", "critic"]


@pytest.mark.blender
def test_resume_of_an_unknown_thread_and_reuse_of_a_taken_one_are_refused(settings, fake: FakeLLM, render_pool) -> None:
    with pytest.raises(RunNotFound, match="no run with thread id nope"):
        generate("", settings=settings, pool=render_pool, thread_id="nope", resume=True)
    fake.script("generate", "no code at all")
    generate(PROMPT, settings=dataclasses.replace(settings, max_heal_rounds=0), pool=render_pool, thread_id="taken")
    with pytest.raises(RunNotFound, match="--resume"):
        generate(PROMPT, settings=settings, pool=render_pool, thread_id="taken")


@pytest.mark.blender
def test_a_resumed_run_keeps_the_version_of_its_checkpoint(settings, render_pool, interrupted_run, events) -> None:
    from bpywright.graph.loop.run import VersionConflict, resumed_version

    interrupted_run(settings, "t-52", version="5.2")  # the 4.5 pool runs it: only the target is under test
    elsewhere = dataclasses.replace(settings, blender_version="4.5")  # e.g. BPYWRIGHT_BLENDER_VERSION differs on resume
    assert resumed_version(elsewhere, "t-52") == "5.2" and resumed_version(elsewhere, "t-52", asked="5.2.3") == "5.2"
    with pytest.raises(VersionConflict, match="targets Blender 5.2 .*not 4.2.* without --blender-version"):
        resumed_version(elsewhere, "t-52", asked="4.2")
    with pytest.raises(VersionConflict, match="start a new run with --blender-version 4.5"):
        generate("", settings=elsewhere, pool=render_pool, thread_id="t-52", resume=True, version="4.5", on_event=events)
    assert events.nodes() == []  # refused before any node ran
    with pytest.raises(RunNotFound, match="no run with thread id nope"):
        resumed_version(elsewhere, "nope")

    result = generate("", settings=elsewhere, pool=render_pool, thread_id="t-52", resume=True, on_event=events)
    assert result.outcome == "accepted" and result.blender_version == "5.2"
    assert events.nodes()[:2] == ["lint", "run"] and result.lint_report is not None
    assert result.lint_report.blender_version.startswith("5.2")  # the resumed lint used the run's target, not settings'


@pytest.mark.blender
def test_offline_returns_a_validated_recipe_labelled_retrieved(offline_settings, render_pool, events) -> None:
    result = generate("a low-poly pine tree on a snowy ground", settings=offline_settings, pool=render_pool, on_event=events)
    pine = next(r for r in all_recipes() if r.name == "low_poly_pine")
    assert result.outcome == "retrieved" and result.script == pine.source
    assert result.message.startswith("retrieved, no LLM configured")
    assert "BPYWRIGHT_LLM_BASE_URL=http://HOST:8000/v1" in result.message and "vllm serve" in result.message
    assert result.run_report is not None and result.run_report.ok and result.run_report.render is not None
    assert result.run_report.render.width == 64  # rendered now, by this run
    assert Path(result.render_path or "").is_file() and Path(result.report_path or "").is_file()
    assert events.nodes() == ["retrieve", "run", "fallback", "done"]


@pytest.mark.blender
def test_concurrent_requests_share_one_pool_and_one_checkpoint_database(offline_settings, render_pool) -> None:
    from concurrent.futures import ThreadPoolExecutor

    prompts = ["a wooden table", "a checkerboard plane"]
    with ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda p: generate(p, settings=offline_settings, pool=render_pool), prompts))
    assert [r.outcome for r in results] == ["retrieved", "retrieved"] and results[0].thread_id != results[1].thread_id
    assert results[0].script != results[1].script and all(Path(r.render_path or "").is_file() for r in results)


def _open_and_read(db: Path, barrier: Any) -> str | None:
    """Open the checkpointer on db once every opener is ready, and read through it; the error, if any, as text."""
    from bpywright.graph.loop.build import sqlite_checkpointer

    try:
        barrier.wait()
        with sqlite_checkpointer(db) as saver, saver.cursor(transaction=False) as cur:
            cur.execute("SELECT count(*) FROM checkpoints")
        return None
    except Exception as e:  # reported, so the assertion shows which opener failed and how
        return repr(e)


def _open_read_and_tell(db: Path, barrier: Any, results: Any) -> None:
    results.put(_open_and_read(db, barrier))


def test_openers_of_a_fresh_checkpoint_database_do_not_lock_each_other_out(tmp_path) -> None:
    """Two openers setting up a fresh database deadlock in SQLite ("database is locked" at once, no busy wait): a
    service's concurrent requests (threads) and a CLI run beside it (another process) must both get through."""
    import multiprocessing
    import threading
    from concurrent.futures import ThreadPoolExecutor

    for trial in range(12):  # before the fix, about 4 in 10 fresh databases failed with 4 threads
        db = tmp_path / f"threads{trial}" / "checkpoints.sqlite"
        barrier = threading.Barrier(4)
        with ThreadPoolExecutor(4) as ex:
            errors = list(ex.map(_open_and_read, [db] * 4, [barrier] * 4))
        assert errors == [None] * 4
    fork = multiprocessing.get_context("fork")
    for trial in range(6):  # across processes only the retry helps (1 in 8 failed before)
        db = tmp_path / f"processes{trial}" / "checkpoints.sqlite"
        barrier, results = fork.Barrier(4), fork.SimpleQueue()
        openers = [fork.Process(target=_open_read_and_tell, args=(db, barrier, results)) for _ in range(4)]
        for p in openers:
            p.start()
        for p in openers:
            p.join(60)
        assert [p.exitcode for p in openers] == [0] * 4 and [results.get() for _ in openers] == [None] * 4
    with sqlite3.connect(tmp_path / "threads0" / "checkpoints.sqlite") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


@pytest.mark.blender
def test_offline_rule_heals_an_exemplar_that_fails_here(offline_settings, render_pool) -> None:
    from bpywright.graph.loop.context import RunContext
    from bpywright.graph.loop.nodes.fallback import rule_healed
    from bpywright.graph.loop.state import Attempt
    from bpywright.graph.loop.validation import validate_one

    ctx = RunContext(settings=offline_settings, thread_id="t-offline-heal", pool=render_pool)
    old = validate_one(Attempt(index=0, origin="retrieved", script=DRIFT_CUBES, note="imported exemplar"), ctx)
    assert old.run is not None and old.run.status == "error"
    healed = rule_healed(old, "4.5", ctx)
    assert healed is not None and healed.ran_ok and healed.parent == 0 and "scene-objects-link" in healed.note


def test_make_graph_is_the_langgraph_json_factory(offline_settings) -> None:
    import importlib
    import json

    spec = json.loads((Path(__file__).parents[2] / "langgraph.json").read_text())["graphs"]["bpywright"]
    module, name = spec.split(":")
    graph = getattr(importlib.import_module(module), name)()
    assert set(graph.get_graph().nodes) >= {"retrieve", "generate", "validate", "critic", "heal", "accept", "give_up", "fallback"}


@pytest.mark.blender
def test_an_accepted_script_is_added_to_the_exemplar_store(settings, fake: FakeLLM, render_pool) -> None:
    from bpywright.exemplars.store import ExemplarStore

    fake.script("generate", fenced(THREE_CUBES)).script("critic", critic_json(0.9))
    with ExemplarStore.open(settings, clip=False) as store:
        result = generate(PROMPT, settings=settings, pool=render_pool, store=store)
        assert result.outcome == "accepted" and "stored as exemplar" in result.message
        stored = store.nearest(PROMPT, "4.5", k=1)
    assert stored and stored[0].script == THREE_CUBES and stored[0].source == "generated" and stored[0].prompt == PROMPT
    assert stored[0].render_path is not None and "bpy.ops.mesh.primitive_cube_add" in stored[0].symbols


DOCS = "https://docs.blender.org/api/4.5/"


def small_index(settings) -> None:
    """A BM25-only index of a few real 4.5 symbols where SymbolIndex.load(settings.index_for('4.5')) finds it."""
    rows = [
        ("bpy.ops.mesh.primitive_cube_add", "operator", "Construct a cube mesh", "(size=2.0, location=(0.0, 0.0, 0.0))"),
        (
            "bpy.ops.mesh.primitive_uv_sphere_add",
            "operator",
            "Construct a spherical mesh with quad faces",
            "(radius=1.0, location=(0.0, 0.0, 0.0))",
        ),
        ("bpy.types.Material.diffuse_color", "property", "Diffuse color of the material", None),
        ("bpy.types.BlendDataMaterials.new", "function", "Add a new material to the main database", "(name)"),
    ]
    symbols = [
        Symbol(
            name=n,
            kind=k,
            description=d,
            blender_version="4.5",
            signature=s,
            uri=f"{DOCS}{n.rsplit('.', 1)[0]}.html#{n}",
            parent=n.rsplit(".", 1)[0],
        )
        for n, k, d, s in rows
    ]
    folder = settings.index_for("4.5")
    folder.mkdir(parents=True)
    write_symbols(symbols, folder / "symbols.jsonl")
    build_index(folder, settings=dataclasses.replace(settings, embedder="none"))


@pytest.mark.blender
def test_retrieved_symbols_reach_the_generator_prompt(settings, fake: FakeLLM, render_pool, events) -> None:
    settings = dataclasses.replace(settings, embedder="none")
    small_index(settings)
    fake.script("generate", fenced(THREE_CUBES)).script("critic", critic_json(0.9))
    result = generate(PROMPT, settings=settings, pool=render_pool, on_event=events)
    assert result.outcome == "accepted" and "bpy.ops.mesh.primitive_cube_add" in result.symbols
    assert "symbols from the 4.5 index" in events[0].detail
    prompt = fake.chat_requests[0]["messages"][1]["content"]
    line = next(x for x in prompt.splitlines() if x.startswith("- bpy.ops.mesh.primitive_cube_add"))
    assert "(size=2.0" in line and "Construct a cube mesh" in line and f"<{DOCS}bpy.ops.mesh.html#bpy.ops.mesh.primitive_cube_add>" in line
