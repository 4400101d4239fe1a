"""Nothing a request sends crashes the server: each hostile input gets a 4xx with a reason, and the server still answers."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.blender

LIMIT = 100_000  # settings.max_request_bytes in conftest


def reason(response: httpx.Response) -> str:
    body = response.json()
    return body.get("reason") or body["detail"]


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"script": "import bpy\x00\n"}, 422, "NUL byte"),
        ({"script": "x = 1\n" + "#" * LIMIT}, 413, "bytes"),
        ({"script": 42}, 422, "script"),
        ({"script": ["import bpy"]}, 422, "script"),
        ({}, 422, "script"),
        ({"script": "print(1)", "resolution": "huge"}, 422, "resolution"),
        ({"script": "print(1)", "resolution": 10**9}, 422, "resolution"),
        ({"script": "print(1)", "timeout": -1}, 422, "timeout"),
        ({"script": "print(1)", "unexpected": True}, 422, "unexpected"),
        ([1, 2, 3], 422, "body"),
        ("just a string", 422, "body"),
    ],
)
def test_bad_validate_bodies_are_refused_with_a_reason(client: TestClient, body, status: int, says: str) -> None:
    response = client.post("/api/v1/validate", json=body)
    assert response.status_code == status and says in reason(response)


def test_lone_surrogate_is_not_utf8(client: TestClient) -> None:
    raw = b'{"script": "x = \\"\\ud800\\""}'  # valid JSON, but not encodable as UTF-8 text
    response = client.post("/api/v1/validate", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422 and "UTF-8" in reason(response)


@pytest.mark.parametrize("prompt", ["a cube\x00", "a \ud800 cube"])
def test_prompts_must_be_text(client: TestClient, prompt: str) -> None:
    for path, body in (("/api/v1/generate", {"prompt": prompt}), ("/api/v1/validate", {"script": "print(1)", "prompt": prompt})):
        response = client.post(path, content=json.dumps(body).encode(), headers={"content-type": "application/json"})
        assert response.status_code == 422 and "prompt" in reason(response)


def test_invalid_utf8_bytes_are_refused(client: TestClient) -> None:
    raw = b'{"script": "print(\xff\xfe)"}'
    response = client.post("/api/v1/heal", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 400 and "UTF-8" in reason(response) and "0xff" in reason(response)


@pytest.mark.parametrize("raw", [b'{"script": ', b"\x00\x00\x00", b"{'script': 'single quotes'}", b"NaN"])
def test_malformed_json_is_422(client: TestClient, raw: bytes) -> None:
    response = client.post("/api/v1/validate", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 422 and reason(response)


@pytest.mark.parametrize("raw", [b"[" * 50_000, b'{"script": "x", "resolution": ' + b"9" * 5000 + b"}"])
def test_json_the_parser_gives_up_on_is_a_4xx(client: TestClient, raw: bytes) -> None:
    """Nesting past the recursion limit, an integer past Python's digit limit: refused, and the server goes on."""
    response = client.post("/api/v1/validate", content=raw, headers={"content-type": "application/json"})
    assert response.status_code in (400, 422) and reason(response)
    assert client.get("/api/v1/status").status_code == 200


def test_oversized_bodies_are_413_before_they_are_read(client: TestClient) -> None:
    response = client.post("/api/v1/generate", content=b"x" * (LIMIT + 1), headers={"content-type": "application/json"})
    assert response.status_code == 413 and "BPYWRIGHT_MAX_REQUEST_BYTES" in reason(response)
    assert client.post("/api/v1/generate", json={"prompt": "p" * 5000}).status_code == 422  # prompt length limit


def test_chunked_oversized_body_on_the_live_server_is_413(live_url: str) -> None:
    """No Content-Length: the limit is counted while the body streams in."""
    parts = urlsplit(live_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    chunks = (b"y" * 10_000 for _ in range(LIMIT // 10_000 + 5))
    conn.request("POST", "/api/v1/validate", body=chunks, headers={"Content-Type": "application/json"}, encode_chunked=True)
    response = conn.getresponse()
    assert response.status == 413 and "over" in json.loads(response.read())["detail"]
    conn.close()
    assert httpx.get(f"{live_url}/api/v1/status", timeout=30).status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/files/..%2F..%2F..%2Fetc%2Fpasswd",
        "/api/v1/files/%2Fetc%2Fpasswd",
        "/api/v1/files/ab/..%2F..%2Fexemplars.sqlite",
        "/api/v1/files/ab%00cd.png",
        "/api/v1/files/no/such.png",
        "/exemplars/..%2F..%2Fetc%2Fpasswd",
        "/api/v1/exemplars/%00/render",
        "/api/v1/jobs/..%2F..%2F/render",
    ],
)
def test_path_traversal_finds_nothing(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code in (404, 422) and b"root:" not in response.content and b"SQLite" not in response.content


def test_raw_traversal_on_the_live_server(live_url: str) -> None:
    """http.client sends the path as written (no client-side normalisation of '..')."""
    parts = urlsplit(live_url)
    for path in ("/api/v1/files/../../../../etc/passwd", "/api/v1/files/../exemplars.sqlite", "/static/../app.py"):
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        conn.request("GET", path)
        response = conn.getresponse()
        body = response.read()
        assert response.status in (400, 404) and b"root:" not in body and b"SQLite" not in body and b"create_app" not in body
        conn.close()


def test_bad_query_parameters(client: TestClient) -> None:
    assert client.get("/api/v1/exemplars", params={"limit": 10**6}).status_code == 422
    assert client.get("/api/v1/exemplars", params={"status": "'; DROP TABLE exemplars; --"}).status_code == 422
    assert client.get("/api/v1/exemplars", params={"q": "\"' OR 1=1 -- NEAR( * ^"}).status_code == 200  # FTS syntax is escaped
    assert client.get("/api/v1/search/symbols", params={"q": "", "k": 5}).status_code == 422
    assert client.get("/", params={"page": "-3", "status": "<script>", "version": "x"}).status_code == 200
    assert client.get("/api/v1/status").status_code == 200
