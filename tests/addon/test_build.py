"""The extension zip and the add-on's bpy-free parts (HTTP client, verdicts, session), without starting Blender."""

from __future__ import annotations

import ast
import hashlib
import hmac
import importlib
import importlib.util
import json
import subprocess
import sys
import threading
import tomllib
import types
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import bpywright
from bpywright.addon.build import SOURCE, ManifestError, build, check_manifest
from bpywright.cli import main as cli

ALLOWED = set(sys.stdlib_module_names) | {"bpy"}


@pytest.fixture(scope="module")
def ext() -> types.ModuleType:
    """The extension as a package whose __init__ (the bpy part) is not run: its client, verdict, tasks, session."""
    package = types.ModuleType("bpywright_ext_under_test")
    package.__path__ = [str(SOURCE)]
    sys.modules[package.__name__] = package
    for name in ("client", "verdict", "tasks", "session", "secret", "screen", "planscript"):
        setattr(package, name, importlib.import_module(f"{package.__name__}.{name}"))
    return package


def test_the_zip_holds_a_manifest_blender_accepts_at_its_top(tmp_path: Path) -> None:
    path = build(tmp_path)
    assert path.name == f"bpywright-{bpywright.__version__}.zip"
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        manifest = tomllib.loads(archive.read("blender_manifest.toml").decode())
    assert {"__init__.py", "blender_manifest.toml", "client.py", "operators.py", "panels.py"} <= names
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    assert manifest["version"] == bpywright.__version__ and manifest["type"] == "add-on" and manifest["id"] == "bpywright"
    assert manifest["blender_version_min"] == "4.2.0" and manifest["blender_version_max"] == "5.3.0"  # 4.2 … 5.2 inclusive
    assert set(manifest["permissions"]) == {"network"} and manifest["schema_version"] == "1.0.0"


def test_the_build_is_reproducible_and_the_cli_prints_the_zip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = build(tmp_path / "a").read_bytes()
    assert cli(["addon", "build", "--out", str(tmp_path / "b")]) == 0
    printed = Path(capsys.readouterr().out.strip())
    assert printed == tmp_path / "b" / f"bpywright-{bpywright.__version__}.zip" and printed.read_bytes() == first


def blender_ext(site_packages: Path) -> Path:
    """Blender's own extension tool (`blender --command extension`), shipped inside a bpy wheel as a standalone script."""
    found = sorted(site_packages.glob("bpy/*/scripts/addons_core/bl_pkg/cli/blender_ext.py"))
    assert found, f"no blender_ext.py under {site_packages}/bpy"
    return found[-1]


def validate_with_blender(python: Path, site_packages: Path, zip_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(python), str(blender_ext(site_packages)), "validate", str(zip_path)], capture_output=True, text=True, timeout=120
    )


def test_blender_4_5s_own_validator_accepts_the_zip_and_refuses_a_too_long_tagline(tmp_path: Path) -> None:
    site = Path(importlib.util.find_spec("bpy").origin).parents[1]  # type: ignore[union-attr, arg-type]
    good = validate_with_blender(Path(sys.executable), site, build(tmp_path))
    assert good.returncode == 0 and "Success" in good.stdout, good.stdout + good.stderr
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(build(tmp_path)) as src, zipfile.ZipFile(bad, "w") as dst:
        for name in src.namelist():
            data = src.read(name)
            dst.writestr(
                name, data.replace(b'tagline = "', b'tagline = "Longer than sixty-four characters: ') if name.endswith(".toml") else data
            )
    refused = validate_with_blender(Path(sys.executable), site, bad)
    assert refused.returncode != 0 and "tagline" in refused.stdout + refused.stderr


@pytest.mark.blender
@pytest.mark.runtimes
def test_blender_5_2s_own_validator_accepts_the_zip(tmp_path: Path, runtime) -> None:
    python = Path(runtime("5.2").python)
    site = next(python.parents[1].glob("lib/python3.*/site-packages"))
    done = validate_with_blender(python, site, build(tmp_path))
    assert done.returncode == 0 and "Success" in done.stdout, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({"tagline": "Ends with a period."}, "tagline"),
        ({"id": "Bad-Id"}, "id"),
        ({"license": ["Apache-2.0"]}, "SPDX"),
        ({"blender_version_min": "4.2"}, "MAJOR.MINOR.PATCH"),
    ],
)
def test_a_manifest_blender_would_refuse_is_refused_here(change: dict, complaint: str) -> None:
    manifest = tomllib.loads((SOURCE / "blender_manifest.toml").read_text(encoding="utf-8")) | change
    with pytest.raises(ManifestError, match=complaint):
        check_manifest(manifest)


def test_the_extension_imports_only_the_standard_library_bpy_and_itself() -> None:
    found = set()
    for path in SOURCE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(path.name, a.name.split(".")[0]) for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                found.add((path.name, (node.module or "").split(".")[0]))
    assert sorted((f, m) for f, m in found if m not in ALLOWED) == []


KNOWN = "secret-token-3c9e"


class Recorder(BaseHTTPRequestHandler):
    """A stand-in 'service' on loopback: answers per path, records (path, Authorization, body) of every request.

    `knows` is the token it proves it holds ('' for an impostor that does not know it); `relay_port` makes it prove
    for another port, as a program relaying the challenge to serve elsewhere would; `sign` whether it signs replies."""

    seen: list[tuple[str, str, bytes]] = []
    redirect_to = ""
    knows = ""
    relay_port = 0
    sign = True

    def do_GET(self) -> None:
        self._record(b"")
        path, _, query = self.path.partition("?")
        if path == "/api/v1/proof":
            nonce = query.removeprefix("nonce=")
            port = Recorder.relay_port or self.server.server_address[1]
            answer = hmac.new(Recorder.knows.encode(), f"bpywright service proof v1\n{nonce}\n{port}".encode(), hashlib.sha256)
            proof = answer.hexdigest() if Recorder.knows else "0" * 64
            self._send(200, json.dumps({"proof": proof, "port": port}).encode(), "application/json")
        elif path == "/redirect":
            self.send_response(307)
            self.send_header("Location", Recorder.redirect_to)
            self.end_headers()
        elif path == "/render":
            self._send(200, b"GIF89a not a png", "image/png")  # a render that is not what it says
        elif path == "/html":
            self._send(200, b"<html>proxy login</html>", "text/html")
        elif path == "/events":
            body = 'event: progress\ndata: {"node": "run", "status": "ok", "seconds": 1.5}\n\n'
            self._send(200, body.encode(), "text/event-stream")  # ends before any `result` event
        elif path == "/api/v1/status":
            self._send(200, b'{"ok": true}', "application/json")
        else:
            self._send(401, json.dumps({"detail": "no"}).encode(), "application/json")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._record(body)
        view = {"state": "done", "result": {"ok": True, "run": {"status": "ok"}}, "job_id": "1"}  # what a passing check looks like
        self._send(200, json.dumps(view).encode(), "application/json")

    def _record(self, body: bytes) -> None:
        Recorder.seen.append((self.path.partition("?")[0], self.headers.get("Authorization", ""), body))

    def _send(self, code: int, body: bytes, kind: str) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        nonce = self.headers.get("X-Bpywright-Nonce", "")
        if nonce and Recorder.knows and Recorder.sign:
            head = f"bpywright reply v1\n{nonce}\n{self.command} {self.path}\n{code}\n".encode()
            self.send_header("X-Bpywright-Signature", hmac.new(Recorder.knows.encode(), head + body, hashlib.sha256).hexdigest())
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def hostile() -> Iterator[str]:
    """Two servers on loopback: the 'service' at the returned URL and, where it redirects to, another host's stand-in."""
    servers = [ThreadingHTTPServer((host, 0), Recorder) for host in ("127.0.0.1", "127.0.0.2")]
    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    Recorder.seen, Recorder.knows, Recorder.relay_port, Recorder.sign = [], KNOWN, 0, True
    Recorder.redirect_to = f"http://127.0.0.2:{servers[1].server_address[1]}/stolen"
    try:
        yield f"http://127.0.0.1:{servers[0].server_address[1]}"
    finally:
        for s in servers:
            s.shutdown()
            s.server_close()


def test_a_fake_service_on_the_port_gets_no_token_no_script_and_its_answer_is_refused(ext, hostile: str) -> None:
    Recorder.knows = ""  # an impostor: it answers everything, and says every check passed
    client = ext.client.ServiceClient(hostile, KNOWN)
    with pytest.raises(ext.client.ServiceError, match=r"not your bpywright service: it could not prove.*Nothing was sent to it"):
        client.post_json("/api/v1/validate", {"script": "import bpy  # the user's script"})
    assert [path for path, _, _ in Recorder.seen] == ["/api/v1/proof"]  # the challenge only
    assert all(auth == "" and body == b"" for _, auth, body in Recorder.seen)  # no token, no script
    assert not client.proven


def test_a_proof_relayed_from_another_port_is_refused(ext, hostile: str) -> None:
    Recorder.relay_port = 8001  # the real service's proof, fetched from serve on another port and passed on
    with pytest.raises(ext.client.ServiceError, match="relayed through port"):
        ext.client.ServiceClient(hostile, KNOWN).get_json("/api/v1/status")
    assert all(auth == "" for _, auth, _ in Recorder.seen)


def test_an_unsigned_answer_is_refused_even_from_a_service_that_proved_itself(ext, hostile: str) -> None:
    client = ext.client.ServiceClient(hostile, KNOWN)
    assert client.get_json("/api/v1/status") == {"ok": True}  # proved, signed: accepted
    Recorder.sign = False
    with pytest.raises(ext.client.ServiceError, match="is not signed with your token"):
        client.post_json("/api/v1/validate", {"script": "import bpy"})
    wrong = ext.client.ServiceClient(hostile, "another-token")  # serve runs with a token other than the file's
    with pytest.raises(ext.client.ServiceError, match="could not prove it holds your token"):
        wrong.get_json("/api/v1/status")


def test_a_redirect_is_refused_so_the_token_never_leaves_the_configured_url(ext, hostile: str) -> None:
    client = ext.client.ServiceClient(hostile, KNOWN)
    with pytest.raises(ext.client.ServiceError, match="redirected"):
        client.get_json("/redirect")
    assert [(p, a) for p, a, _ in Recorder.seen] == [("/api/v1/proof", ""), ("/redirect", f"Bearer {KNOWN}")]  # nothing reached /stolen


def test_failures_become_messages_that_say_what_to_fix(ext, hostile: str) -> None:
    client = ext.client.ServiceClient(hostile, KNOWN)
    with pytest.raises(ext.client.ServiceError, match=r"refused the token \(401\)"):
        client.get_json("/api/v1/other")
    with pytest.raises(ext.client.ServiceError, match="not JSON"):
        client.get_json("/html")
    with pytest.raises(ext.client.ServiceError, match="not a PNG"):
        client.render("/render")
    with pytest.raises(ext.client.ServiceError, match="closed the event stream"):
        list(client.events("/events"))
    with pytest.raises(ext.client.ServiceError, match="not an http"):
        ext.client.ServiceClient("file:///etc/passwd")
    with pytest.raises(ext.client.ServiceError, match="no service token"):
        ext.client.ServiceClient(hostile, "").get_json("/api/v1/status")
    closed = ext.client.ServiceClient("http://127.0.0.1:9", "t")  # discard port: nothing listens
    with pytest.raises(ext.client.ServiceError, match="cannot reach .*bpywright serve"):
        closed.get_json("/api/v1/status")


RUN_OK = {"status": "ok", "blender_version": "4.5.3", "sandbox": "bwrap", "timings": {"total": 1.2}}


def test_a_verdict_passes_only_a_clean_run_on_this_blender_without_blocking_lint(ext) -> None:
    judge = ext.verdict.judge
    assert judge(RUN_OK, {"diagnostics": [], "tools": []}, "4.5").passed
    assert "not on this Blender 4.4" in judge(RUN_OK, None, "4.4").problem
    blocking = {"diagnostics": [{"tool": "rules", "code": "x", "severity": "blocking", "line": 7, "message": "m"}], "tools": []}
    assert judge(RUN_OK, blocking, "4.5").problem == "lint has blocking findings"
    failed = {**RUN_OK, "status": "error", "exception": {"type": "TypeError", "message": "bad size", "line": 3}}
    verdict = judge(failed, None, "4.5")
    assert not verdict.passed and [(f.line, f.source) for f in verdict.findings] == [(3, "run")]
    assert not judge(None, None, "4.5").passed


def test_a_validation_is_bound_to_the_exact_text_and_version(ext) -> None:
    session = ext.session.Session()
    script = "import bpy\nbpy.ops.mesh.primitive_cube_add()\n"
    session.remember(script, "4.5", "test", ext.verdict.Verdict(True, ["ran"]))
    session.remember("import os\n", "4.5", "test", ext.verdict.Verdict(False, [], "failed"))
    assert session.validation_for(script, "4.5") is not None
    assert session.validation_for(script + " ", "4.5") is None and session.validation_for(script, "5.2") is None
    assert session.validation_for("import os\n", "4.5") is None


def test_a_task_hands_its_outcome_to_the_main_thread_once(ext) -> None:
    applied = []
    task = ext.tasks.Task("t", lambda note: note("half way") or 42, lambda result, error: applied.append((result, error))).start()
    assert task.wait(10) and task.apply_once() and not task.apply_once()
    assert applied == [(42, "")] and task.progress == ["half way"]
    failing = ext.tasks.Task("f", lambda note: 1 / 0, lambda r, e: applied.append((r, e))).start()
    failing.wait(10)
    failing.apply_once()
    assert applied[-1][0] is None and "ZeroDivisionError" in applied[-1][1]
