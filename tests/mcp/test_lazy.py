"""The MCP SDK (seconds to import) loads only when used: not for `bpywright --help`, not when the service starts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SERVICE_START = """
import sys
from pathlib import Path
from fastapi.testclient import TestClient
from bpywright.config import Settings
from bpywright.service.app import create_app

with TestClient(create_app(Settings(artifacts=Path(sys.argv[1]), workers=1, embedder="none")), base_url="http://localhost") as client:
    assert client.get("/api/v1/status").status_code == 200
    print("mcp" in sys.modules, end=" ")
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
             "clientInfo": {"name": "t", "version": "0"}}}
    answer = client.post("/mcp", json=hello, headers={"Accept": "application/json, text/event-stream"})
    print("mcp" in sys.modules, answer.status_code, "bpywright" in answer.text)
"""


@pytest.mark.blender
def test_the_service_loads_the_sdk_on_the_first_mcp_request(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", SERVICE_START, str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["False", "True", "200", "True"], proc.stdout + proc.stderr[-2000:]
