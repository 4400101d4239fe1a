"""The sidebar panels: "bpywright" in the 3D Viewport (prompt → generate) and in the Text Editor (check, heal)."""

from __future__ import annotations

import bpy

from .preferences import preferences, this_version
from .session import SANDBOX_MEANS, Session, current
from .verdict import Verdict, sha256

DIFF_LINES = 40
FLAGS_SHOWN = 12


def wrapped(layout: bpy.types.UILayout, text: str, width: int = 48, icon: str = "NONE") -> None:
    """A long message as several labels (panels do not wrap)."""
    words, line = text.split(), ""
    first = True
    for word in words:
        if line and len(line) + len(word) + 1 > width:
            layout.label(text=line, icon=icon if first else "BLANK1")
            line, first = word, False
        else:
            line = f"{line} {word}".strip()
    if line:
        layout.label(text=line, icon=icon if first else "BLANK1")


def draw_status(layout: bpy.types.UILayout, session: Session, panel: str) -> None:
    """Progress of the call in flight, then the last message."""
    if session.busy() and session.task is not None:
        box = layout.box()
        box.label(text=f"Working: {session.task.label}…", icon="SORTTIME")
        wrapped(box, session.task.last)
    message = session.messages.get(panel, "")
    if message:
        wrapped(layout.box(), message, icon="INFO")


def draw_verdict(layout: bpy.types.UILayout, verdict: Verdict) -> None:
    """What was checked, and whether it passed for this Blender."""
    box = layout.box()
    if verdict.passed:
        box.label(text=f"Passed for Blender {this_version()}", icon="CHECKMARK")
    else:
        wrapped(box, f"Not validated: {verdict.problem}", icon="ERROR")
    for line in verdict.checked:
        wrapped(box, line)
    if verdict.passed:
        wrapped(box, SANDBOX_MEANS, icon="INFO")


def draw_run(layout: bpy.types.UILayout, session: Session, script: str, source: str, text_name: str = "") -> None:
    """What the add-on vouches for (plan rebuilt, screened, or the flags), then Run in scene, or Run flagged code."""
    vouch = session.vouch_for(script)
    box = layout.box()
    wrapped(box, vouch.summary, icon="ERROR" if vouch.flags else "CHECKMARK")
    for flag in vouch.flags[:FLAGS_SHOWN]:
        if text_name:
            op = box.operator("bpywright.jump_to_line", text=str(flag)[:90], icon="ERROR")
            op.text_name, op.line = text_name, max(1, flag.line)
        else:
            wrapped(box, str(flag), icon="ERROR")
    if len(vouch.flags) > FLAGS_SHOWN:
        box.label(text=f"… and {len(vouch.flags) - FLAGS_SHOWN} more")
    validated = session.validation_for(script, this_version()) is not None
    row = layout.row()
    row.enabled = validated and not vouch.flags
    op = row.operator("bpywright.run_in_scene", icon="SCENE_DATA")
    op.source, op.text_name = source, text_name
    if vouch.flags:
        row = layout.row()
        row.enabled = validated
        op = row.operator("bpywright.run_in_scene", text="Run flagged code…", icon="ERROR")
        op.source, op.text_name, op.confirm_sha = source, text_name, sha256(script)


def draw_preview(layout: bpy.types.UILayout, image_name: str) -> None:
    """The render, as a large icon."""
    image = bpy.data.images.get(image_name) if image_name else None
    if image is not None and image.preview is not None:
        layout.template_icon(icon_value=image.preview.icon_id, scale=8.0)


class BPYWRIGHT_PT_generate(bpy.types.Panel):
    """Prompt → a validated script, previewed, run in the scene on request."""

    bl_label = "bpywright"
    bl_idname = "BPYWRIGHT_PT_generate"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "bpywright"

    def draw(self, context: bpy.types.Context) -> None:
        layout, session = self.layout, current()
        layout.label(text=f"Service: {preferences(context).url}", icon="URL")
        layout.prop(context.window_manager, "bpywright_prompt", text="")
        row = layout.row()
        row.enabled = not session.busy()
        row.operator("bpywright.generate", icon="PLAY")
        draw_status(layout, session, "view3d")
        generation = session.generation
        if generation is None:
            return
        accepted = "accepted" if generation.outcome == "accepted" else f"not accepted ({generation.outcome})"
        layout.label(text=f"{accepted}; model: {generation.model}", icon="CHECKMARK" if generation.outcome == "accepted" else "QUESTION")
        if generation.score is not None:
            layout.label(text=f"critic score {generation.score:.2f}")
        draw_preview(layout, generation.image)
        draw_verdict(layout, generation.verdict)
        draw_run(layout, session, generation.script, "GENERATED")
        layout.operator("bpywright.open_as_text", icon="TEXT")


class BPYWRIGHT_PT_text(bpy.types.Panel):
    """Check the open text in the sandbox, heal it, run it in the scene once it passed."""

    bl_label = "bpywright"
    bl_idname = "BPYWRIGHT_PT_text"
    bl_space_type = "TEXT_EDITOR"
    bl_region_type = "UI"
    bl_category = "bpywright"

    def draw(self, context: bpy.types.Context) -> None:
        layout, session = self.layout, current()
        text = context.space_data.text
        if text is None:
            layout.label(text="Open a text block to check it")
            return
        row = layout.row(align=True)
        row.enabled = not session.busy()
        row.operator("bpywright.check", icon="VIEWZOOM").text_name = text.name
        row.operator("bpywright.heal", icon="TOOL_SETTINGS").text_name = text.name
        draw_status(layout, session, "text")
        now = sha256(text.as_string())
        check = session.checks.get(text.name)
        if check is not None:
            if check.sha != now:
                layout.label(text="The text changed since this Check", icon="ERROR")
            draw_verdict(layout, check.verdict)
            for finding in check.verdict.findings:
                icon = "ERROR" if finding.severity in ("blocking", "error") else "INFO"
                op = layout.operator("bpywright.jump_to_line", text=f"{finding.line}: {finding.source}: {finding.message}"[:90], icon=icon)
                op.text_name, op.line = text.name, max(1, finding.line)
            draw_preview(layout, check.image)
        heal = session.heals.get(text.name)
        if heal is not None:
            box = layout.box()
            wrapped(box, f"Healed: {heal.summary}", icon="TOOL_SETTINGS")
            for line in heal.diff.splitlines()[:DIFF_LINES]:
                box.label(text=line or " ")
            box.operator("bpywright.apply_heal", icon="CHECKMARK").text_name = text.name
        draw_run(layout, session, text.as_string(), "TEXT", text.name)


CLASSES = (BPYWRIGHT_PT_generate, BPYWRIGHT_PT_text)
