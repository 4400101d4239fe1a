"""Where the graph goes after a node: offline or generate; accept, heal or give up (bounded by rounds and budget)."""

from __future__ import annotations

from typing import Literal

from .state import GenState


def after_retrieve(state: GenState) -> Literal["generate", "fallback"]:
    """With an LLM, generate; without one, return the nearest verified exemplar."""
    return "generate" if state.llm else "fallback"


def after_generate(state: GenState) -> Literal["validate", "give_up"]:
    """Validate the new attempts, unless the LLM could not answer."""
    return "give_up" if state.error else "validate"


def after_critic(state: GenState) -> Literal["accept", "heal", "give_up"]:
    """Accept the current attempt, heal it, or stop when rounds or budget are used up."""
    current = state.attempt(state.current)
    if current is not None and current.critique is not None and current.critique.accepted:
        return "accept"
    if state.error or current is None or state.rounds >= state.max_rounds or state.spent_s >= state.budget_s:
        return "give_up"
    return "heal"


def after_heal(state: GenState) -> Literal["validate", "give_up"]:
    """Validate the patched attempt, unless the LLM could not answer."""
    return "give_up" if state.error else "validate"


def recursion_limit(max_rounds: int) -> int:
    """Graph steps one request may take: retrieve, generate, validate, critic, 3 per heal round, the end, and slack."""
    return 8 + 3 * max_rounds + 4
