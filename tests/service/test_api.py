"""The JSON API in-process: status, exemplars and files, validate/heal with real Blender, SSE, symbols, a full queue."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from bpywright.ingest.index import build_index
from bpywright.ingest.symbols import Symbol, write_symbols
from bpywright.service.app import create_app

from .conftest import RENDER_PX, SEED_RECIPES, replace

pytestmark = pytest.mark.blender

GOOD = "import bpy\nbpy.ops.mesh.primitive_monkey_add(location=(0, 0, 1))\n"
BROKEN = "import bpy\n\nbpy.ops.mesh.primitive_cube_add()\nbpy.data.objects['NoSuchObject'].location.x = 1\n"
DRIFTED = "import bpy\n\nbpy.ops.mesh.primitive_uv_sphere_add(size=1.5)\nlamp = bpy.data.lamps.new('Sun', 'SUN')\n"


def read_sse(lines) -> list[tuple[str, dict]]:
    """(event, data) of each Server-Sent Event until the `result` one."""
    events, name = [], None
    for line in lines:
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: ") and name:
            events.append((name, json.loads(line[6:])))
            if name == "result":
                break
            name = None
    return events


# The store is the session's: other tests add exemplars to it (a torus here, user scripts in test_access and test_pages),
# so counts are compared with what the store holds now, and the seeded recipes are counted with source=recipe.


def test_status_reports_backend_pool_store_and_what_is_off(client: TestClient, store) -> None:
    status = client.get("/api/v1/status").json()
    assert status["blender_version"].startswith("4.5") and status["backend"] == "bpy-module"
    assert status["sandbox"] in ("bwrap", "rlimits-only")
    assert status["pool_size"] == 1 and status["queue_capacity"] == 2 and status["queue_depth"] == 0
    assert status["exemplar_count"] == store.status(load_clip=False).count >= len(SEED_RECIPES)
    assert status["llm_configured"] is False and status["llm_reachable"] is None and "BPYWRIGHT_LLM_BASE_URL" in status["llm_detail"]
    assert status["clip_enabled"] is False and "BPYWRIGHT_CLIP_WEIGHTS" in status["clip_reason"]
    assert status["index_versions"] == [] and "bpywright ingest" in status["index_detail"]


def test_openapi_documents_the_api(client: TestClient) -> None:
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/v1/generate",
        "/api/v1/validate",
        "/api/v1/heal",
        "/api/v1/jobs/{job_id}/events",
        "/api/v1/exemplars",
        "/api/v1/status",
    ):
        assert path in paths


def test_exemplars_list_search_filter_detail_and_files(client: TestClient, store) -> None:
    held = store.status(load_clip=False).groups  # a listing shows one exemplar per near-duplicate group
    listing = client.get("/api/v1/exemplars").json()
    assert listing["total"] == held >= len(SEED_RECIPES) and len(listing["items"]) == min(held, 50)
    page = client.get("/api/v1/exemplars", params={"limit": 1, "offset": 1}).json()
    assert page["total"] == held and [c["id"] for c in page["items"]] == [listing["items"][1]["id"]]
    pine = client.get("/api/v1/exemplars", params={"q": "pine tree snow"}).json()
    assert pine["items"] and "pine" in pine["items"][0]["prompt"].lower() and pine["items"][0]["why"]
    assert client.get("/api/v1/exemplars", params={"status": "error"}).json()["total"] == 0
    assert client.get("/api/v1/exemplars", params={"source": "recipe", "version": "4.5"}).json()["total"] == len(SEED_RECIPES)
    monkey = client.get("/api/v1/exemplars", params={"symbol": "primitive_monkey_add", "source": "recipe"}).json()
    assert monkey["total"] == 1 and "Suzanne" in monkey["items"][0]["prompt"]

    card = pine["items"][0]
    detail = client.get(f"/api/v1/exemplars/{card['id']}").json()
    assert detail["exemplar"]["script"].startswith(('"""', "import", "#")) and detail["exemplar"]["report"]["status"] == "ok"
    assert {s["id"] for s in detail["similar"]} <= {c["id"] for c in listing["items"]} - {card["id"]}
    render = client.get(detail["render_url"])
    assert render.status_code == 200 and render.headers["content-type"] == "image/png"
    assert client.get(f"/api/v1/exemplars/{card['id']}/render").content == render.content
    thumb = client.get(f"/api/v1/exemplars/{card['id']}/thumbnail")
    assert thumb.status_code == 200 and thumb.headers["content-type"].startswith("image/")
    assert client.get("/api/v1/exemplars/0000000000000000").status_code == 404


def test_validate_a_good_script_renders_it(client: TestClient, tmp_path: Path) -> None:
    answer = client.post("/api/v1/validate", json={"script": GOOD, "resolution": 64, "lint": True})
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert result["ok"] and result["run"]["status"] == "ok" and result["lint"] is not None and result["lint"]["diagnostics"] == []
    assert result["run"].get("lint") is None  # sent once, beside the run
    assert any(o["name"] == "Suzanne" for o in result["run"]["scene"]["objects"])
    png = client.get(result["render_url"])
    (tmp_path / "r.png").write_bytes(png.content)
    assert png.status_code == 200 and Image.open(tmp_path / "r.png").size == (64, 64)


def test_validate_a_broken_script_reports_the_failure(client: TestClient) -> None:
    result = client.post("/api/v1/validate", json={"script": BROKEN, "render": False, "lint": False}).json()
    assert result["ok"] is False and result["run"]["status"] == "error"
    assert result["run"]["exception"]["type"] == "KeyError" and result["run"]["exception"]["line"] == 4
    assert result["render_url"] is None


def test_validate_as_a_job_streams_progress_then_the_result(client: TestClient) -> None:
    accepted = client.post("/api/v1/validate", json={"script": GOOD, "render": False, "lint": False, "wait": False})
    assert accepted.status_code == 202 and accepted.headers["location"] == accepted.json()["job_url"]
    with client.stream("GET", accepted.json()["events_url"]) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        events = read_sse(stream.iter_lines())
    nodes = [(data["node"], data["status"]) for name, data in events if name == "progress"]
    assert ("run", "ok") in nodes and nodes[-1] == ("done", "ok")
    name, final = events[-1]
    assert name == "result" and final["state"] == "done" and final["result"]["ok"] and final["events"] == len(nodes)
    assert client.get(accepted.json()["job_url"]).json()["result"]["run"]["status"] == "ok"
    assert client.get("/api/v1/jobs/nope").status_code == 404


def test_validate_can_add_to_the_gallery(client: TestClient) -> None:
    script = "import bpy\nbpy.ops.mesh.primitive_torus_add()\n"
    result = client.post(
        "/api/v1/validate", json={"script": script, "prompt": "a torus", "resolution": RENDER_PX, "lint": False, "add_to_gallery": True}
    ).json()
    assert result["ok"] and result["exemplar_id"]
    exemplar = client.get(f"/api/v1/exemplars/{result['exemplar_id']}").json()["exemplar"]
    assert exemplar["prompt"] == "a torus" and exemplar["source"] == "user" and exemplar["render_path"]
    assert "bpy.ops.mesh.primitive_torus_add" in exemplar["symbols"]


def test_heal_fixes_api_drift(client: TestClient) -> None:
    outcome = client.post("/api/v1/heal", json={"script": DRIFTED, "max_rounds": 3}).json()
    assert outcome["status_before"] == "error" and outcome["healed"], outcome
    assert "radius=1.5" in outcome["script"] and "bpy.data.lights.new" in outcome["script"] and outcome["rounds"]


def test_symbol_search_needs_an_index_then_finds_symbols(settings, service_pool, store, tmp_path: Path) -> None:
    own = replace(settings, artifacts=tmp_path)
    with TestClient(create_app(own, pool=service_pool, store=store), base_url="http://localhost") as client:
        missing = client.get("/api/v1/search/symbols", params={"q": "cube"})
        assert missing.status_code == 503 and "bpywright ingest" in missing.json()["detail"]
        version_dir = own.index_for("4.5")
        version_dir.mkdir(parents=True)
        symbols = [
            Symbol(name="bpy.ops.mesh.primitive_cube_add", kind="operator", blender_version="4.5", description="Construct a cube mesh"),
            Symbol(
                name="bpy.ops.mesh.primitive_uv_sphere_add",
                kind="operator",
                blender_version="4.5",
                description="Construct a UV sphere mesh",
            ),
            Symbol(name="bpy.types.Object.location", kind="property", blender_version="4.5", description="Location of the object"),
        ]
        write_symbols(symbols, version_dir / "symbols.jsonl")
        build_index(version_dir, settings=own)
        found = client.get("/api/v1/search/symbols", params={"q": "add a cube", "k": 2}).json()
        assert found["hits"][0]["name"] == "bpy.ops.mesh.primitive_cube_add" and len(found["hits"]) <= 2
        assert client.get("/api/v1/status").json()["index_versions"] == ["4.5"]


class GatedPool:
    """The shared pool behind a gate: jobs wait in run() until the test opens it, so the queue's state holds still."""

    def __init__(self, pool) -> None:
        self.pool, self.gate = pool, threading.Event()

    def __getattr__(self, name: str):
        return getattr(self.pool, name)

    def run(self, *args, **kwargs):
        assert self.gate.wait(120), "the test never opened the gate"
        return self.pool.run(*args, **kwargs)


def wait_for(read, expected, what: str, seconds: float = 60):
    """Poll read() until it returns expected (deadline: seconds); the last value when it never does."""
    deadline = time.monotonic() + seconds
    while (value := read()) != expected and time.monotonic() < deadline:
        time.sleep(0.05)
    assert value == expected, f"{what}: {value!r}, expected {expected!r}"


def test_a_full_queue_answers_429_with_retry_after(settings, service_pool, store) -> None:
    gated = GatedPool(service_pool)  # the first job holds the one slot until the gate opens: no race with its run time
    quick = {"script": "print(1)\n", "render": False, "lint": False, "wait": False}
    with TestClient(create_app(replace(settings, queue_size=1), pool=gated, store=store), base_url="http://localhost") as client:
        first, second = client.post("/api/v1/validate", json=quick), client.post("/api/v1/validate", json=quick)
        assert first.status_code == second.status_code == 202
        refused = client.post("/api/v1/generate", json={"prompt": "a cube"})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1 and "full" in refused.json()["detail"]
        # one job running (held at the gate), one waiting: once the first job's thread has started, the depth stays 1
        wait_for(lambda: client.get("/api/v1/status").json()["queue_depth"], 1, "queue depth")
        gated.gate.set()
        for job in (first, second):
            wait_for(lambda job=job: client.get(job.json()["job_url"]).json()["state"], "done", "job state", 120)
            assert client.get(job.json()["job_url"]).json()["result"]["run"]["status"] == "ok"
        assert client.post("/api/v1/validate", json=quick).status_code == 202
