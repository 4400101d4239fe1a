"""`bpywright serve` in a subprocess (prints its URL, serves, stops on SIGINT); the app starts without heavy imports."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

HEAVY = ("torch", "torchvision", "open_clip", "faiss", "sentence_transformers", "bpy")

LIGHT_START = """
import sys
from pathlib import Path
from fastapi.testclient import TestClient
from bpywright.config import Settings
from bpywright.service.app import create_app

with TestClient(create_app(Settings(artifacts=Path(sys.argv[1]), workers=1, embedder="none")), base_url="http://localhost") as client:
    for path in ("/api/v1/status", "/", "/submit", "/api/v1/exemplars?q=cube", "/docs"):
        assert client.get(path).status_code == 200, path
print(",".join(m for m in sys.argv[2].split(",") if m in sys.modules))
"""


@pytest.mark.blender
def test_app_starts_and_serves_pages_without_heavy_imports(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", LIGHT_START, str(tmp_path), ",".join(HEAVY)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "", f"imported at startup: {proc.stdout.strip()}"


@pytest.mark.blender
def test_serve_prints_its_url_and_answers(tmp_path: Path) -> None:
    env = {**os.environ, "BPYWRIGHT_ARTIFACTS": str(tmp_path), "BPYWRIGHT_EMBEDDER": "none", "PYTHONUNBUFFERED": "1"}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")  # no token file: this serve has no token
    env.pop("BPYWRIGHT_API_TOKEN", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bpywright", "serve", "--port", "0", "--workers", "1", "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("bpywright serving on http://127.0.0.1:"), line + (proc.stderr.read() if proc.poll() is not None else "")
        url = line.split()[3].rstrip("/")
        status = httpx.get(f"{url}/api/v1/status", timeout=60).json()
        assert status["pool_size"] == 1 and status["exemplar_count"] == 0 and status["queue_capacity"] == 8
        assert "Nothing here yet" in httpx.get(f"{url}/", timeout=30).text
        assert (tmp_path / "exemplars" / "exemplars.sqlite").is_file()
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) in (0, 130, -signal.SIGINT)  # uvicorn shuts down, then re-raises the SIGINT it caught


def test_serve_refuses_a_bad_worker_count(tmp_path: Path) -> None:
    env = {**os.environ, "BPYWRIGHT_ARTIFACTS": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "bpywright", "serve", "--workers", "0"], capture_output=True, text=True, env=env, timeout=60
    )
    assert proc.returncode == 2 and "--workers" in proc.stderr


@pytest.mark.blender
def test_serve_uses_the_token_file_addon_token_made(tmp_path: Path) -> None:
    env = {**os.environ, "BPYWRIGHT_ARTIFACTS": str(tmp_path), "BPYWRIGHT_EMBEDDER": "none", "PYTHONUNBUFFERED": "1"}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env.pop("BPYWRIGHT_API_TOKEN", None)
    made = subprocess.run([sys.executable, "-m", "bpywright", "addon", "token"], capture_output=True, text=True, env=env, timeout=60)
    assert made.returncode == 0 and made.stdout.strip() == str(tmp_path / "config" / "bpywright" / "token")
    token = (tmp_path / "config" / "bpywright" / "token").read_text().strip()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bpywright", "serve", "--port", "0", "--workers", "1", "--log-level", "warning"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("bpywright serving on"), line + (proc.stderr.read() if proc.poll() is not None else "")
        url = line.split()[3].rstrip("/")
        assert httpx.get(f"{url}/api/v1/status", timeout=60).status_code == 401
        assert httpx.get(f"{url}/api/v1/status", headers={"Authorization": f"Bearer {token}"}, timeout=60).status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) in (0, 130, -signal.SIGINT)
