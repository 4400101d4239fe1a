"""heal's LLM turns: a patch of the failing script (a diff, merged code or a replacement; one follow-up) and the short
definitions turn for a name the script uses and never defines."""

from __future__ import annotations

import re

from ...harness.lint import render_fix_block
from ...rules.base import FixScope
from ...rules.families.imports.missing_import import CONSOLE, IMPORTS
from ...rules.pack import BY_ID, apply_rules
from ...rules.unbound import NOT_DEFINED, undefined_names
from ..model.extract import Extracted, extract_script
from ..model.llm import HOW_TO_CONFIGURE, LLMError, reply_budget
from ..model.prompting import definition_messages, heal_messages, replacement_request
from ..model.replies import fragment_reason, same_script, unusable_reason
from ..repair.missing import constants, insert_definitions, uses
from ..repair.patch import PatchError, apply_unified_diff, merge_fragment, merge_statements
from .context import RunContext
from .state import Attempt, GenState, SymbolBrief, brief
from .streaming import token_progress

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
    if (usable := usable_code(a.script, found, line)) is not None and not same_script(usable[0], a.script):
        return usable[0], f"LLM patch: {usable[1]}"
    if usable is not None:  # the local model gave the script back unchanged, three rounds running on the syringe
        still = f": it still fails with {a.run.failure_with_line}" if a.run is not None and not a.run.ok else ""
        why, first = f"it is the script you were given, unchanged{still}", "reply unchanged"
    elif found.diff is not None:
        try:
            return apply_unified_diff(a.script, found.diff), "LLM patch: unified diff"
        except PatchError as exc:
            why, first = str(exc), "diff did not apply"
    else:
        why, first = unusable_reason(a.script, found), "reply unusable"
    # One more turn in the same round: the whole script, please (a small model often answers the follow-up well).
    retry = ctx.llm.chat(
        [*messages, {"role": "assistant", "content": reply}, replacement_request(why, diff=found.diff is not None)],
        on_token=token_progress(ctx, "heal", len(state.attempts)),
        max_tokens=budget,
    )[0]
    keep_reply(ctx, len(state.attempts), "heal-followup", retry)
    again = extract_script(retry)
    if (usable := usable_code(a.script, again, line)) is not None and not same_script(usable[0], a.script):
        return usable[0], f"LLM patch: {first} ({why}); {usable[1]}"
    later = "the script unchanged again" if usable is not None else unusable_reason(a.script, again)
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
    messages = definition_messages(state.prompt, state.version, names, failure, uses=uses(a.script, names), constants=constants(a.script))
    reply = ctx.llm.chat(messages, on_token=token_progress(ctx, "heal", len(state.attempts)))[0]
    keep_reply(ctx, len(state.attempts), "definitions", reply)
    found_code = extract_script(reply).code or reply  # a bare `NAME = value` line is an answer too
    done = insert_definitions(a.script, found_code, names)
    if done is None:
        return None
    return done[0], f"LLM definitions: {', '.join(done[1])} (used, never defined)"


def with_imports(script: str, version: str) -> str:
    """The script with the imports it uses and never wrote (the missing-import rule, always right): a rewrite that forgot
    `import bpy` is otherwise judged by its dozens of undefined-name findings and discarded before the rule could add it
    (the local model's chair: 26 blocking findings, all `bpy`)."""
    return apply_rules(script, [(BY_ID["missing-import"], FixScope(version))])[0]


def usable_code(script: str, found: Extracted, line: int | None = None) -> tuple[str, str] | None:
    """(new script, how) from a reply's code: corrected definitions merged, a whole valid script, or a few changed
    statements merged (patch.merge_statements; line: where the run failed); None otherwise."""
    merged = merge_fragment(script, found.code) if found.code is not None else None
    if merged is not None:
        return merged, "corrected definitions merged into the script"
    if found.code is not None and found.failure is None and fragment_reason(script, found) is None:
        return found.code, "full replacement"
    return merge_statements(script, found.code, line) if found.code is not None and found.failure is None else None
