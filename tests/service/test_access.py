"""Access control over real HTTP: the token for what runs code or writes, the Host allow-list, serve's refusal."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.util
import json
import secrets
import socket
import stat
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from bpywright.addon.build import SOURCE
from bpywright.cli import main
from bpywright.service.access import COOKIE, LoginSessions, host_of, proof, reply_signature
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


def raw_status(url: str, host: str) -> int:
    """The status of a GET /api/v1/status sent over a plain socket with exactly this Host header."""
    address = httpx.URL(url)
    with socket.create_connection((address.host, address.port), timeout=30) as conn:
        conn.sendall(f"GET /api/v1/status HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode("latin-1"))
        head = conn.recv(64).decode("latin-1")
    return int(head.split()[1])


def test_malformed_bracketed_and_ported_hosts_are_refused(live_url: str) -> None:
    for host in ("[::1]evil.com", "[::1]:80evil.com", "[evil.com]", "[::1", "[::1]:", "localhost:80:80", "localhost:abc", "local host"):
        assert raw_status(live_url, host) == 400, host
    for host in ("[::1]", "[::1]:8000", "localhost", "127.0.0.1:8000", "LOCALHOST:1"):
        assert raw_status(live_url, host) == 200, host
    assert host_of("[::1]evil.com") is None and host_of("[::1]:8000") == "::1" and host_of("Example.org:80") == "example.org"


@contextlib.contextmanager
def sign_in(url: str) -> Iterator[httpx.Client]:
    """A browser signed in at /login (its cookie jar holds the session cookie)."""
    with httpx.Client(base_url=url, timeout=120) as browser:
        assert browser.post("/login", data={"token": TOKEN}).status_code == 303
        yield browser


def test_the_login_cookie_is_a_random_session_never_the_token(guarded: str) -> None:
    with sign_in(guarded) as browser, sign_in(guarded) as other:
        header = browser.cookies.get(COOKIE)
        assert header and TOKEN not in header and header != other.cookies.get(COOKIE)  # one random id per sign-in
        assert browser.get("/api/v1/exemplars").status_code == 200
        # A browser sends cookies for 127.0.0.1 to every port: what a listener on another port receives is a session id
        received: list[str] = []
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(1)
            thread = threading.Thread(target=lambda: received.append(listener.accept()[0].recv(4096).decode("latin-1")))
            thread.start()
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"http://127.0.0.1:{listener.getsockname()[1]}/", cookies={COOKIE: header}, timeout=1)
            thread.join(5)
        assert received and header in received[0] and TOKEN not in received[0]
        stolen = httpx.post(f"{guarded}/api/v1/validate", json=RUN, headers={"Authorization": f"Bearer {header}"}, timeout=30)
        assert stolen.status_code == 401  # the session id is not the token
        forged = httpx.get(f"{guarded}/api/v1/exemplars", cookies={COOKIE: "made-up"}, timeout=30)
        assert forged.status_code == 401


def test_sessions_expire_and_the_oldest_ends_past_the_limit() -> None:
    sessions = LoginSessions(seconds=0.3, limit=2)
    first, second = sessions.start(), sessions.start()
    assert sessions.valid(first) and sessions.valid(second)
    third = sessions.start()
    assert not sessions.valid(first) and sessions.valid(third)
    time.sleep(0.4)
    assert not sessions.valid(second) and not sessions.valid(third)


def test_a_signed_in_browsers_change_must_come_from_this_site(guarded: str) -> None:
    with sign_in(guarded) as browser:
        evil = browser.post("/api/v1/validate", json=RUN, headers={"Origin": "http://127.0.0.1:9999"})
        assert evil.status_code == 403 and "Origin" in evil.json()["detail"]
        plain = browser.post(
            "/api/v1/validate", content=json.dumps(RUN), headers={"Origin": "http://evil.example", "Content-Type": "text/plain"}
        )
        assert plain.status_code == 403  # refused here, not left to the JSON content-type check
        assert browser.post("/api/v1/validate", json=RUN).status_code == 403  # no Origin, no Sec-Fetch-Site
        assert browser.post("/api/v1/validate", json=RUN, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
        same = browser.post("/api/v1/validate", json=RUN, headers={"Origin": guarded})
        assert same.status_code == 200 and same.json()["run"]["stdout"].strip() == "ran"
    bearer = httpx.post(
        f"{guarded}/api/v1/validate", json=RUN, headers={"Authorization": f"Bearer {TOKEN}", "Origin": "http://x"}, timeout=120
    )
    assert bearer.status_code == 200  # the token is no ambient credential: no Origin needed


def test_without_a_token_a_page_elsewhere_cannot_post_to_the_loopback_service(live_url: str) -> None:
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}):
        plain = httpx.post(
            f"{live_url}/api/v1/validate", content=json.dumps(RUN), headers={**headers, "Content-Type": "text/plain"}, timeout=30
        )
        assert plain.status_code == 403, headers  # refused before the content type is even read
    assert httpx.post(f"{live_url}/api/v1/validate", json=RUN, headers={"Origin": live_url}, timeout=120).status_code == 200
    assert httpx.post(f"{live_url}/api/v1/validate", json=RUN, timeout=120).status_code == 200  # a client that is not a browser


def test_the_service_proves_it_holds_the_token_and_signs_its_replies(guarded: str, live_url: str) -> None:
    nonce = secrets.token_hex(32)
    port = httpx.URL(guarded).port
    answer = httpx.get(f"{guarded}/api/v1/proof", params={"nonce": nonce}, timeout=30).json()
    assert answer == {"proof": proof(TOKEN, nonce, port), "port": port}
    expected = hmac.new(TOKEN.encode(), f"bpywright service proof v1\n{nonce}\n{port}".encode(), hashlib.sha256).hexdigest()
    assert answer["proof"] == expected
    assert httpx.get(f"{guarded}/api/v1/proof", params={"nonce": "short"}, timeout=30).status_code == 422
    assert httpx.get(f"{live_url}/api/v1/proof", params={"nonce": nonce}, timeout=30).status_code == 409  # no token: nothing to prove
    signed = httpx.get(f"{guarded}/api/v1/status", headers={"Authorization": f"Bearer {TOKEN}", "X-Bpywright-Nonce": nonce}, timeout=30)
    want = reply_signature(TOKEN, nonce, "GET", "/api/v1/status", 200, signed.content)
    assert signed.headers["x-bpywright-signature"] == want and int(signed.headers["content-length"]) == len(signed.content)
    assert (
        "x-bpywright-signature"
        not in httpx.get(f"{guarded}/api/v1/status", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30).headers
    )


def test_the_add_ons_client_talks_to_the_real_service_only_with_the_same_token(guarded: str) -> None:
    spec = importlib.util.spec_from_file_location("addon_client_under_test", SOURCE / "client.py")
    assert spec is not None and spec.loader is not None
    client = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(client)
    status = client.ServiceClient(guarded, TOKEN).get_json("/api/v1/status")  # proved, then signed
    assert "versions" in status or status, status
    with pytest.raises(client.ServiceError, match="could not prove it holds your token"):
        client.ServiceClient(guarded, "a-different-token").get_json("/api/v1/status")


def test_addon_token_creates_a_private_file_serve_then_reads(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("BPYWRIGHT_API_TOKEN", raising=False)
    assert main(["addon", "token"]) == 0
    path = tmp_path / "bpywright" / "token"
    out = capsys.readouterr()
    token = path.read_text().strip()
    assert out.out.strip() == str(path) and token not in out.out + out.err and len(token) >= 40
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert main(["addon", "token"]) == 0 and path.read_text().strip() == token  # kept, not replaced
    path.chmod(0o644)
    assert main(["serve", "--port", "0"]) == 2  # serve will not use a token others can read
    assert "readable or writable by others" in capsys.readouterr().err
    path.unlink()
    path.symlink_to(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").write_text("x")
    (tmp_path / "elsewhere").chmod(0o600)
    assert main(["serve", "--port", "0"]) == 2 and "symbolic link" in capsys.readouterr().err
