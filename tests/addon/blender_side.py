"""Runs inside the bpy module (a subprocess of the tests): install the built extension zip, drive its operators, write JSON.

Usage: python blender_side.py ZIP URL TOKEN OUT.json SCENARIO [ARG]. Timers never fire in background Blender, so after
each service call this script calls the add-on's timer callback itself until it is done, as Blender's timer loop does.
The token goes into a private token file (0600) beside OUT.json, which the add-on's preferences point at.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import time
import traceback
import types

import bpy

ZIP, URL, TOKEN, OUT, SCENARIO = sys.argv[1:6]
ARG = sys.argv[6] if len(sys.argv) > 6 else ""
PLANTED = "import bpy\n\nbpy.ops.mesh.primitive_uv_sphere_add(size=1.5)\nbpy.context.object.name = 'Planted'\n"
WAIT = 400  # seconds a service call may take: the first one lints and starts Blender on a machine busy with other tests
result: dict = {}


def addon():
    """The installed extension's modules."""
    return sys.modules["bl_ext.user_default.bpywright"]


def call(op, **kwargs) -> str:
    """Run an operator as a button does (undo=True: one undo step for an UNDO operator); 'error: …' with what it reported."""
    try:
        return ",".join(sorted(op("EXEC_DEFAULT", True, **kwargs)))
    except RuntimeError as exc:
        return f"error: {exc}"


def serve(op, **kwargs) -> str:
    """Start a service operator, wait for its worker thread, apply the outcome (the timer's job in a UI session)."""
    began, ops = time.monotonic(), addon().operators
    started = call(op, **kwargs)
    if started == "FINISHED":  # the operator returned at once: the call runs on a thread, polled by a registered timer
        result.setdefault("returned_while_busy", []).append(addon().session.current().busy() and bpy.app.timers.is_registered(ops.tick))
    wait = ops.tick()  # what bpy.app.timers calls in a UI session (it never fires in background mode)
    while wait is not None and time.monotonic() - began < WAIT:
        time.sleep(wait)
        wait = ops.tick()
    result.setdefault("seconds", []).append([op.idname(), round(time.monotonic() - began, 2), "busy" if wait is not None else "done"])
    result.setdefault("messages", []).append(dict(addon().session.current().messages))
    return started


def objects() -> list[str]:
    return sorted(o.name for o in bpy.data.objects)


class Layout:
    """Stands in for bpy.types.UILayout, which background Blender never creates: records what a panel would show."""

    def __init__(self, lines: list, parent: Layout | None = None) -> None:
        self.lines, self.parent, self.enabled = lines, parent, True

    def live(self) -> bool:
        return self.enabled and (self.parent is None or self.parent.live())

    def row(self, **_kw) -> Layout:
        return Layout(self.lines, self)

    box = column = row

    def label(self, text: str = "", icon: str = "NONE") -> None:
        self.lines.append(["label", text, self.live()])

    def prop(self, data, name: str, **_kw) -> None:
        self.lines.append(["prop", name, self.live()])

    def operator(self, idname: str, text: str = "", icon: str = "NONE") -> types.SimpleNamespace:
        self.lines.append(["operator", f"{idname}:{text}", self.live()])
        return types.SimpleNamespace()

    def template_icon(self, icon_value: int = 0, scale: float = 1.0) -> None:
        self.lines.append(["icon", icon_value, self.live()])


def panel(name: str, text=None) -> list:
    """What the add-on's panel NAME shows now (the Text Editor one for `text`)."""
    lines: list = []
    context = bpy.context if text is None else types.SimpleNamespace(space_data=types.SimpleNamespace(text=text))
    getattr(addon().panels, name).draw(types.SimpleNamespace(layout=Layout(lines)), context)
    return lines


def install() -> None:
    result["install"] = call(bpy.ops.extensions.package_install_files, filepath=ZIP, repo="user_default", enable_on_install=True)
    prefs = bpy.context.preferences.addons["bl_ext.user_default.bpywright"].preferences
    token_file = os.path.join(os.path.dirname(OUT), "token")
    fd = os.open(token_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, TOKEN.encode() + b"\n")
    os.close(fd)
    prefs.url, prefs.token_file = URL, token_file
    bpy.ops.ed.undo_push(message="start")  # background Blender has an undo stack only once a script pushes to it
    known = set(bpy.types.UILayout.bl_rna.functions["label"].parameters["icon"].enum_items.keys())
    folder = os.path.dirname(addon().__file__)
    used = {
        m
        for name in os.listdir(folder)
        if name.endswith(".py")
        for m in re.findall(r'icon="(\w+)"', open(os.path.join(folder, name)).read())
    }
    result["unknown_icons"] = sorted(used - known)  # a panel with an icon this Blender lacks fails to draw
    result["icons_used"] = len(used)


def generate() -> None:
    session = addon().session.current()
    result["run_before_generate"] = call(bpy.ops.bpywright.run_in_scene, source="GENERATED")
    bpy.context.window_manager.bpywright_prompt = ARG
    result["generate"] = serve(bpy.ops.bpywright.generate)
    g = session.generation
    result["outcome"], result["model"], result["passed"] = g.outcome, g.model, g.verdict.passed
    result["checked"], result["script"] = g.verdict.checked, g.script
    image = bpy.data.images.get(g.image) if g.image else None
    result["preview"] = list(image.size) if image is not None else None
    result["progress"] = session.task.progress
    result["panel"] = panel("BPYWRIGHT_PT_generate")
    result["objects_before"] = objects()
    result["run"] = call(bpy.ops.bpywright.run_in_scene, source="GENERATED")
    result["objects_after_run"] = objects()
    result["undo"] = call(bpy.ops.ed.undo)
    result["objects_after_undo"] = objects()
    result["open_as_text"] = call(bpy.ops.bpywright.open_as_text)
    result["texts"] = {t.name: t.as_string() for t in bpy.data.texts}


def check_and_heal() -> None:
    session = addon().session.current()
    text = bpy.data.texts.new("planted.py")
    text.from_string(PLANTED)
    result["check"] = serve(bpy.ops.bpywright.check, text_name=text.name)
    verdict = session.checks[text.name].verdict
    result["check_passed"], result["check_problem"] = verdict.passed, verdict.problem
    result["findings"] = [[f.line, f.severity, f.source, f.message] for f in verdict.findings]
    result["panel_failed"] = panel("BPYWRIGHT_PT_text", text)
    result["jump"] = call(bpy.ops.bpywright.jump_to_line, text_name=text.name, line=3)
    result["cursor_line"] = text.current_line_index + 1
    result["run_unchecked"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=text.name)
    result["heal"] = serve(bpy.ops.bpywright.heal, text_name=text.name)
    proposal = session.heals[text.name]
    result["diff"], result["heal_summary"] = proposal.diff, proposal.summary
    result["panel_healed"] = panel("BPYWRIGHT_PT_text", text)
    result["apply_heal"] = call(bpy.ops.bpywright.apply_heal, text_name=text.name)
    result["healed_text"] = text.as_string()
    result["recheck"] = serve(bpy.ops.bpywright.check, text_name=text.name)
    result["recheck_passed"] = session.checks[text.name].verdict.passed
    result["panel_passed"] = panel("BPYWRIGHT_PT_text", text)
    result["objects_before"] = objects()
    text.from_string(text.as_string() + "bpy.ops.mesh.primitive_cube_add()\n")  # changed after its Check
    result["run_changed"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=text.name)
    result["objects_after_changed"] = objects()
    text.from_string(result["healed_text"])  # back to the exact text that passed
    result["run_checked"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=text.name)
    result["objects_after_run"] = objects()
    result["undo"] = call(bpy.ops.ed.undo)
    result["objects_after_undo"] = objects()


def check_run() -> None:
    """A script that is fine: Check passes for this Blender, Run in scene adds its object, one undo removes it."""
    session = addon().session.current()
    result["version"] = addon().preferences.this_version()
    text = bpy.data.texts.new("fine.py")
    text.from_string(ARG)
    result["check"] = serve(bpy.ops.bpywright.check, text_name=text.name)
    result["message"] = session.messages.get("text", "")
    verdict = session.checks[text.name].verdict
    result["passed"], result["checked"], result["problem"] = verdict.passed, verdict.checked, verdict.problem
    result["panel"] = panel("BPYWRIGHT_PT_text", text)
    result["objects_before"] = objects()
    result["run"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=text.name)
    result["objects_after_run"] = objects()
    result["undo"] = call(bpy.ops.ed.undo)
    result["objects_after_undo"] = objects()


def failures() -> None:
    """ARG is 'down', 'token', 'version' or 'loose': the service unreachable (or an impostor), a wrong token, a Blender
    without a runtime there, a token file others can read."""
    session = addon().session.current()
    if ARG == "version":
        addon().operators.this_version = lambda: "4.2"
    if ARG == "loose":
        os.chmod(os.path.join(os.path.dirname(OUT), "token"), 0o644)
    text = bpy.data.texts.new("fine.py")
    text.from_string("import bpy\nbpy.ops.mesh.primitive_cube_add()\n")
    result["online_access"] = bpy.app.online_access
    result["objects_before"] = objects()
    bpy.context.window_manager.bpywright_prompt = "a cube"
    result["generate"] = serve(bpy.ops.bpywright.generate)
    result["generate_message"] = session.messages.get("view3d", "")
    result["check"] = serve(bpy.ops.bpywright.check, text_name=text.name)
    result["check_message"] = session.messages.get("text", "")
    result["validated"] = len(session.validated)
    result["run_generated"] = call(bpy.ops.bpywright.run_in_scene, source="GENERATED")
    result["run_text"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=text.name)
    result["objects_after"] = objects()
    blend = os.path.join(os.path.dirname(OUT), "saved.blend")
    bpy.ops.wm.save_as_mainfile(filepath=blend, compress=False)
    with open(blend, "rb") as f:
        result["token_in_blend"] = TOKEN.encode() in f.read()
    result["save_userpref"] = call(bpy.ops.wm.save_userpref)
    userpref = os.path.join(os.environ["BLENDER_USER_RESOURCES"], "config", "userpref.blend")
    with open(userpref, "rb") as f:
        saved = f.read()
    result["userpref_saved"] = len(saved)
    result["token_in_userpref"] = TOKEN.encode() in saved
    result["token_file_in_userpref"] = b"bpywright" in saved and os.path.join(os.path.dirname(OUT), "token").encode() in saved


def vouching() -> None:
    """ARG is JSON {"hostile": script, "marker": path, "plan": script}: Check both; the hostile one passes the sandbox,
    then is refused in the scene until the user confirms its flagged code; the plan script runs without a question."""
    session, given = addon().session.current(), json.loads(ARG)
    hostile = bpy.data.texts.new("hostile.py")
    hostile.from_string(given["hostile"])
    result["check"] = serve(bpy.ops.bpywright.check, text_name=hostile.name)
    verdict = session.checks[hostile.name].verdict
    result["check_passed"], result["checked"], result["problem"] = verdict.passed, verdict.checked, verdict.problem
    result["panel_hostile"] = panel("BPYWRIGHT_PT_text", hostile)
    result["objects_before"] = objects()
    result["run_unconfirmed"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=hostile.name)
    result["message_unconfirmed"] = session.messages.get("text", "")
    result["marker_after_unconfirmed"] = os.path.exists(given["marker"])
    result["objects_after_unconfirmed"] = objects()
    wrong = hashlib.sha256(b"another text").hexdigest()
    result["run_confirmed_other"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=hostile.name, confirm_sha=wrong)
    sha = hashlib.sha256(hostile.as_string().encode()).hexdigest()
    result["run_confirmed"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=hostile.name, confirm_sha=sha)
    result["marker_after_confirmed"] = os.path.exists(given["marker"])
    plan = bpy.data.texts.new("plan.py")
    plan.from_string(given["plan"])
    result["plan_check"] = serve(bpy.ops.bpywright.check, text_name=plan.name)
    result["plan_passed"] = session.checks[plan.name].verdict.passed
    result["panel_plan"] = panel("BPYWRIGHT_PT_text", plan)
    result["plan_run"] = call(bpy.ops.bpywright.run_in_scene, source="TEXT", text_name=plan.name)
    result["plan_message"] = session.messages.get("text", "")
    result["objects_after_plan"] = objects()


BEGAN = time.monotonic()
try:
    install()
    {"generate": generate, "check_and_heal": check_and_heal, "check_run": check_run, "failures": failures, "vouching": vouching}[SCENARIO]()
except Exception:
    result["crash"] = traceback.format_exc()
result["total_seconds"] = round(time.monotonic() - BEGAN, 2)
with open(OUT, "w", encoding="utf-8") as f:
    json.dump(result, f)
sys.stdout.flush()
os._exit(0)  # the bpy module can crash at interpreter exit; the result is written
