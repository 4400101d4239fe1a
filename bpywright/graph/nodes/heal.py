"""heal: the deterministic rule healer first; otherwise an LLM patch (unified diff or full replacement) from the failure."""

from __future__ import annotations

import re
import time
from typing import Any

from ...harness.lint import render_fix_block
from ...rules.base import FixScope
from ...rules.families.imports.missing_import import CONSOLE, IMPORTS
from ...rules.healer import heal_once
from ...rules.pack import BY_ID, apply_rules
from ...rules.unbound import NOT_DEFINED, undefined_names
from ..borrow import borrow_helpers, code_blocks
from ..builders import call_builders, uncalled_builders
from ..context import RunContext
from ..copies import copied_exemplar, describe, shown_sources
from ..extract import Extracted, extract_script
from ..framing import framed
from ..llm import HOW_TO_CONFIGURE, LLMError, reply_budget
from ..missing import insert_definitions
from ..patch import PatchError, apply_unified_diff, merge_fragment, merge_statements
from ..prompting import definition_messages, heal_messages, render, replacement_request
from ..routing import MAX_RULE_STEPS
from ..state import Attempt, ExemplarBrief, GenState, SymbolBrief
from ..streaming import token_progress
from .critic import unbuilt
from .generate import new_attempts
from .retrieve import brief

MAX_DOC_SYMBOLS = 6
_NAME = re.compile(r"[A-Za-z_][\w.]*")


def failure_of(a: Attempt) -> str:
    """What went wrong, for the prompt: the traceback (or status), or why the reply was unusable."""
    if a.failure:
        return a.failure
    if a.run is None or a.run.ok:
        return ""
    if a.run.exception is None:
        return f"{a.run.failure}: {(a.run.stderr or '')[-600:]}"
    return f"{a.run.failure_with_line}\n{a.run.exception.traceback[-1500:]}".rstrip()


def involved_symbols(state: GenState, ctx: RunContext, a: Attempt, failure: str) -> list[SymbolBrief]:
    """Docs of the API the failure touches: retrieved symbols named in the failing line or error, then index hits for them."""
    line = ""
    if a.script and a.run and a.run.exception and a.run.exception.line:
        lines = a.script.splitlines()
        line = lines[a.run.exception.line - 1] if 0 < a.run.exception.line <= len(lines) else ""
    words = {w.rsplit(".", 1)[-1] for w in _NAME.findall(f"{line} {failure[:300]}")}
    chosen = [s for s in state.symbols if s.name.rsplit(".", 1)[-1] in words]
    if ctx.index is not None and (line or failure):
        seen = {s.name for s in chosen}
        chosen += [brief(h.symbol) for h in ctx.index.search(f"{line} {failure[:200]}", k=4) if h.symbol.name not in seen]
    return chosen[:MAX_DOC_SYMBOLS]


def llm_patch(state: GenState, ctx: RunContext, a: Attempt) -> tuple[str | None, str]:
    """(patched script or None, how it was obtained / why not): a diff is applied; one that does not apply asks for a replacement."""
    assert a.script is not None
    if ctx.llm is None:
        raise LLMError(f"no LLM configured: {HOW_TO_CONFIGURE}")
    failure = failure_of(a)
    fix_block = render_fix_block(a.script, a.lint) if a.lint is not None and a.lint.blocking else ""
    critique = a.critique if a.run is not None and a.run.ok else None
    messages = heal_messages(
        state.prompt,
        state.version,
        a.script,
        failure=failure,
        fix_block=fix_block,
        critique=critique,
        symbols=involved_symbols(state, ctx, a, failure),
    )
    budget = reply_budget(a.script)
    reply = ctx.llm.chat(messages, on_token=token_progress(ctx, "heal", len(state.attempts)), max_tokens=budget)[0]
    keep_reply(ctx, len(state.attempts), "heal", reply)
    found = extract_script(reply)
    line = a.run.exception.line if a.run is not None and a.run.exception is not None else None
    if (usable := _usable(a.script, found, line)) is not None and not _same(usable[0], a.script):
        return usable[0], f"LLM patch: {usable[1]}"
    if usable is not None:  # the 1.5B gave the script back unchanged, three rounds running on the syringe
        still = f": it still fails with {a.run.failure_with_line}" if a.run is not None and not a.run.ok else ""
        why, first = f"it is the script you were given, unchanged{still}", "reply unchanged"
    elif found.diff is not None:
        try:
            return apply_unified_diff(a.script, found.diff), "LLM patch: unified diff"
        except PatchError as exc:
            why, first = str(exc), "diff did not apply"
    else:
        why, first = _unusable(a.script, found), "reply unusable"
    # One more turn in the same round: the whole script, please (a small model often answers the follow-up well).
    retry = ctx.llm.chat(
        [*messages, {"role": "assistant", "content": reply}, replacement_request(why, diff=found.diff is not None)],
        on_token=token_progress(ctx, "heal", len(state.attempts)),
        max_tokens=budget,
    )[0]
    keep_reply(ctx, len(state.attempts), "heal-followup", retry)
    again = extract_script(retry)
    if (usable := _usable(a.script, again, line)) is not None and not _same(usable[0], a.script):
        return usable[0], f"LLM patch: {first} ({why}); {usable[1]}"
    later = "the script unchanged again" if usable is not None else _unusable(a.script, again)
    return None, f"LLM patch unusable: {first} ({why}) and the follow-up was unusable too: {later}"


def keep_reply(ctx: RunContext, index: int, turn: str, text: str) -> None:
    """A heal turn's raw reply, kept in the run's folder (attempts/NN-TURN.txt): how a patch was read, or why it was not."""
    folder = ctx.run_dir / "attempts"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{index:02d}-{turn}.txt").write_text(text, encoding="utf-8")


def define_missing(state: GenState, ctx: RunContext, a: Attempt) -> tuple[str, str] | None:
    """(script, how) when the run failed on a name the script never defines and the model's short answer defines it;
    None when that is not the failure or the answer defines none of the names (then the whole-script patch follows)."""
    if a.script is None or a.run is None or a.run.ok or ctx.llm is None:
        return None
    failure = failure_of(a)
    found = NOT_DEFINED.search(failure)
    names = [n for n in undefined_names(a.script) if n not in IMPORTS and n not in CONSOLE]  # imports are the rules' (bpy!)
    if found is None or found.group(1) not in names:
        return None
    messages = definition_messages(state.prompt, state.version, a.script, names, failure)
    reply = ctx.llm.chat(messages, on_token=token_progress(ctx, "heal", len(state.attempts)))[0]
    keep_reply(ctx, len(state.attempts), "definitions", reply)
    found_code = extract_script(reply).code or reply  # a bare `NAME = value` line is an answer too
    done = insert_definitions(a.script, found_code, names)
    if done is None:
        return None
    return done[0], f"LLM definitions: {', '.join(done[1])} (used, never defined)"


def _usable(script: str, found: Extracted, line: int | None = None) -> tuple[str, str] | None:
    """(new script, how) from a reply's code: corrected definitions merged, a whole valid script, or a few changed
    statements merged (patch.merge_statements; line: where the run failed); None otherwise."""
    merged = merge_fragment(script, found.code) if found.code is not None else None
    if merged is not None:
        return merged, "corrected definitions merged into the script"
    if found.code is not None and found.failure is None and _fragment(script, found) is None:
        return found.code, "full replacement"
    return merge_statements(script, found.code, line) if found.code is not None and found.failure is None else None


def _same(one: str, other: str) -> bool:
    """The same script, but for trailing spaces and blank lines at its ends."""

    def lines(text: str) -> list[str]:
        return [line.rstrip() for line in text.strip("\n").splitlines()]

    return lines(one) == lines(other)


def _fragment(script: str, found: Extracted) -> str | None:
    """Why valid code is still not the whole script: it lacks the `import bpy` the script has and is under half its length
    (a small model answers with the few lines it changed; run alone they fail at once, or worse, run and build a fraction
    of the scene)."""
    if found.code is None or found.failure is not None:
        return None
    if _imports_bpy(script) and not _imports_bpy(found.code) and _lines(found.code) * 2 < _lines(script):
        return "the reply's code is a fragment without `import bpy`, not the whole script"
    return None  # (as long as half the script or more: the script rewritten, its import forgotten; the rules add it)


def _lines(code: str) -> int:
    return sum(1 for line in code.splitlines() if line.strip())


def _unusable(script: str, found: Extracted) -> str:
    """Why a reply's code cannot be used as it is: not Python, a fragment, or no code at all."""
    return found.failure or _fragment(script, found) or "no script"


def _imports_bpy(code: str) -> bool:
    return re.search(r"^\s*(import\s+bpy\b|from\s+bpy\b)", code, re.MULTILINE) is not None


def with_imports(script: str, version: str) -> str:
    """The script with the imports it uses and never wrote (the missing-import rule, always right): a rewrite that forgot
    `import bpy` is otherwise judged by its dozens of undefined-name findings and discarded before the rule could add it
    (the 1.5B's chair: 26 blocking findings, all `bpy`)."""
    return apply_rules(script, [(BY_ID["missing-import"], FixScope(version))])[0]


def free_step(state: GenState, a: Attempt, index: int, script: str, how: str, applied: list[str]) -> Attempt:
    """A deterministic heal of attempt a (rules, or borrowed helpers): no LLM call, no round."""
    return Attempt(
        index=index,
        origin="heal-rules",
        round=state.rounds,
        parent=a.index,
        script=script,
        note=how,
        rules_applied=applied,
        rules_excluded=a.rules_excluded,
    )


def borrow(state: GenState, a: Attempt) -> tuple[str, list[str]] | None:
    """The attempt with the helpers it called but never defined, copied from the prompt's example or an exemplar."""
    if a.script is None or a.run is None or a.run.ok:
        return None
    sources = [*code_blocks(render("generate_system", version=state.version)), *(e.script for e in state.exemplars)]
    return borrow_helpers(a.script, failure_of(a), sources)


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


def heal_node(state: GenState, ctx: RunContext) -> dict[str, Any]:
    """One heal step on the current attempt: the rules (a free step), else an LLM patch or, for a failing script when
    Settings.repair says so, a fresh generation told how it failed (a round), else (no script at all) a fresh generation
    (a round). With the rounds used up only a rule step is left; without one nothing is added."""
    start = time.monotonic()
    a = state.attempt(state.current)
    assert a is not None
    round_ = state.rounds + 1
    rounds_left = state.rounds < state.max_rounds
    index = len(state.attempts)
    seen = {x.script for x in state.attempts}
    update: dict[str, Any] = {"rounds": round_}
    new: list[Attempt] = []
    ruled = heal_once(a.script, a.run, a.lint, state.version, frozenset(a.rules_excluded)) if a.script is not None else None
    imports_only = ruled is not None and {r.rule for r in ruled.applied} == {"missing-import"}  # always right, never loops
    if ruled is not None and ruled.changed and ruled.script not in seen and (state.rule_steps < MAX_RULE_STEPS or imports_only):
        ids = [r.rule for r in ruled.applied]
        how = f"rules: {', '.join(ids)}" + (f" (explains {a.run.failure})" if ruled.explained and a.run else "")
        update, new = {"rule_steps": state.rule_steps + 1}, [free_step(state, a, index, ruled.script, how, ids)]
    elif (aimed := framed(a.script, a.run)) is not None and aimed not in seen and state.rule_steps < MAX_RULE_STEPS:
        how = "camera: aimed at the built objects (the render was blank although the scene holds geometry)"
        update, new = {"rule_steps": state.rule_steps + 1}, [free_step(state, a, index, aimed, how, ["frame-camera"])]
    elif (called := call_builders(a.script, a.run)) is not None and called not in seen and state.rule_steps < MAX_RULE_STEPS:
        how = f"builders: {', '.join(uncalled_builders(a.script or ''))} called (defined and never called, the script built nothing)"
        update, new = {"rule_steps": state.rule_steps + 1}, [free_step(state, a, index, called, how, ["call-builders"])]
    elif (borrowed := borrow(state, a)) is not None and borrowed[0] not in seen and state.rule_steps < MAX_RULE_STEPS:
        why = a.run.failure if a.run is not None else ""
        how = f"helpers: {', '.join(borrowed[1])} (defined by the prompt's example or an exemplar; explains {why})"
        update, new = {"rule_steps": state.rule_steps + 1}, [free_step(state, a, index, borrowed[0], how, ["borrowed-helper"])]
    elif not rounds_left:
        how = f"no rule applies and the {state.max_rounds} heal round(s) are used"
        ctx.emit("heal", status="nothing left", seconds=time.monotonic() - start, detail=how)
        return {}
    elif a.script is None:
        try:
            new = new_attempts(state, ctx, round_=round_, parent=a.index)
        except LLMError as exc:
            return {"rounds": round_, "error": str(exc)}
        how = "regenerated (no script to patch)"
    elif (fresh := fresh_script(state, a)) is not None:
        how, earlier, copied = fresh
        try:
            new = new_attempts(state, ctx, round_=round_, parent=a.index, earlier=earlier, copied=copied)
        except LLMError as exc:
            return {"rounds": round_, "error": str(exc)}
        new = [x.model_copy(update={"note": f"{how}; {x.note}"}) for x in new]
        update["rule_steps"] = 0  # a new script: its own free rule steps
        if a.run is not None and a.run.ok and not unbuilt(a):  # a copy the critic rejected
            update["critic_rounds"] = state.critic_rounds + 1
    else:
        if a.run is not None and a.run.ok and not unbuilt(a):
            update["critic_rounds"] = state.critic_rounds + 1
        try:
            script, how = define_missing(state, ctx, a) or llm_patch(state, ctx, a)
        except LLMError as exc:
            return {"rounds": round_, "error": str(exc)}
        if script is not None and (imported := with_imports(script, state.version)) != script:
            script, how = imported, f"{how}; the imports it forgot added"
        failure = None if script is not None and script not in seen else (how if script is None else "the patch changed nothing")
        new = [
            Attempt(
                index=index,
                origin="heal-llm",
                round=round_,
                parent=a.index,
                script=script if failure is None else None,
                failure=failure,
                note=how,
                rules_excluded=a.rules_excluded,
            )
        ]
    ctx.emit("heal", attempt=new[0].index, status=how.split(":")[0], seconds=time.monotonic() - start, detail=how)
    return {"attempts": [*state.attempts, *new], **update}
