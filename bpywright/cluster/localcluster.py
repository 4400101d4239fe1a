"""LocalRayCluster: a throwaway Ray cluster on this machine (`ray start --head` plus joined nodes) for tests and benchmarks.

Token auth comes from the environment (RAY_AUTH_MODE=token, RAY_AUTH_TOKEN_PATH) set before Ray is imported. Every
process it starts is found again by its own temp dir or ports (never by a broad name) and killed by stop().
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..starts import record

RAY = Path(sys.executable).with_name("ray")


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel's ephemeral range, outside Ray's worker ports 10002-19999)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _processes() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        found[int(entry)] = (ppid, cmd)
    return found


def _with_descendants(roots: set[int], table: dict[int, tuple[int, str]]) -> set[int]:
    tree, grew = set(roots), True
    while grew:
        more = {pid for pid, (ppid, _) in table.items() if ppid in tree} - tree
        tree |= more
        grew = bool(more)
    return tree


def kill_tree(roots: set[int]) -> None:
    """SIGKILL these processes and every descendant of theirs (never this process)."""
    for pid in _with_descendants(roots, _processes()) - {os.getpid()}:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@dataclass
class LocalRayCluster:
    """A head and extra nodes started with `ray start`, in their own temp dirs, with the session's token."""

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="bpyw-ray-", dir="/tmp")))
    gcs_port: int = field(default_factory=free_port)
    client_port: int = field(default_factory=free_port)
    node_ports: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        # token auth as this process has it (the driver is this process): the nodes must share it
        self.env = os.environ | {
            "RAY_USAGE_STATS_ENABLED": "0",
            "RAY_health_check_period_ms": "500",  # a dead node is noticed in ~2 s instead of ~30 s
            "RAY_health_check_failure_threshold": "4",
        }

    @property
    def address(self) -> str:
        """The GCS address a driver on a node joins (`--cluster HOST:PORT`)."""
        return f"127.0.0.1:{self.gcs_port}"

    @property
    def client_address(self) -> str:
        """The Ray Client address (`--cluster ray://HOST:PORT`)."""
        return f"ray://127.0.0.1:{self.client_port}"

    def _ray_start(self, *args: str) -> None:
        record("ray", "ray start")
        proc = subprocess.run(
            [str(RAY), "start", "--disable-usage-stats", *args], env=self.env, capture_output=True, text=True, timeout=240
        )
        if proc.returncode != 0:
            raise RuntimeError(f"ray start {' '.join(args)} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")

    def start_head(self, cpus: int) -> None:
        """`ray start --head` with `cpus` CPUs and no dashboard."""
        self._ray_start(
            "--head",
            f"--num-cpus={cpus}",
            f"--port={self.gcs_port}",
            f"--ray-client-server-port={self.client_port}",
            "--include-dashboard=false",
            f"--temp-dir={self.root / 'head'}",
        )

    def add_node(self, cpus: int) -> int:
        """Join a node with `cpus` CPUs; returns its node-manager port (how its raylet is found again)."""
        port = free_port()
        self._ray_start(
            f"--address={self.address}", f"--num-cpus={cpus}", f"--node-manager-port={port}", f"--temp-dir={self.root / f'node{port}'}"
        )
        self.node_ports.append(port)
        return port

    def raylet_pid(self, node_port: int) -> int:
        """The pid of the raylet of the node started with that node-manager port."""
        for pid, (_, cmd) in _processes().items():
            if "raylet" in cmd and f"--node_manager_port={node_port} " in cmd + " ":
                return pid
        raise LookupError(f"no raylet with node manager port {node_port}")

    def kill_raylet(self, node_port: int) -> None:
        """SIGKILL a node's raylet: the node is lost as if its machine went away."""
        os.kill(self.raylet_pid(node_port), signal.SIGKILL)

    def stop(self) -> None:
        """Kill every process of this cluster (found by its temp dir and ports) and their children."""
        markers = [str(self.root), f":{self.gcs_port} ", f"--port={self.client_port} "]
        table = _processes()
        kill_tree({pid for pid, (_, cmd) in table.items() if pid != os.getpid() and any(m in cmd + " " for m in markers)})
        time.sleep(0.5)
        subprocess.run(["rm", "-rf", str(self.root)], check=False)
