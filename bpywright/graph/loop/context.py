"""RunContext: what nodes use but the checkpoint must not hold (settings, pool, store, LLM, the event callback)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ...config import Settings
from .events import ProgressEvent

if TYPE_CHECKING:
    from ...cluster.factory import Pool
    from ...harness.lint import Linter
    from ...harness.options import RunOptions
    from ...ingest.search import SymbolIndex
    from ..model.llm import LLMClient
    from .exemplar_source import ExemplarStoreLike


@dataclass
class RunContext:
    """Per-request dependencies injected into every node (LangGraph's runtime context)."""

    settings: Settings
    thread_id: str
    pool: Pool | None = None  # a WorkerPool or a RayPool
    store: ExemplarStoreLike | None = None
    llm: LLMClient | None = None
    on_event: Callable[[ProgressEvent], None] | None = None
    index: SymbolIndex | None = None  # loaded by the retrieve node, reused by the healer
    owns_pool: bool = False
    version: str = "4.5"  # the target Blender: the runtime of a pool made here, the linter's stubs and rule pack
    linter: Linter | None = None  # made on first use for `version`, closed by generate()
    clock_start: float = field(default_factory=time.monotonic)

    @property
    def run_dir(self) -> Path:
        """This request's files: attempt renders, the final script, report and render."""
        return self.settings.runs_dir / self.thread_id

    def worker_pool(self) -> Pool:
        """The pool given by the caller, or one made (and later closed by generate()) on first use.

        Made here: on the Ray cluster settings.cluster names (BPYWRIGHT_CLUSTER), else local; a few workers either way
        (the candidates of one run, not a batch).
        """
        if self.pool is None:
            from ...cluster.factory import open_pool
            from ...cluster.spec import parse_cluster
            from ...harness.options import RunOptions

            options = RunOptions(**self.settings.run_limits(), render=True, sandbox=self.settings.sandbox, blender=self.settings.blender)
            if self.settings.blender is None:  # the target version's runtime (RuntimeMissing names the install command)
                from ...runtimes import RuntimeRegistry

                options = RuntimeRegistry.for_settings(self.settings).get(self.version).run_options(options)
            jobs = max(1, min(self.settings.workers, 4))
            self.pool, self.owns_pool = open_pool(options, cluster=parse_cluster(self.settings.cluster), jobs=jobs), True
        return self.pool

    def version_linter(self) -> Linter:
        """Warm checkers with the target version's stubs and rule pack (one for the whole run)."""
        if self.linter is None:
            from ...harness.lint import Linter
            from ...rules import rule_pack

            self.linter = Linter(version=self.version, rules=rule_pack(self.version, self.settings.index_dir))
        return self.linter

    def job_options(self) -> RunOptions:
        """Per-job options: the pool's, always rendering."""
        return self.worker_pool().options.model_copy(update={"render": True})

    def emit(self, node: str, *, attempt: int = 0, status: str = "", seconds: float = 0.0, detail: str = "") -> None:
        """Send one ProgressEvent to the caller's callback (exceptions it raises propagate: they interrupt the run)."""
        if self.on_event is not None:
            event = ProgressEvent(
                thread_id=self.thread_id,
                node=node,
                attempt=attempt,
                status=status,
                elapsed_s=round(time.monotonic() - self.clock_start, 3),
                seconds=round(seconds, 3),
                detail=detail,
            )
            self.on_event(event)
