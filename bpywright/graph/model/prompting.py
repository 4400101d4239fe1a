"""Render the prompt templates shipped in graph/model/prompts/ (jinja2) into chat messages."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ..loop.state import Critique, ExemplarBrief, SymbolBrief

PROMPTS_DIR = Path(__file__).with_name("prompts")
Messages = list[dict[str, str]]


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
    symbols: list[SymbolBrief],
    exemplars: list[ExemplarBrief],
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
    prompt: str, version: str, script: str, *, failure: str, fix_block: str, critique: Critique | None, symbols: list[SymbolBrief]
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


def definition_messages(prompt: str, version: str, script: str, names: list[str], failure: str) -> Messages:
    """Ask only for the definitions of names the script uses and never defines: a short prompt and a short reply."""
    from ..repair.missing import constants, uses

    user = render(
        "heal_define",
        prompt=prompt,
        version=version,
        names=names,
        failure=failure.splitlines()[0] if failure else "",
        uses=uses(script, names),
        constants=constants(script),
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
