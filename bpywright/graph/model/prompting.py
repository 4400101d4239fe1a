"""Render the prompt templates shipped in graph/model/prompts/ (jinja2) into chat messages."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, Protocol

PROMPTS_DIR = Path(__file__).with_name("prompts")
Messages = list[dict[str, str]]


class ShownSymbol(Protocol):
    """What a prompt shows of an API symbol (the loop's SymbolBrief)."""

    name: str
    kind: str
    signature: str | None
    description: str
    uri: str | None


class ShownExemplar(Protocol):
    """What a prompt shows of a verified exemplar (the loop's ExemplarBrief): the request it answers and its script."""

    prompt: str
    script: str


class Verdict(Protocol):
    """What a heal prompt shows of the critic's verdict (the loop's Critique)."""

    reasons: list[str]
    suggested_fix: str | None


@cache
def _environment():
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(PROMPTS_DIR)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,
    )


def render(name: str, **values: Any) -> str:
    """One template (graph/model/prompts/NAME.j2) rendered with values."""
    return _environment().get_template(f"{name}.j2").render(**values).strip() + "\n"


def numbered(script: str) -> str:
    """The script with right-aligned line numbers, for prompts that point at lines."""
    return "\n".join(f"{n:4d} | {line}".rstrip() for n, line in enumerate(script.splitlines(), 1))


def generator_messages(
    prompt: str,
    version: str,
    symbols: Sequence[ShownSymbol],
    exemplars: Sequence[ShownExemplar],
    *,
    earlier: str = "",
    copied: str = "",
) -> Messages:
    """System rules + the request with retrieved API docs and verified exemplars (earlier: how the last script failed,
    for a fresh one; copied: the request of the exemplar an earlier answer copied; the system prompt stays the same, so
    the server reuses its cache)."""
    user = render("generate_user", prompt=prompt, version=version, symbols=symbols, exemplars=exemplars, earlier=earlier, copied=copied)
    return [{"role": "system", "content": render("generate_system", version=version)}, {"role": "user", "content": user}]


def heal_messages(
    prompt: str, version: str, script: str, *, failure: str, fix_block: str, critique: Verdict | None, symbols: Sequence[ShownSymbol]
) -> Messages:
    """Ask for a patch (diff or full script) from the failure, the lint findings and the docs of the symbols involved."""
    user = render(
        "heal_user",
        prompt=prompt,
        version=version,
        numbered=numbered(script),
        failure=failure,
        fix_block=fix_block,
        critique=critique,
        symbols=symbols,
    )
    return [{"role": "system", "content": render("heal_system", version=version)}, {"role": "user", "content": user}]


def definition_messages(
    prompt: str, version: str, names: list[str], failure: str, *, uses: Sequence[tuple[int, str]], constants: Sequence[str]
) -> Messages:
    """Ask only for the definitions of names the script uses and never defines: a short prompt and a short reply (uses:
    the lines that use them, constants: the script's constants, as repair.missing reads them)."""
    user = render(
        "heal_define",
        prompt=prompt,
        version=version,
        names=names,
        failure=failure.splitlines()[0] if failure else "",
        uses=uses,
        constants=constants,
    )
    return [{"role": "system", "content": render("heal_define_system", version=version)}, {"role": "user", "content": user}]


def replacement_request(reason: str, *, diff: bool = True) -> dict[str, str]:
    """The follow-up turn when a diff did not apply (or the reply held no usable script): ask for the whole script."""
    return {"role": "user", "content": render("heal_replace", reason=reason, diff=diff)}


def critic_messages(
    prompt: str, script: str, checks: dict[str, bool], objective_reasons: list[str], scene: Any, render_info: str, threshold: float
) -> Messages:
    """The rubric request: the prompt, the objective checks, the scene summary and the script."""
    objects = scene.objects if scene is not None else []
    user = render(
        "critic_user",
        prompt=prompt,
        checks=checks,
        objective_reasons=objective_reasons,
        objects=objects,
        object_count=scene.object_count if scene is not None else 0,
        render=render_info,
        script=script,
    )
    return [{"role": "system", "content": render("critic_system", threshold=threshold)}, {"role": "user", "content": user}]
