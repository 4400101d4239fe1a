"""heal: the repair strategies in order (free deterministic steps, then an LLM round); the first that applies acts."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ....rules.healer import heal_once
from ...model.llm import LLMError
from ...model.prompting import render
from ...plans.plan import plan_of_script
from ...repair.borrow import borrow_helpers, code_blocks
from ...repair.builders import call_builders, uncalled_builders
from ...repair.framing import framed
from ...review.checks import unbuilt
from ...review.copies import copied_exemplar, describe, shown_sources
from ..context import RunContext
from ..drafts import headed, new_attempts
from ..heal_llm import define_missing, failure_of, llm_patch, with_imports
from ..routing import MAX_RULE_STEPS
from ..state import Attempt, ExemplarBrief, GenState

Update = dict[str, Any]


@dataclass(frozen=True)
class FreeFix:
    """A deterministic repair: the script it makes, how (the event's detail), the rule ids it records; capped: it counts
    against MAX_RULE_STEPS (a missing import alone does not: always right, it never loops)."""

    script: str
    how: str
    rules: list[str]
    capped: bool = True


@dataclass
class Turn:
    """One heal step on the current attempt: what the strategies read, with what they work out computed once."""

    state: GenState
    ctx: RunContext
    attempt: Attempt
    start: float = field(default_factory=time.monotonic)
    fixes: dict[str, FreeFix | None] = field(default_factory=dict)  # a free strategy's fix, by its name

    @classmethod
    def of(cls, state: GenState, ctx: RunContext) -> Turn:
        """The turn on state's current attempt."""
        a = state.attempt(state.current)
        assert a is not None
        return cls(state, ctx, a)

    @property
    def round(self) -> int:
        """The round an LLM strategy uses."""
        return self.state.rounds + 1

    @cached_property
    def seen(self) -> set[str | None]:
        """Every script tried so far: a repair that makes one of them again is no repair."""
        return {x.script for x in self.state.attempts}

    @cached_property
    def fresh(self) -> tuple[str, str, str] | None:
        """fresh_script() for this attempt."""
        return fresh_script(self.state, self.attempt)

    def fix(self, name: str, find: Callable[[Turn], FreeFix | None]) -> FreeFix | None:
        """The free strategy name's fix, found once."""
        if name not in self.fixes:
            self.fixes[name] = find(self)
        return self.fixes[name]

    def added(self, new: list[Attempt], how: str, update: Update) -> Update:
        """The node's update for new attempts made by a strategy, told as a heal event (status: how up to its colon)."""
        seconds = time.monotonic() - self.start
        self.ctx.emit("heal", attempt=new[0].index, status=how.split(":")[0], seconds=seconds, detail=how)
        return {"attempts": [*self.state.attempts, *new], **update}

    def failed(self, exc: LLMError) -> Update:
        """The update when a round's LLM call failed: the round is counted and the error ends the run."""
        return {"rounds": self.round, "error": str(exc)}

    def critic_rounds(self) -> Update:
        """A round on a script that ran and built something is one of the critic's rounds."""
        a = self.attempt
        return {"critic_rounds": self.state.critic_rounds + 1} if a.run is not None and a.run.ok and not unbuilt(a) else {}


@dataclass(frozen=True)
class Strategy:
    """One way to repair an attempt: when it applies, and what it does (the node's whole update)."""

    name: str
    applies: Callable[[Turn], bool]
    act: Callable[[Turn], Update]


# --- the policy's parts: which attempt gets a fresh script instead of a patch, and the free fixes -------------------


def copy_rejected(state: GenState, a: Attempt) -> ExemplarBrief | None:
    """What attempt a copied (an exemplar, a recipe, the system prompt's example): a fresh script replaces a copy in any
    repair mode (a copy is never accepted: it is not a script written for the request)."""
    return copied_exemplar(a.script, shown_sources(state.version, state.exemplars))


def regenerate_after(state: GenState, a: Attempt) -> str | None:
    """How attempt a failed, when this round should write a fresh script rather than patch it (Settings.repair); None to
    patch. A script that runs is always patched: the critic's round improves what is there."""
    if a.script is None or (a.run is not None and a.run.ok and not unbuilt(a)) or state.repair == "patch":
        return None
    if state.repair == "auto":  # patch first; regenerate once a patch of a failing script has been tried
        tried = any(x.origin == "heal-llm" and (p := state.attempt(x.parent)) is not None and not p.ran_ok for x in state.attempts)
        if not tried:
            return None
    if unbuilt(a) and a.critique is not None:
        return "it ran, but " + "; ".join(a.critique.reasons[:3])[:300]
    if a.run is not None and a.run.exception is not None and a.run.exception.line:
        lines = a.script.splitlines()
        at = a.run.exception.line
        code = f" `{lines[at - 1].strip()[:160]}`" if 0 < at <= len(lines) else ""
        return f"line {at}{code} raised {a.run.exception.type}: {a.run.exception.message[:240]}"
    return (a.failure or (a.run.failure if a.run is not None else "") or "it did not run")[:300]


def fresh_script(state: GenState, a: Attempt) -> tuple[str, str, str] | None:
    """(how, earlier, copied) when this round writes a fresh script instead of patching attempt a: a rejected copy of an
    exemplar (copied: that exemplar's request), or a failing script Settings.repair regenerates (earlier: how it failed)."""
    if (copy := copy_rejected(state, a)) is not None:
        how = f"regenerated: #{a.index} is {describe(copy)}; a fresh script, not shown what it copied"
        return how, "", describe(copy)
    if (earlier := regenerate_after(state, a)) is not None:
        return f"regenerated: a fresh script, told how #{a.index} failed ({earlier})", earlier, ""
    return None


def borrow(state: GenState, a: Attempt) -> tuple[str, list[str]] | None:
    """The attempt with the helpers it called but never defined, copied from the prompt's example or an exemplar."""
    if a.script is None or a.run is None or a.run.ok:
        return None
    sources = [*code_blocks(render("generate_system", version=state.version)), *(e.script for e in state.exemplars)]
    return borrow_helpers(a.script, failure_of(a), sources)


def _rules_fix(turn: Turn) -> FreeFix | None:
    a = turn.attempt
    ruled = heal_once(a.script, a.run, a.lint, turn.state.version, frozenset(a.rules_excluded)) if a.script is not None else None
    if ruled is None or not ruled.changed:
        return None
    ids = [r.rule for r in ruled.applied]
    how = f"rules: {', '.join(ids)}" + (f" (explains {a.run.failure})" if ruled.explained and a.run else "")
    return FreeFix(ruled.script, how, ids, capped=set(ids) != {"missing-import"})


def _camera_fix(turn: Turn) -> FreeFix | None:
    if (aimed := framed(turn.attempt.script, turn.attempt.run)) is None:
        return None
    return FreeFix(aimed, "camera: aimed at the built objects (the render was blank although the scene holds geometry)", ["frame-camera"])


def _builders_fix(turn: Turn) -> FreeFix | None:
    a = turn.attempt
    if (called := call_builders(a.script, a.run)) is None:
        return None
    how = f"builders: {', '.join(uncalled_builders(a.script or ''))} called (defined and never called, the script built nothing)"
    return FreeFix(called, how, ["call-builders"])


def _helpers_fix(turn: Turn) -> FreeFix | None:
    a = turn.attempt
    if (borrowed := borrow(turn.state, a)) is None:
        return None
    why = a.run.failure if a.run is not None else ""
    how = f"helpers: {', '.join(borrowed[1])} (defined by the prompt's example or an exemplar; explains {why})"
    return FreeFix(borrowed[0], how, ["borrowed-helper"])


# --- the strategies ---------------------------------------------------------------------------------------------------


def free_step(name: str, find: Callable[[Turn], FreeFix | None]) -> Strategy:
    """A free strategy (no LLM call, no round): it applies when find() makes a script not tried yet, within the cap."""

    def applies(turn: Turn) -> bool:
        fix = turn.fix(name, find)
        within = turn.state.rule_steps < MAX_RULE_STEPS or (fix is not None and not fix.capped)
        return fix is not None and fix.script not in turn.seen and within

    def act(turn: Turn) -> Update:
        fix = turn.fix(name, find)
        assert fix is not None
        a = turn.attempt
        new = Attempt(
            index=len(turn.state.attempts),
            origin="heal-rules",
            round=turn.state.rounds,
            parent=a.index,
            script=fix.script,
            note=fix.how,
            rules_applied=fix.rules,
            rules_excluded=a.rules_excluded,
        )
        return turn.added([new], fix.how, {"rule_steps": turn.state.rule_steps + 1})

    return Strategy(name, applies, act)


def _rounds_used(turn: Turn) -> Update:
    how = f"no rule applies and the {turn.state.max_rounds} heal round(s) are used"
    turn.ctx.emit("heal", status="nothing left", seconds=time.monotonic() - turn.start, detail=how)
    return {}


def _regenerate_missing(turn: Turn) -> Update:
    new = new_attempts(turn.state, turn.ctx, round_=turn.round, parent=turn.attempt.index)
    return turn.added(new, "regenerated (no script to patch)", {"rounds": turn.round})


def _regenerate(turn: Turn) -> Update:
    assert turn.fresh is not None
    how, earlier, copied = turn.fresh
    new = new_attempts(turn.state, turn.ctx, round_=turn.round, parent=turn.attempt.index, earlier=earlier, copied=copied)
    new = headed(new, how)
    # a new script gets its own free rule steps; a copy the critic rejected used one of the critic's rounds
    return turn.added(new, how, {"rounds": turn.round, "rule_steps": 0, **turn.critic_rounds()})


def replans(turn: Turn) -> bool:
    """A plan-built script that ran and the critic rejected, under the plan strategy: its plan is revised with the
    critic's findings (a patch would have the model edit the builder's code, which it is no better at than writing it)."""
    a = turn.attempt
    return turn.state.strategy == "plan" and a.run is not None and a.run.ok and plan_of_script(a.script) is not None


def _replan(turn: Turn) -> Update:
    a = turn.attempt
    reasons = "; ".join(a.critique.reasons[:4]) if a.critique is not None else ""
    earlier = f"the critic rejected the scene it built: {reasons}"[:600]
    new = new_attempts(turn.state, turn.ctx, round_=turn.round, parent=a.index, earlier=earlier)
    how = f"replanned: #{a.index}'s plan revised with the critic's findings"
    new = headed(new, how)
    return turn.added(new, how, {"rounds": turn.round, "rule_steps": 0, **turn.critic_rounds()})


def _patch(turn: Turn) -> Update:
    state, ctx, a = turn.state, turn.ctx, turn.attempt
    script, how = define_missing(state, ctx, a) or llm_patch(state, ctx, a)
    if script is not None and (imported := with_imports(script, state.version)) != script:
        script, how = imported, f"{how}; the imports it forgot added"
    failure = None if script is not None and script not in turn.seen else (how if script is None else "the patch changed nothing")
    new = Attempt(
        index=len(state.attempts),
        origin="heal-llm",
        round=turn.round,
        parent=a.index,
        script=script if failure is None else None,
        failure=failure,
        note=how,
        rules_excluded=a.rules_excluded,
    )
    return turn.added([new], how, {"rounds": turn.round, **turn.critic_rounds()})


# The repair policy, in the order the node tries it: the first strategy that applies acts.
STRATEGIES: tuple[Strategy, ...] = (
    # free steps, bounded by MAX_RULE_STEPS per script (a missing import alone is not): no LLM call, no round
    free_step("rules", _rules_fix),  # the drift rule pack: sure fixes and the rules that explain the failure
    free_step("frame-camera", _camera_fix),  # a blank render of built geometry: the camera aimed at it
    free_step("call-builders", _builders_fix),  # builder functions defined and never called
    free_step("borrow-helpers", _helpers_fix),  # helpers called and never defined, from the prompt's example/exemplars
    # with the rounds used, nothing is left
    Strategy("rounds-used", lambda t: t.state.rounds >= t.state.max_rounds, _rounds_used),
    # a round: one LLM call
    Strategy("regenerate-missing", lambda t: t.attempt.script is None, _regenerate_missing),  # no script to patch
    Strategy("regenerate", lambda t: t.fresh is not None, _regenerate),  # a copy, or Settings.repair says regenerate
    Strategy("replan", replans, _replan),  # a plan-built scene the critic rejected: its plan revised, not its code
    Strategy("patch", lambda t: True, _patch),  # the short definitions turn, else a patch of the whole script
)


def heal_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """One heal step on the current attempt: the first of STRATEGIES that applies (the last, a patch, always does). A
    round whose LLM call fails is counted and ends the run with the error."""
    turn = Turn.of(state, ctx)
    strategy = next(s for s in STRATEGIES if s.applies(turn))
    try:
        return strategy.act(turn)
    except LLMError as exc:
        return turn.failed(exc)
