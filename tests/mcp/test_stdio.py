"""`bpywright mcp` as a desktop assistant runs it: a subprocess spoken to over stdin/stdout by the SDK's own client."""

from __future__ import annotations

import subprocess
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters

from .conftest import MAX_BYTES, repo_root
from .scenarios import assistant_session, check_bad_inputs, check_crashes, check_every_tool, check_listing


@pytest.mark.blender
def test_one_stdio_session_lists_calls_every_tool_survives_crashes_and_ends_with_a_script_that_runs(stdio_env: dict[str, str]) -> None:
    params = StdioServerParameters(command=sys.executable, args=["-m", "bpywright", "mcp"], env=stdio_env, cwd=str(repo_root()))

    async def session() -> None:
        async with Client(params) as client:
            assert client.server_info is not None and client.server_info.name == "bpywright"
            await check_listing(client)
            await check_bad_inputs(client, MAX_BYTES, http=False)
            await check_crashes(client)
            await check_every_tool(client, resolution=64)
            await assistant_session(client)

    anyio.run(session)


def test_mcp_command_refuses_a_bad_worker_count() -> None:
    proc = subprocess.run([sys.executable, "-m", "bpywright", "mcp", "--workers", "0"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "--workers" in proc.stderr and proc.stdout == ""
