"""A checklist judge for CADBench prompts: each criterion of a row scored 0/1 by a model behind any OpenAI-compatible
endpoint, from the script and its scene summary (a text model) or its renders too (an image-capable one).

CADBench groups a row's criteria in three sections; its figures are the share of criteria met per section (Attr, Spat,
Inst) and their mean (Avg). A reply the judge gets wrong (not JSON, wrong length, not 0/1) scores those criteria 0 and
says so: a judge's failure never raises a score.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

if TYPE_CHECKING:
    from ..harness.report import SceneSummary


class StructuredLLM(Protocol):
    """What the judge asks of a model client (graph.model.llm.LLMClient is one; this package stays below the loop's): a reply
    constrained by a JSON schema, or RuntimeError (LLMError) when the endpoint cannot answer."""

    def structured(self, messages: list[dict[str, Any]], name: str, schema: dict[str, Any]) -> str: ...


SECTIONS = {
    "Object Attributes": "Attr",
    "Spatial Understanding and Structure": "Spat",
    "User Instruction Understanding and Execution": "Inst",
}
PUBLISHED = {"BlenderLLM-7B": {"Avg": 0.748}, "GPT-4o": {"Avg": 0.565}}  # CADBench, Sim subset, the paper's table
MAX_SCRIPT_CHARS = 12_000

SYSTEM = (
    "You grade a Blender Python script against a checklist. For each numbered criterion answer 1 when the scene the "
    "script builds meets it, else 0. Judge only from the script, the scene summary and any images. Reply with JSON only: "
    '{"scores": [0 or 1 for each criterion, in order]}.'
)


class Criterion(BaseModel):
    """One checklist line: its CADBench section (Attr/Spat/Inst), aspect and text."""

    section: str
    aspect: str
    text: str


class Verdict(BaseModel):
    """A row's criteria with their 0/1 scores, and what went wrong with the judge's reply (empty when nothing)."""

    criteria: list[Criterion]
    scores: list[int]
    problem: str = ""

    def section_scores(self) -> dict[str, float]:
        """Share of criteria met per section (sections without criteria left out)."""
        out = {}
        for short in SECTIONS.values():
            mine = [s for c, s in zip(self.criteria, self.scores) if c.section == short]
            if mine:
                out[short] = sum(mine) / len(mine)
        return out


def criteria_of(row: dict[str, Any]) -> list[Criterion]:
    """A CADBench row's criteria, flattened in file order (unknown sections and non-text entries left out)."""
    found = []
    sections = row.get("criteria")
    if not isinstance(sections, dict):
        return []
    for section, aspects in sections.items():
        short = SECTIONS.get(section)
        if short is None or not isinstance(aspects, dict):
            continue
        for aspect, lines in aspects.items():
            for text in lines if isinstance(lines, list) else []:
                if isinstance(text, str) and text.strip():
                    found.append(Criterion(section=short, aspect=str(aspect), text=text.strip()))
    return found


def scene_text(scene: SceneSummary | None) -> str:
    """The scene summary a text judge reads: objects with their geometry counts and materials, and the bounds."""
    if scene is None:
        return "(no scene: the script did not run)"
    lines = [f"{scene.object_count} objects; camera: {scene.camera}; light: {scene.light}"]
    if scene.bbox is not None:
        size = [round(hi - lo, 3) for lo, hi in zip(scene.bbox.min, scene.bbox.max)]
        lines.append(f"bounds: min {tuple(round(v, 3) for v in scene.bbox.min)}, size {tuple(size)}")
    for o in scene.objects[:60]:
        geometry = f" {o.vertices} verts {o.faces} faces" if o.vertices is not None else ""
        materials = f" materials {', '.join(o.materials)}" if o.materials else ""
        lines.append(f"- {o.name} ({o.type}){geometry}{materials}")
    return "\n".join(lines)


def messages_for(instruction: str, script: str, scene: str, criteria: list[Criterion], images: Sequence[Path] = ()) -> list[dict[str, Any]]:
    """The judge's request: the instruction, the script, the scene summary, the numbered criteria (and images)."""
    numbered = "\n".join(f"{i}. [{c.section} / {c.aspect}] {c.text}" for i, c in enumerate(criteria, 1))
    text = (
        f"Instruction: {instruction}\n\nScript:\n```python\n{script[:MAX_SCRIPT_CHARS]}\n```\n\nScene summary:\n{scene}\n\n"
        f'Criteria ({len(criteria)}):\n{numbered}\n\nReply with {{"scores": [...]}} holding {len(criteria)} values, each 0 or 1.'
    )
    content: Any = text
    if images:
        content = [{"type": "text", "text": text}] + [
            {"type": "image_url", "image_url": {"url": "data:image/png;base64," + base64.b64encode(p.read_bytes()).decode("ascii")}}
            for p in images
        ]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": content}]


def parse_scores(reply: str, n: int) -> tuple[list[int], str]:
    """The n 0/1 scores of a judge's reply, or n zeros and why the reply could not be read."""
    match = re.search(r"\{.*\}", reply, re.S)
    try:
        data = json.loads(match.group(0)) if match else None
    except ValueError:
        data = None
    scores = data.get("scores") if isinstance(data, dict) else None
    if not isinstance(scores, list):
        return [0] * n, f"the judge's reply has no scores list: {reply[:120]!r}"
    if len(scores) != n:
        return [0] * n, f"the judge scored {len(scores)} criteria, not {n}"
    if any(isinstance(s, bool) or s not in (0, 1) for s in scores):
        return [0] * n, "the judge's scores are not all 0 or 1"
    return [int(s) for s in scores], ""


def judge(
    llm: StructuredLLM,
    instruction: str,
    script: str | None,
    scene: SceneSummary | None,
    criteria: list[Criterion],
    images: Sequence[Path] = (),
) -> Verdict:
    """Score one answer; no script (it did not run, or was a copy) scores 0 on every criterion without asking."""
    if not criteria:
        return Verdict(criteria=[], scores=[], problem="the row has no criteria")
    if not script:
        return Verdict(criteria=criteria, scores=[0] * len(criteria), problem="no answer to judge")
    schema = {
        "type": "object",
        # Exactly one score per criterion: a grammar-constrained model cannot then stop short or run on.
        "properties": {
            "scores": {"type": "array", "items": {"type": "integer", "enum": [0, 1]}, "minItems": len(criteria), "maxItems": len(criteria)}
        },
        "required": ["scores"],
    }
    messages = messages_for(instruction, script, scene_text(scene), criteria, list(images))
    try:
        reply = llm.structured(messages, "checklist", schema)
    except RuntimeError as exc:  # graph.model.llm.LLMError: unreachable, retries exhausted, refused
        return Verdict(criteria=criteria, scores=[0] * len(criteria), problem=f"the judge failed: {exc}"[:300])
    scores, problem = parse_scores(reply, len(criteria))
    return Verdict(criteria=criteria, scores=scores, problem=problem)


def table(verdicts: list[Verdict]) -> dict[str, float]:
    """CADBench's figures over rows: each section's mean of the rows' shares, and Avg, the mean of the three."""
    out: dict[str, float] = {}
    for short in SECTIONS.values():
        shares = [v.section_scores()[short] for v in verdicts if short in v.section_scores()]
        out[short] = sum(shares) / len(shares) if shares else 0.0
    out["Avg"] = sum(out[s] for s in SECTIONS.values()) / len(SECTIONS)
    return out
