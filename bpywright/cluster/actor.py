"""BlenderActor: the body of one Ray actor — a one-worker WorkerPool on its node, fed source text, answering JSON + PNG bytes."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

from ..harness.options import RunOptions
from .renders import read_render

ACTOR_NAMESPACE = "bpywright"  # every pool's actors are named here, so `doctor` can count them cluster-wide


class BlenderActor:
    """One warm, sandboxed Blender worker (the harness's own WorkerPool of size 1) living in a Ray actor process.

    Scripts arrive as source text: the driver's files (and the script's project folder) do not exist on the node.
    """

    def __init__(self, options_json: str, recycle_after: int):
        from ..harness.pool import WorkerPool

        self.options = RunOptions.model_validate_json(options_json)
        self.pool = WorkerPool(1, self.options, recycle_after=recycle_after)
        self.scratch = Path(tempfile.mkdtemp(prefix="bpywright-actor-"))
        self.raylet_pid = os.getppid()  # Ray starts actor processes from its node's raylet

    def ready(self) -> dict:
        """Start the Blender worker now; where this actor runs (node id, host, pid)."""
        import ray

        self.pool.warm()
        return {"node_id": ray.get_runtime_context().get_node_id(), "host": socket.gethostname(), "pid": os.getpid()}

    def alive(self) -> bool:
        """Answers while this actor and its node are up; raises once the node's raylet is gone (this process was re-parented).

        A node going down kills the actor's Blender before the actor notices: without this check, the driver's ping could
        reach the still-running actor and take the node's crash for the script's.
        """
        if os.getppid() != self.raylet_pid:
            raise RuntimeError(f"the node's raylet (pid {self.raylet_pid}) is gone: this actor is going down with its node")
        return True

    def run(self, source: bytes, options_json: str) -> tuple[str, bytes | None]:
        """Run one script; (RunReport JSON, render PNG bytes or None). The job's files are gone when this returns."""
        options = RunOptions.model_validate_json(options_json)
        job_dir = Path(tempfile.mkdtemp(dir=self.scratch))
        try:
            render_to = job_dir / "render.png"
            report = self.pool.run(source=source, options=options, render_to=render_to)  # bytes: NULs are judged as locally
            png = read_render(render_to) if report.render is not None else None
            return report.model_dump_json(), png
        finally:
            shutil.rmtree(job_dir, ignore_errors=True)

    def close(self) -> None:
        """Stop the worker and remove the scratch directory (called before the actor is killed)."""
        self.pool.close()
        shutil.rmtree(self.scratch, ignore_errors=True)
