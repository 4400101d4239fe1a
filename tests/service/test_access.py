"""Access control over real HTTP: the token for what runs code or writes, the Host allow-list, serve's refusal."""

from __future__ import annotations

import httpx
import pytest

from bpywright.cli import main
from bpywright.service.app import create_app

from .conftest import LiveServer, replace

pytestmark = pytest.mark.blender

TOKEN = "test-token-5f1d"
RUN = {"script": "import bpy\nprint('ran')\n", "render": False, "lint": False}


@pytest.fixture(scope="module")
def guarded(settings, service_pool, store):
    """A live server with a token configured (gallery not public)."""
    with LiveServer(create_app(replace(settings, api_token=TOKEN), pool=service_pool, store=store)) as server:
        yield server.url


@pytest.fixture(scope="module")
def public(settings, service_pool, store):
    """A live server with a token and a public gallery."""
    with LiveServer(create_app(replace(settings, api_token=TOKEN, public_gallery=True), pool=service_pool, store=store)) as server:
        yield server.url


def test_running_code_needs_the_token(guarded: str) -> None:
    missing = httpx.post(f"{guarded}/api/v1/validate", json=RUN, timeout=60)
    assert missing.status_code == 401 and "Bearer" in missing.json()["detail"] and missing.headers["www-authenticate"] == "Bearer"
    wrong = httpx.post(f"{guarded}/api/v1/validate", json=RUN, headers={"Authorization": "Bearer nope"}, timeout=60)
    assert wrong.status_code == 401
    for path in ("/api/v1/heal", "/api/v1/generate", "/mcp"):
        assert httpx.post(f"{guarded}{path}", json={"script": "x", "prompt": "x"}, timeout=60).status_code == 401
    ok = httpx.post(f"{guarded}/api/v1/validate", json=RUN, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120)
    assert ok.status_code == 200 and ok.json()["run"]["stdout"].strip() == "ran"


def test_malformed_body_with_the_token_is_a_422_not_a_crash(guarded: str) -> None:
    bad = httpx.post(
        f"{guarded}/api/v1/validate",
        content=b"{not json",
        timeout=30,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    assert bad.status_code == 422


def test_browsing_needs_the_token_unless_the_gallery_is_public(guarded: str, public: str) -> None:
    assert httpx.get(f"{guarded}/api/v1/exemplars", timeout=30).status_code == 401
    assert httpx.get(f"{guarded}/", timeout=30).status_code == 401
    assert httpx.get(f"{public}/api/v1/exemplars", timeout=30).status_code == 200
    assert httpx.get(f"{public}/", timeout=30).status_code == 200
    assert httpx.post(f"{public}/api/v1/validate", json=RUN, timeout=30).status_code == 401  # reads only


def test_login_sets_a_cookie_browsers_then_use(guarded: str) -> None:
    with httpx.Client(base_url=guarded, timeout=30) as browser:
        assert browser.get("/login").status_code == 200
        assert browser.post("/login", data={"token": "wrong"}).status_code == 401
        signed = browser.post("/login", data={"token": TOKEN})
        assert signed.status_code == 303 and "httponly" in signed.headers["set-cookie"].lower()
        assert "samesite=strict" in signed.headers["set-cookie"].lower()
        assert browser.get("/api/v1/exemplars").status_code == 200


def test_wrong_host_is_refused_even_with_the_token(guarded: str, live_url: str) -> None:
    for url in (guarded, live_url):
        rebound = httpx.get(f"{url}/api/v1/status", headers={"Host": "attacker.example", "Authorization": f"Bearer {TOKEN}"}, timeout=30)
        assert rebound.status_code == 400 and "BPYWRIGHT_ALLOWED_HOSTS" in rebound.json()["detail"]
    assert httpx.get(f"{live_url}/api/v1/status", headers={"Host": "localhost:8000"}, timeout=30).status_code == 200
    assert httpx.get(f"{live_url}/api/v1/status", headers={"Host": "[::1]:8000"}, timeout=30).status_code == 200


def test_serving_beyond_loopback_without_a_token_is_refused(monkeypatch, capsys) -> None:
    monkeypatch.delenv("BPYWRIGHT_API_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "BPYWRIGHT_API_TOKEN" in capsys.readouterr().err


def test_user_scripts_teach_generation_only_once_trusted(settings, tmp_path) -> None:
    from bpywright.exemplars.store import ExemplarStore
    from bpywright.harness.report import RunReport

    store = ExemplarStore.open(replace(settings, artifacts=tmp_path), clip=False)  # its own store: the shared one stays as seeded

    report = RunReport(status="ok", backend="bpy-module", sandbox="bwrap")
    script = "import bpy\n# a stranger's zebra giraffe script\nbpy.ops.mesh.primitive_cube_add()\n"
    added = store.add(script=script, prompt="zebra giraffe sculpture", report=report, render=None, source="user", blender_version="4.5")
    eid = added.exemplar.id
    assert eid not in [e.id for e in store.nearest("zebra giraffe sculpture", "4.5", k=10)]
    assert eid in [h.exemplar.id for h in store.search("zebra giraffe")]  # still in the gallery
    assert store.set_trusted(eid)
    assert eid in [e.id for e in store.nearest("zebra giraffe sculpture", "4.5", k=10)]
    store.close()
