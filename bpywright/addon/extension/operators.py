"""The add-on's operators: generate, check, heal (service calls on a thread), run in scene, open as text, jump, apply heal."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import bpy

from .client import ServiceError
from .preferences import client_for, this_version
from .session import Generation, HealProposal, Session, TextCheck, current
from .tasks import Task
from .verdict import judge, major_minor, sha256

PREVIEW = "bpywright preview"
POLL_S = 0.2


def redraw() -> None:
    """Redraw the panels that show progress (no-op without a window, e.g. in background mode)."""
    for window in getattr(bpy.context.window_manager, "windows", []):
        for area in window.screen.areas:
            if area.type in {"VIEW_3D", "TEXT_EDITOR"}:
                area.tag_redraw()


def tick() -> float | None:
    """bpy.app.timers callback: redraw while a task runs; apply its outcome on this (the main) thread when it ends."""
    task = current().task
    if task is None:
        return None
    redraw()
    if task.done:
        task.apply_once()
        redraw()
        return None
    return POLL_S


def start(session: Session, task: Task) -> None:
    """Run a task and poll it from a timer."""
    session.task = task.start()
    if not bpy.app.timers.is_registered(tick):
        bpy.app.timers.register(tick, first_interval=POLL_S)


def load_preview(png: bytes | None) -> str:
    """Put a render into bpy.data.images as PREVIEW (replacing the last one); its name, or '' without a render."""
    old = bpy.data.images.get(PREVIEW)
    if old is not None:
        bpy.data.images.remove(old)
    if not png:
        return ""
    fd, path = tempfile.mkstemp(suffix=".png", prefix="bpywright-", dir=bpy.app.tempdir or None)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(png)
        image = bpy.data.images.load(path, check_existing=False)
        image.pack()  # the temp file can go; an image with no users is not saved into the .blend
    finally:
        os.unlink(path)
    image.name = PREVIEW
    image.preview_ensure()
    return image.name


def text_of(context: bpy.types.Context, name: str) -> bpy.types.Text | None:
    """The named text block, else the Text Editor's current one."""
    if name:
        return bpy.data.texts.get(name)
    space = getattr(context, "space_data", None)
    return getattr(space, "text", None) if getattr(space, "type", "") == "TEXT_EDITOR" else None


class ServiceOperator(bpy.types.Operator):
    """Shared by the operators that call the service: one call at a time, failures shown in the panel."""

    panel = "view3d"

    def refuse(self, session: Session, message: str) -> set[str]:
        session.messages[self.panel] = message
        self.report({"ERROR"}, message)
        return {"CANCELLED"}

    def launch(self, context: bpy.types.Context, label: str, path: str, body: dict[str, Any], apply) -> set[str]:
        session = current()
        if session.busy():
            return self.refuse(session, f"bpywright is still working on {session.task.label if session.task else 'a request'}")
        try:
            client = client_for(context)
        except ServiceError as exc:
            return self.refuse(session, str(exc))

        def work(note):
            view = client.run_job(path, body, note)
            png = client.render(view["render_url"]) if view.get("render_url") else None
            return view, png

        session.messages[self.panel] = ""
        start(session, Task(label, work, apply))
        return {"FINISHED"}


class BPYWRIGHT_OT_generate(ServiceOperator):
    """Generate a script for the prompt through the bpywright service (linted, run and rendered in its sandbox)"""

    bl_idname = "bpywright.generate"
    bl_label = "Generate"

    def execute(self, context: bpy.types.Context) -> set[str]:
        session, version = current(), this_version()
        prompt = context.window_manager.bpywright_prompt.strip()
        if not prompt:
            return self.refuse(session, "type what to build in the prompt box first")

        def apply(result, error: str) -> None:
            if error:
                session.messages["view3d"] = error
                return
            view, png = result
            answer = view["result"]
            script = answer.get("script") or ""
            verdict = judge(answer.get("run_report"), answer.get("lint_report"), version)
            if major_minor(answer.get("blender_version")) != version:
                verdict.passed, verdict.problem = False, f"generated for Blender {answer.get('blender_version')}, not {version}"
            if not script:
                verdict.passed, verdict.problem = False, "the service returned no script"
            session.generation = Generation(
                prompt, script, str(answer.get("outcome")), str(answer.get("message", "")), str(answer.get("model") or "none"),
                answer.get("score"), verdict, load_preview(png),
            )  # fmt: skip
            session.remember(script, version, f"generated for {prompt[:40]!r}", verdict)
            session.messages["view3d"] = answer.get("message", "")

        return self.launch(context, "generate", "/api/v1/generate", {"prompt": prompt, "blender_version": version}, apply)


class BPYWRIGHT_OT_check(ServiceOperator):
    """Send the text to the bpywright service: lint, sandboxed run and render for this Blender version"""

    bl_idname = "bpywright.check"
    bl_label = "Check"
    panel = "text"

    text_name: bpy.props.StringProperty(name="Text", options={"SKIP_SAVE"})  # type: ignore[valid-type]

    def execute(self, context: bpy.types.Context) -> set[str]:
        session, version = current(), this_version()
        text = text_of(context, self.text_name)
        if text is None:
            return self.refuse(session, "open a text block in the Text Editor first")
        name, script = text.name, text.as_string()
        body = {"script": script, "blender_version": version, "wait": False}

        def apply(result, error: str) -> None:
            if error:
                session.messages["text"] = error
                return
            view, png = result
            answer = view["result"]
            verdict = judge(answer.get("run"), answer.get("lint"), version)
            session.checks[name] = TextCheck(sha256(script), verdict, load_preview(png))
            session.remember(script, version, f"Check of text {name!r}", verdict)
            session.messages["text"] = "passed: Run in scene is enabled" if verdict.passed else f"not passed: {verdict.problem}"

        return self.launch(context, f"check of {name}", "/api/v1/validate", body, apply)


class BPYWRIGHT_OT_heal(ServiceOperator):
    """Ask the service to heal the text with its rules (run, fix, re-run); shows the diff to apply"""

    bl_idname = "bpywright.heal"
    bl_label = "Heal"
    panel = "text"

    text_name: bpy.props.StringProperty(name="Text", options={"SKIP_SAVE"})  # type: ignore[valid-type]

    def execute(self, context: bpy.types.Context) -> set[str]:
        session, version = current(), this_version()
        text = text_of(context, self.text_name)
        if text is None:
            return self.refuse(session, "open a text block in the Text Editor first")
        name, script = text.name, text.as_string()

        def apply(result, error: str) -> None:
            if error:
                session.messages["text"] = error
                return
            outcome = result[0]["result"]
            summary = f"{outcome.get('status_before')} → {outcome.get('status_after')} in {len(outcome.get('rounds', []))} round(s)"
            if outcome.get("failure_after"):
                summary += f"; still: {outcome['failure_after']}"
            if outcome.get("script", script) == script:
                session.heals.pop(name, None)
                session.messages["text"] = f"no rule changed the script ({summary})"
                return
            session.heals[name] = HealProposal(sha256(script), outcome["script"], outcome.get("diff", ""), summary)
            session.messages["text"] = f"healed: {summary}. Review the diff, then Apply"

        body = {"script": script, "blender_version": version, "wait": False}
        return self.launch(context, f"heal of {name}", "/api/v1/heal", body, apply)


class BPYWRIGHT_OT_apply_heal(bpy.types.Operator):
    """Replace the text with the healed script shown in the diff"""

    bl_idname = "bpywright.apply_heal"
    bl_label = "Apply healed script"
    bl_options = {"REGISTER", "UNDO"}

    text_name: bpy.props.StringProperty(name="Text", options={"SKIP_SAVE"})  # type: ignore[valid-type]

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        return context.window_manager.invoke_confirm(self, event)

    def execute(self, context: bpy.types.Context) -> set[str]:
        session = current()
        text = text_of(context, self.text_name)
        proposal = session.heals.get(text.name) if text is not None else None
        if text is None or proposal is None:
            self.report({"ERROR"}, "no healed script for this text: press Heal first")
            return {"CANCELLED"}
        if sha256(text.as_string()) != proposal.base_sha:
            session.heals.pop(text.name, None)
            session.messages["text"] = "the text changed since Heal: press Heal again"
            self.report({"ERROR"}, session.messages["text"])
            return {"CANCELLED"}
        text.from_string(proposal.script)
        session.heals.pop(text.name, None)
        session.messages["text"] = "healed script applied: Check it before Run in scene"
        return {"FINISHED"}


class BPYWRIGHT_OT_jump_to_line(bpy.types.Operator):
    """Move the Text Editor's cursor to this finding's line"""

    bl_idname = "bpywright.jump_to_line"
    bl_label = "Go to line"

    text_name: bpy.props.StringProperty(name="Text", options={"SKIP_SAVE"})  # type: ignore[valid-type]
    line: bpy.props.IntProperty(name="Line", min=1, default=1)  # type: ignore[valid-type]

    def execute(self, context: bpy.types.Context) -> set[str]:
        text = text_of(context, self.text_name)
        if text is None:
            return {"CANCELLED"}
        line = min(self.line, len(text.lines)) - 1
        text.cursor_set(line)
        space = getattr(context, "space_data", None)
        if getattr(space, "type", "") == "TEXT_EDITOR":
            space.text = text
            space.top = max(0, line - 5)
        return {"FINISHED"}


class BPYWRIGHT_OT_run_in_scene(bpy.types.Operator):
    """Run the validated script in the open scene as one undo step (refused unless it passed for this Blender and the
    add-on can vouch for it: rebuilt from its part plan, or screened with nothing flagged, or its flags confirmed)"""

    bl_idname = "bpywright.run_in_scene"
    bl_label = "Run in scene"
    bl_options = {"REGISTER", "UNDO"}

    source: bpy.props.EnumProperty(  # type: ignore[valid-type]
        items=[("GENERATED", "Generated", "the last generated script"), ("TEXT", "Text", "a text block")],
        options={"SKIP_SAVE"},
    )
    text_name: bpy.props.StringProperty(name="Text", options={"SKIP_SAVE"})  # type: ignore[valid-type]
    confirm_sha: bpy.props.StringProperty(  # type: ignore[valid-type]
        name="Confirmed text",
        description="The SHA-256 of the text whose flagged code the user agreed to run",
        options={"SKIP_SAVE", "HIDDEN"},
    )

    def script(self, context: bpy.types.Context) -> tuple[str, str]:
        """(the script, how to name it) for this run."""
        session = current()
        if self.source == "GENERATED":
            return (session.generation.script, "generated script") if session.generation else ("", "")
        text = text_of(context, self.text_name)
        return (text.as_string(), f"text {text.name!r}") if text is not None else ("", "")

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> set[str]:
        script, _ = self.script(context)
        vouch = current().vouch_for(script)
        if vouch.flags and self.confirm_sha:
            message = f"Run {len(vouch.flags)} flagged construct(s) as you, outside the sandbox? First: {vouch.flags[0]}"
            try:
                return context.window_manager.invoke_confirm(self, event, title="Run flagged code?", message=message[:200])
            except TypeError:  # Blender 4.2-4.4 take no title or message
                return context.window_manager.invoke_confirm(self, event)
        return self.execute(context)

    def execute(self, context: bpy.types.Context) -> set[str]:
        session, version = current(), this_version()
        panel = "view3d" if self.source == "GENERATED" else "text"
        script, label = self.script(context)
        if session.validation_for(script, version) is None:
            return self.refuse(
                session,
                panel,
                f"refused: this {label or 'script'} has not passed in the sandbox for Blender {version} as it is now "
                "(Generate it, or Check the text, first)",
            )
        vouch = session.vouch_for(script)
        if vouch.flags and self.confirm_sha != sha256(script):
            shown = "; ".join(str(f) for f in vouch.flags[:3]) + ("; …" if len(vouch.flags) > 3 else "")
            return self.refuse(
                session,
                panel,
                f"refused: {len(vouch.flags)} construct(s) reach past the scene ({shown}). The sandbox pass does not "
                "cover them: read them in the panel, then press 'Run flagged code' if you trust them",
            )
        try:
            exec(compile(script, f"<bpywright {label}>", "exec"), {"__name__": "__main__"})  # noqa: S102 (validated and vouched for above)
        except Exception as exc:
            line = exc.__traceback__.tb_next.tb_lineno if exc.__traceback__ and exc.__traceback__.tb_next else "?"
            session.messages[panel] = (
                f"{type(exc).__name__}: {exc} (line {line}) in your scene, although it passed in the sandbox: "
                "Edit > Undo reverts what it did"
            )
            self.report({"ERROR"}, session.messages[panel])
            return {"FINISHED"}  # still one undo step, so its partial changes can be undone
        how = {"plan": "rebuilt from its part plan", "screen": "screened"}.get(vouch.how, "with the flagged code you confirmed")
        session.messages[panel] = f"ran the validated {label} ({how}) in the scene (Edit > Undo removes it in one step)"
        return {"FINISHED"}

    def refuse(self, session: Session, panel: str, message: str) -> set[str]:
        session.messages[panel] = message
        self.report({"ERROR"}, message)
        return {"CANCELLED"}


class BPYWRIGHT_OT_open_as_text(bpy.types.Operator):
    """Put the generated script into a Text Editor block"""

    bl_idname = "bpywright.open_as_text"
    bl_label = "Open as text"

    def execute(self, context: bpy.types.Context) -> set[str]:
        generation = current().generation
        if generation is None or not generation.script:
            self.report({"ERROR"}, "nothing generated yet")
            return {"CANCELLED"}
        text = bpy.data.texts.new("bpywright.py")
        text.from_string(generation.script)
        for area in getattr(context.screen, "areas", []):
            if area.type == "TEXT_EDITOR":
                area.spaces.active.text = text
                break
        current().messages["view3d"] = f"opened as text {text.name!r}"
        return {"FINISHED"}


CLASSES = (
    BPYWRIGHT_OT_generate,
    BPYWRIGHT_OT_check,
    BPYWRIGHT_OT_heal,
    BPYWRIGHT_OT_apply_heal,
    BPYWRIGHT_OT_jump_to_line,
    BPYWRIGHT_OT_run_in_scene,
    BPYWRIGHT_OT_open_as_text,
)
