"""Wiring only: the generation StateGraph (nodes, edges), compiled with a checkpointer; `make_graph` for langgraph.json."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from ...config import Settings
from ...sqlite_setup import set_up
from . import routing
from .context import RunContext
from .nodes import NodeFn, timed
from .nodes.critic import critic_node
from .nodes.fallback import fallback_node
from .nodes.finish import accept_node, give_up_node
from .nodes.generate import generate_node
from .nodes.heal import heal_node
from .nodes.redraw import redraw_node
from .nodes.retrieve import retrieve_node
from .nodes.revise_plan import revise_plan_node
from .nodes.validate import validate_node
from .state import Attempt, ExemplarBrief, GenState, PlanDraft, SymbolBrief

NODES: dict[str, NodeFn] = {
    "retrieve": retrieve_node,
    "generate": generate_node,
    "revise_plan": revise_plan_node,
    "validate": validate_node,
    "critic": critic_node,
    "heal": heal_node,
    "redraw": redraw_node,
    "accept": accept_node,
    "give_up": give_up_node,
    "fallback": fallback_node,
}
CHECKPOINT_TYPES = (Attempt, PlanDraft, SymbolBrief, ExemplarBrief)  # the models stored as channel values


def _bind(fn: NodeFn, default: RunContext | None):
    """A LangGraph node (state, runtime) calling fn(state, context); the runtime's context, else the graph's default."""
    body = timed(fn)

    def node(state: GenState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        ctx = runtime.context
        if ctx is None and default is not None:  # LangGraph tools: the graph's shared pool, this thread's run directory
            from langgraph.config import get_config

            default.worker_pool()
            ctx = dataclasses.replace(default, thread_id=str(get_config().get("configurable", {}).get("thread_id", default.thread_id)))
        if ctx is None:
            raise RuntimeError(
                "the generation graph needs a RunContext: call bpywright.graph.loop.run.generate(), or invoke(..., context=RunContext(...))"
            )
        return body(state, ctx)

    node.__name__ = fn.__name__
    return node


def build_graph(checkpointer: Any = None, *, default_context: RunContext | None = None):
    """The compiled graph: retrieve → generate → validate → critic → ((heal | redraw) → validate → critic)* → accept |
    give_up; generate, heal and redraw → revise_plan (→ revise_plan)* → validate where a part plan fails its own checks
    (or repeats an earlier attempt's script) and a revision is left. Every step that asks the model for an answer is a
    node, so the graph drawn is the graph that runs."""
    graph = StateGraph(GenState, context_schema=RunContext)
    for name, fn in NODES.items():
        graph.add_node(name, _bind(fn, default_context))
    graph.add_edge(START, "retrieve")
    graph.add_conditional_edges("retrieve", routing.after_retrieve, ["generate", "fallback"])
    graph.add_conditional_edges("generate", routing.after_generate, ["revise_plan", "validate", "give_up"])
    graph.add_conditional_edges("revise_plan", routing.after_heal, ["revise_plan", "validate", "give_up"])
    graph.add_edge("validate", "critic")
    graph.add_conditional_edges("critic", routing.after_critic, ["accept", "heal", "redraw", "give_up"])
    graph.add_conditional_edges("heal", routing.after_heal, ["revise_plan", "validate", "give_up"])
    graph.add_conditional_edges("redraw", routing.after_heal, ["revise_plan", "validate", "give_up"])
    for end in ("accept", "give_up", "fallback"):
        graph.add_edge(end, END)
    return graph.compile(checkpointer=checkpointer)


def checkpoint_db(settings: Settings) -> Path:
    """The SQLite checkpoint database: artifacts/runs/checkpoints.sqlite."""
    return settings.runs_dir / "checkpoints.sqlite"


@contextmanager
def sqlite_checkpointer(path: Path) -> Iterator[Any]:
    """A SqliteSaver on path (created as needed) whose serializer revives only the graph's own models."""
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
    from langgraph.checkpoint.sqlite import SqliteSaver

    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    try:
        saver = SqliteSaver(conn, serde=JsonPlusSerializer(allowed_msgpack_modules=list(CHECKPOINT_TYPES)))
        set_up(conn, saver.setup)  # now, and one opener at a time: see sqlite_setup
        yield saver
    finally:
        conn.close()


def make_graph(config: Any = None):
    """Factory for langgraph.json (LangGraph Studio / `langgraph dev`): settings from the environment, the platform's persistence.

    The one Settings.from_env() below the CLI/service (tests/test_settings_layers.py allows it here only): LangGraph's
    server imports this module-level factory itself and has no settings to pass it.
    """
    from ..model.llm import LLMClient

    settings = Settings.from_env()
    default = RunContext(settings=settings, thread_id="langgraph", llm=LLMClient.from_settings(settings))
    return build_graph(default_context=default)
