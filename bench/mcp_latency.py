"""Warm latency of the MCP tools over stdio and streamable HTTP beside the same call through the REST API, in one run.

    .venv/bin/python bench/mcp_latency.py [--runs 20] [--warmup 3]

Starts `bpywright serve` (REST and /mcp on one uvicorn) and `bpywright mcp` (stdio), one Blender worker each, over the
data dir of BPYWRIGHT_ARTIFACTS (it needs the symbol index: `bpywright ingest`). One operation at a time, calls are
interleaved round by round (stdio, HTTP, REST) so machine noise hits every front door alike. run_script renders 256² with Workbench and returns the
PNG inline; its REST twin is POST /api/v1/validate plus GET of the render (what a client needs to see the image).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]  # this file is named mcp.py: let `import mcp` find the SDK

import anyio  # noqa: E402
import httpx  # noqa: E402
import httpx2  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

ROOT = HERE.parent
SCRIPT = "import bpy\nbpy.ops.mesh.primitive_monkey_add(location=(0, 0, 1))\nbpy.ops.object.modifier_add(type='SUBSURF')\n"
QUERY = "add a bevel modifier"
Call = Callable[[], Awaitable[None]]


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) by linear interpolation."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo, hi = int(pos), min(int(pos) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def start_service(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """`bpywright serve` on a free loopback port; returns the process and its base URL."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bpywright", "serve", "--port", "0", "--workers", "1", "--log-level", "warning"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("bpywright serving on "):
        proc.kill()
        sys.exit(f"bpywright serve did not start: {line!r}")
    return proc, line.split()[3].rstrip("/")


async def measure(doors: dict[str, dict[str, Call]], runs: int, warmup: int) -> dict[str, dict[str, list[float]]]:
    """Seconds per call of each operation and front door: one operation at a time (a render's aftermath never lands in a
    search), the doors interleaved round by round after `warmup` unmeasured rounds."""
    times: dict[str, dict[str, list[float]]] = {door: {op: [] for op in calls} for door, calls in doors.items()}
    for op in next(iter(doors.values())):
        for n in range(warmup + runs):
            for door, calls in doors.items():
                start = time.perf_counter()
                await calls[op]()
                if n >= warmup:
                    times[door][op].append(time.perf_counter() - start)
    return times


async def bench(url: str, env: dict[str, str], runs: int, warmup: int) -> dict[str, dict[str, list[float]]]:
    token = os.environ.get("BPYWRIGHT_API_TOKEN")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "bpywright", "mcp", "--workers", "1", "--no-warm"], env=env, cwd=str(ROOT)
    )
    async with (
        Client(params) as stdio,
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(60, read=300)) as http2,
        Client(streamable_http_client(f"{url}/mcp", http_client=http2)) as http,
        httpx.AsyncClient(base_url=url, headers=headers, timeout=300) as rest,
    ):

        def mcp_calls(client: Client) -> dict[str, Call]:
            async def run() -> None:
                result = await client.call_tool("run_script", {"script": SCRIPT, "resolution": 256})
                assert not result.is_error and any(b.type == "image" for b in result.content), result.content[0]

            async def search() -> None:
                result = await client.call_tool("search_api", {"query": QUERY, "k": 10})
                assert not result.is_error, result.content[0]

            return {"run_script 256²": run, "search_api": search}

        async def rest_run() -> None:
            answer = (await rest.post("/api/v1/validate", json={"script": SCRIPT, "lint": False, "resolution": 256})).json()
            assert answer["ok"], answer
            png = await rest.get(answer["render_url"])
            assert png.content.startswith(b"\x89PNG")

        async def rest_search() -> None:
            found = await rest.get("/api/v1/search/symbols", params={"q": QUERY, "k": 10})
            assert found.status_code == 200, found.text

        doors = {
            "MCP stdio": mcp_calls(stdio),
            "MCP HTTP": mcp_calls(http),
            "REST": {"run_script 256²": rest_run, "search_api": rest_search},
        }
        return await measure(doors, runs, warmup)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="measured calls per operation and front door (default 20)")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured rounds first (default 3)")
    args = parser.parse_args()
    env = {**os.environ, "BPYWRIGHT_WORKERS": "1", "PYTHONUNBUFFERED": "1"}
    service, url = start_service(env)
    try:
        times = anyio.run(bench, url, env, args.runs, args.warmup)
    finally:
        service.terminate()
        service.wait(30)
    print(f"warm latency, {args.runs} calls each after {args.warmup} warm-up rounds, one Blender worker per server (ms)")
    print(f"{'operation':<18}{'front door':<12}{'p50':>9}{'p95':>9}{'p50 / REST':>12}{'p95 / REST':>12}")
    for op in times["REST"]:
        base50, base95 = percentile(times["REST"][op], 0.5), percentile(times["REST"][op], 0.95)
        for door in times:
            p50, p95 = percentile(times[door][op], 0.5), percentile(times[door][op], 0.95)
            print(f"{op:<18}{door:<12}{p50 * 1000:>9.1f}{p95 * 1000:>9.1f}{p50 / base50:>11.2f}×{p95 / base95:>11.2f}×")
    spread = {door: statistics.pstdev(times[door]["search_api"]) * 1000 for door in times}
    print("search_api stdev (ms): " + ", ".join(f"{d} {s:.1f}" for d, s in spread.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
