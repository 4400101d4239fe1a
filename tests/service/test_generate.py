"""Generate jobs end to end over HTTP: with no LLM (a retrieved exemplar) and with the FAKE LLM (a generated, accepted script)."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient

from bpywright.graph.model.fake_llm import FakeLLM, critic_json
from bpywright.service.app import create_app

from .conftest import LiveServer, replace
from .test_api import read_sse

pytestmark = pytest.mark.blender

PINE = "a low-poly pine tree on snowy ground"
CONE = (  # the factory cube removed first: left beside the tree, the critic's factory-cube check rejects it
    "import bpy\n\nbpy.data.objects.remove(bpy.data.objects['Cube'], do_unlink=True)\n"
    "bpy.ops.mesh.primitive_cone_add(radius1=1.0, depth=2.0, location=(0, 0, 1))\nbpy.context.object.name = 'Tree'\n"
)


def test_generate_without_llm_returns_a_retrieved_exemplar_over_sse(client: TestClient, store) -> None:
    accepted = client.post("/api/v1/generate", json={"prompt": PINE})
    assert accepted.status_code == 202
    with client.stream("GET", accepted.json()["events_url"]) as stream:
        events = read_sse(stream.iter_lines())
    progress = [data for name, data in events if name == "progress"]
    assert progress and all(e["thread_id"] == accepted.json()["job_id"] for e in progress)
    assert progress[-1]["node"] == "done" and progress[-1]["status"] == "retrieved"
    name, view = events[-1]
    result = view["result"]
    assert name == "result" and view["state"] == "done" and result["outcome"] == "retrieved"
    assert "LLM" in result["message"] and result["run_report"]["status"] == "ok"
    pine = store.search("low-poly pine tree", k=1)[0].exemplar
    assert result["script"] == pine.script


def test_generate_with_the_fake_llm_on_a_live_server(settings, service_pool, store) -> None:
    with FakeLLM() as fake:
        fake.script("generate", f"Here is the script:\n```python\n{CONE}```\n")
        fake.script("critic", critic_json(0.95, "a cone on the ground reads as a simple tree"))
        own = replace(settings, llm_base_url=fake.base_url, llm_model="fake-coder", max_heal_rounds=1)
        with LiveServer(create_app(own, pool=service_pool, store=store)) as server:
            status = httpx.get(f"{server.url}/api/v1/status", timeout=30).json()
            assert status["llm_configured"] and status["llm_reachable"] is True
            job = httpx.post(f"{server.url}/api/v1/generate", json={"prompt": PINE}, timeout=30).json()
            with httpx.stream("GET", server.url + job["events_url"], timeout=300) as stream:
                events = read_sse(stream.iter_lines())
            nodes = [data["node"] for name, data in events if name == "progress"]
            assert "generate" in nodes and "critic" in nodes and nodes[-1] == "done"
            result = events[-1][1]["result"]
            assert result["outcome"] == "accepted", result["message"]
            assert result["script"].strip() == CONE.strip() and result["score"] >= 0.75
            assert "generate" in fake.roles_asked() and "critic" in fake.roles_asked()
            final = httpx.get(server.url + job["job_url"], timeout=30).json()
            assert final["render_url"] and httpx.get(server.url + final["render_url"], timeout=30).headers["content-type"] == "image/png"
