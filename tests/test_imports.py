"""Imports flow one way (ARCHITECTURE.md): lower packages never reach up, no cycles, no private names across packages.

Every import is read with ast, lazy ones inside functions included. A package's `command.py` is that package's slice
of the CLI (a front door, like cli.py), so it may import what the CLI may.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import bpywright

PACKAGE = Path(bpywright.__file__).parent
FRONT_DOORS = {"cli", "cliargs", "service", "mcp"}  # and every package's command.py
LIBRARY = {"harness", "ingest", "exemplars", "rules"}  # DESIGN's lower layer: never imports graph or a front door


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    """Every module of the package except the recipes and the code that runs inside Blender (not part of these arrows)."""
    skip = {PACKAGE / "recipes", PACKAGE / "harness" / "blender"}
    return {_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if not any(s in p.parents for s in skip)}


def _imports(module: str) -> Iterator[tuple[str, str | None]]:
    """(module imported, name taken from it or None) for each import of a bpywright module, relative ones resolved."""
    path = _modules()[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names if alias.name.startswith("bpywright"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("bpywright"):
                yield from ((target, alias.name) for alias in node.names)


def _target(imported: str, name: str | None) -> str:
    """The module an import names: `from .pkg import mod` names pkg.mod, `from .mod import f` names mod."""
    full = f"{imported}.{name}" if name else imported
    return full if full in _modules() else imported


def _area(module: str) -> str:
    """The top-level piece a module belongs to: harness for bpywright.harness.lint, cli for bpywright.cli."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _is_front_door(module: str) -> bool:
    return _area(module) in FRONT_DOORS or module.endswith(".command") or module == "bpywright.__main__"


@cache
def _edges() -> frozenset[tuple[str, str]]:
    return frozenset({(m, _target(i, n)) for m in _modules() for i, n in _imports(m) if _target(i, n) != m})


def test_the_scan_sees_lazy_and_relative_imports() -> None:
    edges = _edges()
    assert ("bpywright.cli", "bpywright.harness.command") in edges  # a relative import inside build_parser
    assert ("bpywright.harness.command", "bpywright.rules") in edges  # the lint command's rule pack, imported lazily


def test_every_import_names_a_module_that_exists() -> None:
    """A relative import inside a function runs only when the function does: one left pointing at a module's old place
    after a move fails here, not in the middle of a run."""
    outside = ("bpywright.recipes", "bpywright.harness.blender")  # not scanned, but they exist
    found = sorted(
        (m, i)
        for m in _modules()
        for i, _ in _imports(m)
        if i not in _modules() and not any(i == o or i.startswith(o + ".") for o in outside)
    )
    assert found == []


def test_the_harness_does_not_import_the_rules() -> None:
    """rules builds on the harness (diagnostics, reports); the lint takes its rule pack from the caller."""
    found = sorted((m, t) for m, t in _edges() if _area(m) == "harness" and not _is_front_door(m) and _area(t) == "rules")
    assert found == []


def test_the_library_never_imports_graph_or_a_front_door() -> None:
    found = sorted(
        (m, t) for m, t in _edges() if _area(m) in LIBRARY and not _is_front_door(m) and (_area(t) == "graph" or _is_front_door(t))
    )
    assert found == []


def test_front_doors_do_not_reach_into_graph_nodes() -> None:
    """Nodes are the graph's inside; what a front door shares with them lives in the package below (exemplars.teach)."""
    assert sorted((m, t) for m, t in _edges() if _is_front_door(m) and t.startswith("bpywright.graph.loop.nodes")) == []


NODES = "bpywright.graph.loop.nodes"
ROOMS_BELOW_THE_LOOP = ("model", "plans", "reading", "repair", "review")  # graph's rooms that the loop wires together


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_no_node_imports_another_node() -> None:
    """A node is one step of the graph; what two nodes share lives in the room it belongs to (loop.ranking,
    loop.drafts, review.checks …), and the way from one node to the next is an edge (loop.build, loop.routing)."""
    found = sorted((m, t) for m, t in _edges() if _in(m, NODES) and m != NODES and _in(t, NODES) and t != m)
    assert found == []


def test_only_the_wiring_imports_the_nodes() -> None:
    """build wires the nodes; run ends a request that hits LangGraph's limit with the give_up node. Nothing else
    (routing included) reaches into a node."""
    found = sorted((m, t) for m, t in _edges() if _in(t, NODES) and not _in(m, NODES))
    assert ("bpywright.graph.loop.build", f"{NODES}.critic") in found  # the scan sees the wiring
    assert [m for m, _ in found if m not in {"bpywright.graph.loop.build", "bpywright.graph.loop.run"}] == []


def test_graph_rooms_below_the_loop_take_only_its_state_types() -> None:
    """model, plans, reading, repair and review know nothing of the loop but the types an attempt is made of."""
    found = sorted(
        (m, t)
        for m, t in _edges()
        if any(_in(m, f"bpywright.graph.{room}") for room in ROOMS_BELOW_THE_LOOP)
        and _in(t, "bpywright.graph.loop")
        and t != "bpywright.graph.loop.state"
    )
    assert found == []


def _room_arrows(source: str, targets: tuple[str, ...]) -> list[tuple[str, str]]:
    return sorted(
        (m, t) for m, t in _edges() if _in(m, f"bpywright.graph.{source}") and any(_in(t, f"bpywright.graph.{x}") for x in targets)
    )


def test_reading_is_the_floor_of_the_graphs_rooms() -> None:
    """reading (what a request's words ask for) is read by plans, review and repair and reads none of them: the palette
    its colour words are checked against lives in reading (reading.palette), and the plan's parts take it from there."""
    assert ("bpywright.graph.plans.parts", "bpywright.graph.reading.palette") in _edges()
    assert _room_arrows("reading", ("plans", "review", "repair", "model", "loop")) == []


def test_the_model_room_takes_nothing_from_the_repairs_or_the_loop() -> None:
    """model talks to the model and renders and reads its turns: merging a reply into a script is the loop's heal turn
    (loop.heal_llm.usable_code, with repair.patch), the definitions prompt is given the uses repair.missing finds, and
    the prompts read symbols, exemplars and verdicts through the protocols they declare (prompting.ShownSymbol …),
    not the loop's state types."""
    assert ("bpywright.graph.loop.heal_llm", "bpywright.graph.repair.patch") in _edges()
    assert _room_arrows("model", ("repair", "loop")) == []


def test_review_does_not_import_the_model_client() -> None:
    """Review checks an attempt against its request with no model asked: a draw or a rubric call is the loop's."""
    found = sorted((m, t) for m, t in _edges() if _in(m, "bpywright.graph.review") and _in(t, "bpywright.graph.model.llm"))
    assert found == []


DRAWING = {"new_attempts", "new_plan", "revised_plan", "finished", "plan_messages", "generator_messages"}


def test_the_critic_reviews_and_does_not_draw() -> None:
    """Fresh answers and plans (redraws, plan revisions) are drawn by their own nodes, edges of the graph; the critic only
    reviews what they drew."""
    critic = f"{NODES}.critic"
    taken = {(i, n) for i, n in _imports(critic)}
    assert ("bpywright.graph.review.checks", "objective") in taken  # the scan sees the critic's imports
    assert sorted((i, n) for i, n in taken if n in DRAWING or _in(i, "bpywright.graph.loop.drafts")) == []


def test_only_the_cli_imports_command_modules() -> None:
    """A command module is the top of its package (rules.healer once imported the heal command back)."""
    assert sorted((m, t) for m, t in _edges() if t.endswith(".command") and m != "bpywright.cli") == []


def test_no_two_modules_import_each_other() -> None:
    edges = _edges()
    assert sorted((a, b) for a, b in edges if (b, a) in edges and a < b) == []


def test_no_private_name_is_imported_from_another_package() -> None:
    """A name another package needs is public (ingest.apicheck.ImportAliases, attribute_chain): `_x` stays home."""
    found = sorted(
        (m, f"{i}.{n}")
        for m in _modules()
        for i, n in _imports(m)
        if n and n.startswith("_") and not n.startswith("__") and _area(i) != _area(m)
    )
    assert found == []


def test_the_library_packages_form_no_cycle() -> None:
    """Package arrows below the front doors (harness, ingest, exemplars, rules, cluster, …) point one way."""
    arrows: dict[str, set[str]] = {}
    for m, t in _edges():
        if not _is_front_door(m) and not _is_front_door(t) and _area(m) != _area(t) and _area(t) != "bpywright":
            arrows.setdefault(_area(m), set()).add(_area(t))

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in arrows.get(start, ()))

    assert sorted(a for a in arrows if reaches(a, a, set())) == []
