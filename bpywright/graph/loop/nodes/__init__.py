"""The graph's nodes: plain functions (state, context) → partial state update, one concept per module."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ...model.llm import deadline
from ..context import RunContext
from ..state import GenState

NodeFn = Callable[[GenState, RunContext], dict[str, Any]]


def timed(fn: NodeFn) -> NodeFn:
    """Add the node's duration to spent_s (the budget counts time spent in nodes, so it survives a resume). The model
    calls the node makes stop when the budget left runs out (llm.deadline), not only the steps between them."""

    def node(state: GenState, ctx: RunContext) -> dict[str, Any]:
        start = time.monotonic()
        with deadline(start + max(0.0, state.budget_s - state.spent_s)):
            update = fn(state, ctx)
        update["spent_s"] = state.spent_s + (time.monotonic() - start)
        return update

    node.__name__ = fn.__name__
    node.__doc__ = fn.__doc__
    return node
