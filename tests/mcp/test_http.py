"""The service's /mcp endpoint through the SDK's own streamable-HTTP client, against a live uvicorn on loopback."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
import httpx
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from .conftest import MAX_BYTES, LiveServer
from .scenarios import GOOD, assistant_session, check_bad_inputs, check_crashes, check_every_tool, check_listing, text_of

pytestmark = pytest.mark.blender


@asynccontextmanager
async def connect(url: str, token: str | None = None) -> AsyncIterator[Client]:
    """An SDK client on the URL, sending the service token when there is one."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            yield client


def test_lists_and_calls_every_tool(mcp_url: str, settings) -> None:
    async def session() -> None:
        async with connect(mcp_url, settings.api_token) as client:
            await check_listing(client)
            await check_every_tool(client)

    anyio.run(session)


def test_bad_inputs_and_crashes_are_results_and_the_session_goes_on(mcp_url: str) -> None:
    async def session() -> None:
        async with connect(mcp_url) as client:
            await check_bad_inputs(client, MAX_BYTES, http=True)
            await check_crashes(client)

    anyio.run(session)


def test_an_assistant_session_ends_with_a_script_that_runs(mcp_url: str) -> None:
    async def session() -> None:
        async with connect(mcp_url) as client:
            await assistant_session(client)

    anyio.run(session)


def test_two_clients_at_once_each_get_their_own_scene(mcp_url: str) -> None:
    scripts = {
        "Suzanne": GOOD,
        "Cube": "import bpy\nbpy.ops.object.select_all(action='SELECT')\nbpy.ops.object.delete()\nbpy.ops.mesh.primitive_cube_add()\n",
    }
    results: dict[str, object] = {}

    async def one(name: str) -> None:
        async with connect(mcp_url) as client:
            for _ in range(2):
                result = await client.call_tool("run_script", {"script": scripts[name], "resolution": 48})
                assert not result.is_error, text_of(result)
                results.setdefault(name, []).append({o["name"] for o in result.structured_content["scene"]["objects"]})  # type: ignore[union-attr]

    async def both() -> None:
        async with anyio.create_task_group() as group:
            for name in scripts:
                group.start_soon(one, name)

    anyio.run(both)
    assert all("Suzanne" in names for names in results["Suzanne"]) and not any("Suzanne" in names for names in results["Cube"])
    assert all(names == {"Cube", "Camera", "Light"} or "Cube" in names for names in results["Cube"])


def test_the_service_token_guards_mcp_like_every_route(settings, pool, seeded) -> None:
    from bpywright.service.app import create_app

    guarded = dataclasses.replace(settings, api_token="s3cret-token")
    with LiveServer(create_app(guarded, pool=pool, store=seeded)) as server:
        url = f"{server.url}/mcp"

        async def refused(token: str | None) -> None:
            with pytest.raises(BaseExceptionGroup) as caught:  # the SDK client cannot even initialize
                async with connect(url, token) as client:
                    await client.list_tools()
            assert caught.group_contains(MCPError)
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=headers, timeout=30)
            assert answer.status_code == 401 and "BPYWRIGHT_API_TOKEN" in answer.json()["error"]["message"]  # a JSON-RPC error

        async def admitted() -> None:
            async with connect(url, "s3cret-token") as client:
                result = await client.call_tool("search_api", {"query": "cube", "k": 1})
                assert not result.is_error and result.structured_content["hits"][0]["name"] == "bpy.ops.mesh.primitive_cube_add"

        anyio.run(refused, None)
        anyio.run(refused, "wrong-token")
        anyio.run(admitted)
