"""copied_exemplar: a generated script that is an exemplar nearly line for line, and real answers that are not."""

from __future__ import annotations

import json
from pathlib import Path

from bpywright.graph.copies import copied_exemplar
from bpywright.graph.state import ExemplarBrief
from bpywright.recipes import RECIPES_DIR

from .samples import THREE_CUBES

ROOT = Path(__file__).resolve().parents[2]
RECIPES = [ExemplarBrief(id=p.stem, prompt=p.stem, script=p.read_text(encoding="utf-8")) for p in sorted(RECIPES_DIR.glob("[a-z]*.py"))]


def test_an_edited_copy_is_found_and_its_exemplar_named() -> None:
    table = next(e for e in RECIPES if e.id == "wooden_table")
    edited = table.script.replace("TABLE_HEIGHT = 0.8", "TABLE_HEIGHT = 0.45").replace("Table", "Chair")
    edited = "# A red chair\n" + edited.replace("(0.45, 0.28, 0.13)", "(0.8, 0.05, 0.05)")
    assert copied_exemplar(edited, RECIPES) == table
    assert copied_exemplar(THREE_CUBES, RECIPES) is None
    assert copied_exemplar(None, RECIPES) is None and copied_exemplar(table.script, []) is None


def test_no_script_the_real_model_wrote_in_the_benchmark_counts_as_a_copy() -> None:
    """The 1.5B's 90 benchmark answers (one-shot, retrieval, loop) reuse the exemplars' helpers, not whole scripts."""
    rows = sorted((ROOT / "bench" / "results" / "generation" / "qwen2.5-coder-1.5b").glob("[!s]*/*.json"))
    scripts = [s for p in rows if (s := json.loads(p.read_text(encoding="utf-8")).get("script"))]
    assert len(scripts) >= 60
    assert [s[:60] for s in scripts if copied_exemplar(s, RECIPES) is not None] == []
