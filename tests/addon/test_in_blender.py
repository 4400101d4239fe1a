"""The built extension installed in the real bpy module, its operators driven against a live bpywright service."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.graph.plans.build import build_script
from bpywright.graph.plans.parts import Part, Plan

pytestmark = pytest.mark.blender  # the bpy module in a subprocess, and the service's sandboxed workers

CUBE = "import bpy\n\nbpy.ops.mesh.primitive_cube_add(size=2.0, location=(0, 0, 1))\nbpy.context.object.name = 'FakeCube'\n"
FACTORY = ["Camera", "Cube", "Light"]


def test_generate_previews_runs_in_scene_as_one_undo_step(blender_side, service_url: str, fake_llm: FakeLLM) -> None:
    fake_llm.script("generate", f"```python\n{CUBE}```\n")
    fake_llm.script("critic", critic_json(0.9, "a cube, as asked"))
    r = blender_side("generate", service_url, arg="a cube on the ground")
    assert r["install"] == "FINISHED" and r["unknown_icons"] == [] and r["icons_used"] >= 8
    assert r["run_before_generate"].startswith("error: ") and "refused" in r["run_before_generate"]
    assert r["generate"] == "FINISHED" and r["outcome"] == "accepted" and r["model"] == "fake-coder", (r["progress"], r["checked"])
    assert r["returned_while_busy"] == [True]  # Blender got control back while the service worked
    assert r["script"].strip() == CUBE.strip() and r["passed"] is True
    assert any("ran in the sandbox" in line and "4.5" in line for line in r["checked"]), r["checked"]
    assert r["preview"] == [64, 64]  # the service's render, loaded into bpy.data.images
    assert any(line.startswith("critic") for line in r["progress"]), r["progress"]
    shown = r["panel"]
    assert ["label", "accepted; model: fake-coder", True] in shown and ["label", "Passed for Blender 4.5", True] in shown
    assert ["operator", "bpywright.run_in_scene:", True] in shown and any(kind == "icon" for kind, *_ in shown)  # enabled; preview
    assert r["objects_before"] == FACTORY
    assert r["run"] == "FINISHED" and r["objects_after_run"] == sorted([*FACTORY, "FakeCube"])
    assert r["undo"] == "FINISHED" and r["objects_after_undo"] == FACTORY  # one undo step removes all the script did
    assert r["open_as_text"] == "FINISHED" and r["texts"] == {"bpywright.py": CUBE}


def test_check_finds_the_planted_error_heal_fixes_it_and_only_the_checked_text_runs(blender_side, service_url: str) -> None:
    r = blender_side("check_and_heal", service_url)
    assert r["check"] == "FINISHED" and r["check_passed"] is False and "sandboxed run failed" in r["check_problem"]
    assert r["returned_while_busy"][0] is True  # the first Check (seconds of lint and run) left Blender free meanwhile
    run_errors = [f for f in r["findings"] if f[2] == "run"]
    assert run_errors and run_errors[0][0] == 3 and "size" in run_errors[0][3], r["findings"]  # line 3: size= was removed
    assert ["operator", "bpywright.run_in_scene:", False] in r["panel_failed"]  # shown, not enabled
    assert any(kind == "operator" and what.startswith("bpywright.jump_to_line:3: run: TypeError") for kind, what, _ in r["panel_failed"])
    assert r["jump"] == "FINISHED" and r["cursor_line"] == 3
    assert r["run_unchecked"].startswith("error: ") and "refused" in r["run_unchecked"]
    assert "-bpy.ops.mesh.primitive_uv_sphere_add(size=1.5)" in r["diff"] and "radius=1.5" in r["diff"]
    assert ["operator", "bpywright.apply_heal:", True] in r["panel_healed"]
    assert ["label", "-bpy.ops.mesh.primitive_uv_sphere_add(size=1.5)", True] in r["panel_healed"]  # the diff, line by line
    assert r["apply_heal"] == "FINISHED" and "radius=1.5" in r["healed_text"]
    assert r["recheck"] == "FINISHED" and r["recheck_passed"] is True
    assert ["operator", "bpywright.run_in_scene:", True] in r["panel_passed"]
    assert r["run_changed"].startswith("error: ") and r["objects_after_changed"] == r["objects_before"]  # changed text: refused
    assert r["run_checked"] == "FINISHED" and "Planted" in r["objects_after_run"]
    assert r["undo"] == "FINISHED" and r["objects_after_undo"] == r["objects_before"]


@pytest.mark.runtimes
def test_inside_blender_5_2_a_checked_script_runs_and_one_undo_removes_it(blender_side, service_url: str, runtime) -> None:
    python = runtime("5.2").python
    script = "import bpy\n\nbpy.ops.mesh.primitive_cylinder_add(depth=2.0)\nbpy.context.object.name = 'Checked'\n"
    r = blender_side("check_run", service_url, arg=script, python=python)
    assert r["install"] == "FINISHED" and r["version"] == "5.2" and r["unknown_icons"] == [] and r["icons_used"] >= 8
    assert r["check"] == "FINISHED" and r["passed"] is True, r["problem"]
    assert any("ran in the sandbox" in line and "on Blender 5.2" in line for line in r["checked"]), r["checked"]
    assert ["label", "Passed for Blender 5.2", True] in r["panel"] and ["operator", "bpywright.run_in_scene:", True] in r["panel"]
    assert r["run"] == "FINISHED" and r["objects_after_run"] == sorted([*r["objects_before"], "Checked"])
    assert r["undo"] == "FINISHED" and r["objects_after_undo"] == r["objects_before"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_service_down_says_how_to_start_it_and_runs_nothing(blender_side) -> None:
    r = blender_side("failures", f"http://127.0.0.1:{free_port()}")
    assert "cannot reach the bpywright service" in r["generate_message"] and "bpywright serve" in r["generate_message"]
    assert "cannot reach" in r["check_message"]
    assert r["validated"] == 0 and r["objects_after"] == r["objects_before"]
    assert r["run_generated"].startswith("error: ") and r["run_text"].startswith("error: ")


def test_wrong_token_is_named_runs_nothing_and_no_token_is_saved_in_the_blend(blender_side, service_url: str) -> None:
    r = blender_side("failures", service_url, token="not-the-token")
    assert "could not prove it holds your token" in r["generate_message"] and "another token" in r["generate_message"]
    assert "could not prove it holds your token" in r["check_message"]
    assert r["validated"] == 0 and r["objects_after"] == r["objects_before"]
    assert r["token_in_blend"] is False
    assert r["save_userpref"] == "FINISHED" and r["userpref_saved"] > 0
    assert r["token_in_userpref"] is False and r["token_file_in_userpref"] is True  # the path is saved, never the token


def test_a_token_file_others_can_read_is_refused_before_anything_is_sent(blender_side, service_url: str) -> None:
    r = blender_side("failures", service_url, arg="loose")
    assert "readable or writable by others (mode 644)" in r["generate_message"] and "chmod 600" in r["check_message"]
    assert r["validated"] == 0 and r["objects_after"] == r["objects_before"]


class Impostor(BaseHTTPRequestHandler):
    """Whatever holds the port while serve is not running: it says every check passed, and records what reaches it."""

    seen: list[tuple[str, str, int]] = []

    def do_GET(self) -> None:
        self._answer(0)

    def do_POST(self) -> None:
        self._answer(int(self.headers.get("Content-Length", 0)))

    def _answer(self, length: int) -> None:
        self.rfile.read(length)
        Impostor.seen.append((self.path.partition("?")[0], self.headers.get("Authorization", ""), length))
        body = json.dumps({"proof": "0" * 64, "port": self.server.server_address[1], "job_id": "1", "state": "done"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def impostor() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Impostor)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Impostor.seen = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_fake_service_on_the_port_gets_no_token_and_is_named_in_the_panel(blender_side, impostor: str) -> None:
    r = blender_side("failures", impostor)
    for message in (r["generate_message"], r["check_message"]):
        assert "is not your bpywright service" in message and "Nothing was sent to it" in message, message
    assert {path for path, _, _ in Impostor.seen} == {"/api/v1/proof"}  # the challenge, and nothing else
    assert all(auth == "" and length == 0 for _, auth, length in Impostor.seen)  # no token, no prompt, no script
    assert r["validated"] == 0 and r["objects_after"] == r["objects_before"]


PLAN = Plan(
    object="a small table",
    parts=[
        Part(name="top", shape="box", size=(1.2, 0.8, 0.05), location=(0.0, 0.0, 0.75), color=(0.7, 0.5, 0.3)),
        Part(name="leg", shape="cylinder", size=(0.06, 0.06, 0.72), location=(0.5, 0.3, 0.36)),
    ],
)


def test_a_script_that_passed_the_sandbox_runs_here_only_once_its_flagged_code_is_confirmed(
    blender_side, service_url: str, tmp_path: Path
) -> None:
    marker = tmp_path / "written-as-the-user"
    hostile = (
        "import bpy\nimport socket\n\n"
        "bpy.ops.mesh.primitive_cube_add()\n"
        "if socket.gethostname() != 'sandbox':  # true only outside the sandbox\n"
        f"    open({str(marker)!r}, 'w').write('ran as the user')\n"
    )
    plan = build_script(PLAN, "4.5")
    r = blender_side("vouching", service_url, arg=json.dumps({"hostile": hostile, "marker": str(marker), "plan": plan}))
    assert r["check"] == "FINISHED" and r["check_passed"] is True, r["problem"]  # the sandbox sees a harmless script
    shown = r["panel_hostile"]
    texts = " ".join(str(what) for _, what, _ in shown)
    assert "raised nothing on factory settings" in texts and "says nothing about what it" in texts  # what a pass means
    assert "3 flagged construct(s)" in texts, texts  # import socket, open, ….write
    assert [
        "operator",
        "bpywright.jump_to_line:line 2: import socket: a module outside bpy, bmesh, mathutils, math and random",
        True,
    ] in shown
    assert any(what.startswith("bpywright.jump_to_line:line 6: open: opens a file") for kind, what, _ in shown if kind == "operator")
    assert ["operator", "bpywright.run_in_scene:", False] in shown and [
        "operator",
        "bpywright.run_in_scene:Run flagged code…",
        True,
    ] in shown
    assert r["run_unconfirmed"].startswith("error: ") and "3 construct(s) reach past the scene" in r["message_unconfirmed"]
    assert r["marker_after_unconfirmed"] is False and r["objects_after_unconfirmed"] == r["objects_before"]
    assert r["run_confirmed_other"].startswith("error: ")  # a confirmation of another text does not count
    assert r["run_confirmed"] == "FINISHED" and r["marker_after_confirmed"] is True  # confirmed: it runs, as the user
    assert r["plan_check"] == "FINISHED" and r["plan_passed"] is True
    assert "Rebuilt from its part plan byte for byte: only data came from the model" in " ".join(str(w) for _, w, _ in r["panel_plan"])
    assert ["operator", "bpywright.run_in_scene:", True] in r["panel_plan"]
    assert not any("Run flagged code" in str(what) for _, what, _ in r["panel_plan"])
    assert r["plan_run"] == "FINISHED" and "rebuilt from its part plan" in r["plan_message"]
    assert {"top", "leg", "Camera", "Sun"} <= set(r["objects_after_plan"])


def test_a_blender_version_without_a_runtime_gets_the_services_reason(blender_side, service_url: str) -> None:
    r = blender_side("failures", service_url, arg="version")
    assert "(422)" in r["generate_message"] and "4.2" in r["generate_message"], r["generate_message"]
    assert "(422)" in r["check_message"]
    assert r["validated"] == 0 and r["objects_after"] == r["objects_before"]


def test_with_online_access_off_only_a_service_on_this_machine_is_contacted(blender_side) -> None:
    r = blender_side("failures", "http://192.0.2.1:8000")  # TEST-NET-1: never routed; the add-on must not even try
    assert r["online_access"] is False  # the bpy module starts offline, like Blender with "Allow Online Access" off
    assert "online access is off" in r["generate_message"] and "192.0.2.1" in r["generate_message"]
    assert "online access is off" in r["check_message"]
    assert r["validated"] == 0 and r["objects_after"] == r["objects_before"]
