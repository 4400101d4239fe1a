"""The graph drawn is the graph that runs: every step that asks the model for an answer (a heal, a redraw, a plan
revision) is a node with its own edges, and no node runs another node's loop inside itself."""

from __future__ import annotations

import re
from pathlib import Path

from bpywright.graph.loop.build import build_graph

ARROW = re.compile(r"^\s*(?P<source>\w+) (?P<arrow>-->|-\.->) (?P<target>\w+);$", re.M)


def _edges() -> set[tuple[str, str]]:
    return {(e.source, e.target) for e in build_graph().get_graph().edges}


def test_the_compiled_graph_has_the_model_loops_as_nodes() -> None:
    nodes = set(build_graph().get_graph().nodes)
    assert nodes >= {
        "retrieve",
        "generate",
        "revise_plan",
        "validate",
        "critic",
        "heal",
        "redraw",
        "accept",
        "give_up",
        "fallback",
    }


def test_redraws_heals_and_plan_revisions_are_edges() -> None:
    edges = _edges()
    # a fresh answer for a shape that disagreed: drawn, then validated and reviewed like any other
    assert {("critic", "redraw"), ("redraw", "validate"), ("redraw", "give_up")} <= edges
    assert {("critic", "heal"), ("heal", "validate"), ("validate", "critic"), ("critic", "accept")} <= edges
    # a part plan that fails its own checks: asked again, and again while revisions are left, then validated
    for drawer in ("generate", "heal", "redraw"):
        assert {(drawer, "revise_plan"), (drawer, "validate"), (drawer, "give_up")} == {(s, t) for s, t in edges if s == drawer}
    assert {t for s, t in edges if s == "revise_plan"} == {"revise_plan", "validate", "give_up"}
    # the critic reviews: it reaches the model's answers only through those nodes
    assert {t for s, t in edges if s == "critic"} == {"accept", "heal", "redraw", "give_up"}


def test_the_drawing_in_the_guide_is_the_compiled_graph() -> None:
    """docs/guides/generate.md draws the loop; a node or an edge added to build.py and not drawn there fails here."""
    guide = (Path(__file__).parents[2] / "docs" / "guides" / "generate.md").read_text(encoding="utf-8")
    block = guide.split("```mermaid\n", 1)[1].split("```", 1)[0]
    drawn = {(m["source"], m["target"], m["arrow"] == "-.->") for m in ARROW.finditer(block)}
    compiled = {(e.source, e.target, e.conditional) for e in build_graph().get_graph().edges}
    assert drawn == compiled
