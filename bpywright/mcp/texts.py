"""What the model reads: each tool's result as short text (the structured content carries the same data for programs)."""

from __future__ import annotations

from ..graph.loop.events import GenerationResult
from ..harness.report import RunReport
from ..harness.summary import render_summary
from ..rules.healer import HealOutcome
from .answers import source_line
from .models import SearchResult, SymbolInfo

LABELS = {
    "retrieved": "RETRIEVED (not generated)",
    "accepted": "GENERATED and accepted",
    "best_attempt": "GENERATED, best attempt (not accepted)",
    "failed": "FAILED",
}


def search_text(result: SearchResult) -> str:
    """One line per hit (name, signature or type, kind) with its summary."""
    lines = [f"Blender {result.version} API, {len(result.hits)} hit(s) for {result.query!r} (get_symbol NAME gives the full record):"]
    for n, b in enumerate(result.hits, 1):
        detail = b.signature or (f": {b.type}" if b.type else "")
        lines.append(f"{n}. {b.name}{detail}  [{b.kind}]" + (f"\n   {b.summary}" if b.summary else ""))
    return "\n".join(lines)


def symbol_text(info: SymbolInfo) -> str:
    """A symbol's signature, type, default, enum items, description, docs URL, usage lines and members."""
    lines = [f"{info.name}{info.signature or ''}  [{info.kind}, Blender {info.version}]"]
    if info.type:
        lines.append(f"type: {info.type}" + (" (read-only)" if info.readonly else ""))
    if info.default:
        lines.append(f"default: {info.default}")
    if info.enum_items:
        lines.append(f"enum items: {', '.join(info.enum_items)}")
    if info.description:
        lines.append(info.description)
    if info.docs_url:
        lines.append(f"docs: {info.docs_url}")
    lines += [f"used in a verified script: {u}" for u in info.usage[:5]]
    if info.members:
        lines.append(f"members: {', '.join(m.rsplit('.', 1)[1] for m in info.members)}")
    return "\n".join(lines)


def heal_text(outcome: HealOutcome, target: str) -> str:
    """Each round's rules, status and diff, then the verdict and the script."""
    lines = [f"before: {outcome.status_before}" + (f" ({outcome.failure_before})" if outcome.failure_before else "")]
    for r in outcome.rounds:
        rules = ", ".join(f"{a.rule} ({a.title})" for a in r.applied) or "none"
        failure = f" ({r.failure})" if r.failure else ""
        lines.append(f"round {r.round}: {rules} → {r.status}{failure}" + (f" — {r.note}" if r.note else ""))
        lines.append(r.diff.rstrip())
    if outcome.status_before == "ok":
        lines.append("The script already runs: nothing to heal.")
    elif outcome.healed:
        lines.append(f"HEALED: the script runs on Blender {target} now. The healed script:\n```python\n{outcome.script}```")
    elif outcome.not_healable:
        lines.append(f"NOT HEALABLE: {outcome.not_healable}")
    else:
        lines.append(
            f"NOT HEALED: it still fails ({outcome.failure_after or outcome.status_after}); no rule fixes that. "
            f"Change the script by hand (search_api / get_symbol for the right API). The script as far as it was healed:\n"
            f"```python\n{outcome.script}```"
        )
    for f in outcome.files:
        if f.path != outcome.entry:
            lines.append(f"Healed helper {f.path}:\n```python\n{outcome.texts.get(f.path, '')}```")
    return "\n".join(lines)


def generate_text(result: GenerationResult) -> str:
    """How the script was obtained (labelled), how it ran, and the script."""
    lines = [f"{LABELS[result.outcome]}: {result.message}".rstrip(": ")]
    if result.run_report is not None:
        lines.append(run_text(result.run_report, result.script or ""))
    if result.script:
        lines.append(f"```python\n{result.script.rstrip()}\n```")
    return "\n".join(lines)


def run_text(report: RunReport, script: str) -> str:
    """The run summary a person would read, with the failing source line and where the render is."""
    shown = report.model_copy(update={"script_path": None})
    if report.render is not None:
        shown.render = report.render.model_copy(update={"path": "(attached image)"})
    text = render_summary(shown, "script")
    line = source_line(script, report.exception.line if report.exception else None)
    if line is not None and report.exception is not None:
        text += f"\n    {report.exception.line} | {line}"
    if not report.ok:
        text += "\nFix the script (heal_script fixes old or misremembered API automatically) and run it again."
    return text
