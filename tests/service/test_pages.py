"""Gallery pages, server-rendered: the grid, search and filters, pagination over thousands, detail, submit, banners."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from bpywright.exemplars.store import ExemplarStore
from bpywright.harness.report import RunReport
from bpywright.service.app import create_app
from bpywright.service.pages import PER_PAGE

from .conftest import SEED_RECIPES, replace

pytestmark = pytest.mark.blender


def cards(html: str) -> list[str]:
    return re.findall(r'<li class="card" data-id="([0-9a-f]+)"', html)


def test_gallery_grid_shows_thumbnails_prompts_status_and_banners(client: TestClient) -> None:
    html = client.get("/").text
    assert len(cards(html)) == len(set(cards(html))) >= len(SEED_RECIPES)
    assert "A low-poly pine tree on snowy white ground." in html and 'class="status s-ok"' in html
    assert html.count('src="/api/v1/files/') >= len(SEED_RECIPES) and 'loading="lazy"' in html
    assert "CLIP is off" in html and "No LLM configured" in html and "BPYWRIGHT_LLM_BASE_URL" in html


def test_gallery_search_and_filters(client: TestClient) -> None:
    found = client.get("/", params={"q": "monkey subdivision"}).text
    assert "Suzanne" in found and "result" in found and 'value="monkey subdivision"' in found
    assert cards(client.get("/", params={"status": "crash"}).text) == []
    assert "Nothing here yet" in client.get("/", params={"status": "crash"}).text
    only_monkey = client.get("/", params={"symbol": "bpy.ops.mesh.primitive_monkey_add"}).text
    assert len(cards(only_monkey)) == 1 and "Suzanne" in only_monkey


def test_detail_page_has_render_highlighted_script_reports_and_similar(client: TestClient) -> None:
    exemplar_id = client.get("/api/v1/exemplars", params={"q": "checker"}).json()["items"][0]["id"]
    html = client.get(f"/exemplars/{exemplar_id}").text
    assert 'id="render"' in html and '<span class="kw">import</span> bpy' in html
    assert 'id="copy"' in html and f'href="/exemplars/{exemplar_id}/script.py"' in html
    assert 'id="timings"' in html and "<h2>Lint</h2>" in html and 'id="similar"' in html
    download = client.get(f"/exemplars/{exemplar_id}/script.py")
    assert "attachment" in download.headers["content-disposition"]
    assert download.text == client.get(f"/api/v1/exemplars/{exemplar_id}").json()["exemplar"]["script"]
    assert "Not found" in client.get("/exemplars/ffffffffffffffff").text


def test_submit_page_has_both_forms(client: TestClient) -> None:
    html = client.get("/submit").text
    assert 'id="prompt-form"' in html and 'id="script-form"' in html and "/static/submit.js" in html
    assert "EventSource" in client.get("/static/submit.js").text


def test_pagination_over_thousands_of_exemplars(settings, service_pool, tmp_path: Path) -> None:
    """3,000 exemplars (no renders, so no near-duplicate grouping): pages and totals through the API and the grid."""
    own = replace(settings, artifacts=tmp_path)
    report = RunReport(status="ok", backend="bpy-module", sandbox="bwrap", blender_version="4.5.0")
    with ExemplarStore.open(own, clip=False) as store:
        for n in range(3000):
            store.add(
                script=f"import bpy\n# exemplar {n}\nbpy.ops.mesh.primitive_cube_add(size={n})\n",
                prompt=f"cube number {n}",
                report=report,
                render=None,
                source="imported" if n % 3 else "generated",
                blender_version="4.5",
                symbols=["bpy.ops.mesh.primitive_cube_add"],
            )
        with TestClient(create_app(own, pool=service_pool, store=store), base_url="http://localhost") as client:
            first = client.get("/api/v1/exemplars", params={"limit": 200}).json()
            assert first["total"] == 3000 and len(first["items"]) == 200 and first["items"][0]["prompt"] == "cube number 2999"
            last = client.get("/api/v1/exemplars", params={"limit": 200, "offset": 2900}).json()
            assert len(last["items"]) == 100 and last["items"][-1]["prompt"] == "cube number 0"
            assert client.get("/api/v1/exemplars", params={"source": "generated"}).json()["total"] == 1000
            html = client.get("/", params={"page": 3}).text
            assert len(cards(html)) == PER_PAGE and f"page 3 of {-(-3000 // PER_PAGE)}" in html
            assert "cube number 2903" in html  # 2999 - 2 * 48
            assert 'rel="next" href="/?page=4"' in html and 'rel="prev" href="/?page=2"' in html
            filtered = client.get("/", params={"source": "generated", "page": 2}).text
            assert len(cards(filtered)) == PER_PAGE and 'href="/?source=generated&amp;page=3"' in filtered
            hits = client.get("/api/v1/exemplars", params={"q": "number 1234", "limit": 5}).json()
            assert hits["items"][0]["prompt"] == "cube number 1234"


def test_answers_the_machine_accepted_are_marked_in_the_gallery_and_the_api(settings, service_pool, tmp_path: Path) -> None:
    """A generated exemplar says it was accepted by the machine (card, detail page, JSON); a recipe that a person verified."""
    own = replace(settings, artifacts=tmp_path)
    report = RunReport(status="ok", backend="bpy-module", sandbox="bwrap", blender_version="4.5.0")
    with ExemplarStore.open(own, clip=False) as store:
        ids = {
            source: store.add(
                script=f"import bpy\n# {source}\nbpy.ops.mesh.primitive_torus_add()\n",
                prompt=f"a torus ({source})",
                report=report,
                render=None,
                source=source,
                blender_version="4.5",
            ).exemplar.id
            for source in ("generated", "recipe")
        }
        with TestClient(create_app(own, pool=service_pool, store=store), base_url="http://localhost") as client:
            items = {i["id"]: i for i in client.get("/api/v1/exemplars").json()["items"]}
            assert items[ids["generated"]]["verified_by"] == "machine" and items[ids["recipe"]]["verified_by"] == "person"
            assert [i["id"] for i in client.get("/api/v1/exemplars", params={"q": "torus"}).json()["items"]] == [
                ids["recipe"],
                ids["generated"],
            ]
            html = client.get("/").text
            assert html.count("accepted by the machine") == 1 and html.count("verified by a person") == 1
            assert "accepted by the machine" in client.get(f"/exemplars/{ids['generated']}").text
            assert client.get(f"/api/v1/exemplars/{ids['generated']}").json()["exemplar"]["verified_by"] == "machine"
