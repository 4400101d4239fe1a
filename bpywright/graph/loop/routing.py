"""Where the graph goes after a node: offline or generate; a part plan that fails its own checks to revise_plan; accept,
heal, redraw or give up (bounded by rounds and budget)."""

from __future__ import annotations

from typing import Literal

from ..repair.builders import call_builders
from ..repair.framing import framed
from ..review.agreement import disagreed
from ..review.checks import unbuilt
from .state import Attempt, GenState, PlanDraft

Drawn = Literal["revise_plan", "validate", "give_up"]


def after_retrieve(state: GenState) -> Literal["generate", "fallback"]:
    """With an LLM, generate; without one, return the nearest verified exemplar."""
    return "generate" if state.llm else "fallback"


def after_generate(state: GenState) -> Drawn:
    """Validate the new attempts (their plans revised first where due), unless the LLM could not answer."""
    return "give_up" if state.error else drafted(state)


MAX_PLAN_REVISIONS = 1  # a plan whose own checks fail (floating parts, parts the request names missing) is asked again once


def plan_due(draft: PlanDraft) -> bool:
    """A part plan the revise_plan node asks the model about again: one that failed its own checks or was unusable,
    with a revision left, or one whose script repeats an earlier attempt's (sampled again once)."""
    return draft.resample or ((draft.plan is None or bool(draft.findings)) and draft.drawn <= MAX_PLAN_REVISIONS)


def drafted(state: GenState) -> Literal["revise_plan", "validate"]:
    """revise_plan while a new attempt's part plan is due another answer (drafts.py keeps a draft only while it is
    due: plan_due), else validate."""
    return "revise_plan" if any(a.draft is not None and plan_due(a.draft) for a in state.attempts) else "validate"


MAX_RULE_STEPS = 8  # deterministic rule heals one request may take besides its rounds (they cost no LLM call, a run each:
# a guessed rename is fixed one failing line at a time, and the local model's hamburger spent 4 on obj.materials, 3 lines of it)


def after_critic(state: GenState) -> Literal["accept", "heal", "redraw", "give_up"]:
    """Accept the current attempt, heal it, draw a fresh answer, or stop when rounds (and free rule steps) or budget are
    used up.

    A script that runs but was rejected gets at most max_critic_rounds of the rounds: a small critic's rejections rarely
    lead to a better scene, and each of its rounds costs a whole-script answer (minutes on CPU).

    With its rounds used up, a request may still take a free rule step: the heal node gives up when no rule applies.
    """
    current = state.attempt(state.current)
    if current is not None and current.critique is not None and current.critique.accepted:
        return "accept"
    if state.error or current is None or state.max_rounds <= 0 or state.spent_s >= state.budget_s:
        return "give_up"
    if state.reviews >= max_reviews(state.max_rounds):
        return "give_up"  # the step budget: copies regenerated, free steps and rounds together (LangGraph's limit is above it)
    if redraw_due(state, current):
        return "redraw"  # it passed the checks, and its shape disagreed with verified exemplars: one fresh answer
    if unreviewed(state, current):
        return "give_up"  # it passed the checks; the critic could not say what to change
    if current.run is not None and current.run.ok and state.critic_rounds >= state.max_critic_rounds:
        if state.rule_steps < MAX_RULE_STEPS and framed(current.script, current.run) is not None:
            return "heal"  # a blank render of built geometry: aiming the camera is a free step, not a critic round
        if state.rule_steps < MAX_RULE_STEPS and call_builders(current.script, current.run) is not None:
            return "heal"  # builders defined and never called: calling them is a free step
        if not unbuilt(current):
            return "give_up"  # it runs; the critic's rounds are used (rounds left are for repairing failures)
    if state.rounds >= state.max_rounds and (state.rule_steps >= MAX_RULE_STEPS or current.script is None):
        return "give_up"
    return "heal"


def unreviewed(state: GenState, a: Attempt) -> bool:
    """True for an attempt that passed the objective checks but that the critic model, configured, could not score:
    nothing for a heal to act on, and nothing to accept."""
    c = a.critique
    return state.llm and c is not None and c.objective_ok and not c.llm_scored and not c.accepted


def redraw_due(state: GenState, current: Attempt) -> bool:
    """A fresh answer is drawn (the redraw node): the current one passed the checks and its shape disagreed with the
    verified exemplars of its kind (BPYWRIGHT_REVIEW=neighbours), a redraw and a round are left."""
    c = current.critique
    return c is not None and disagreed(c) and state.redraws < state.max_redraws and state.rounds < state.max_rounds


def after_heal(state: GenState) -> Drawn:
    """Validate the patched, redrawn or revised attempt (a plan due another answer to revise_plan first), unless the LLM
    could not answer or no heal was left to try."""
    fresh = bool(state.attempts) and not state.attempts[-1].checked
    return "give_up" if state.error or not fresh else drafted(state)


def max_reviews(max_rounds: int) -> int:
    """Critic visits one request may take: the first script's, then one per heal (rounds, free rule steps, copies
    regenerated): the loop gives up with its best attempt here, before LangGraph's recursion limit."""
    return 1 + max_rounds + MAX_RULE_STEPS + 2


PLAN_STEPS = 2 * MAX_PLAN_REVISIONS + 1  # revise_plan visits after one draw: its revisions, a sample drawn again, its revisions


def recursion_limit(max_rounds: int) -> int:
    """Graph steps one request may take: retrieve, generate, validate, critic, 3 per heal or redraw (heal, validate,
    critic), PLAN_STEPS revise_plan visits after each draw from the model (the first and one per round), the end,
    slack; routing stops at max_reviews first, and run.generate ends a run that still reaches it with its best."""
    return 4 + 3 * max_reviews(max_rounds) + PLAN_STEPS * (1 + max_rounds) + 4
