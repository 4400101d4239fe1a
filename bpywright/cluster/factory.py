"""open_pool: the one place batch commands and the service get their pool — the local WorkerPool or a RayPool."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from .spec import ClusterSpec

if TYPE_CHECKING:
    from ..harness.backend import Backend
    from ..harness.lint import Linter
    from ..harness.options import RunOptions
    from ..harness.report import RunReport


class Pool(Protocol):
    """What callers use of a pool; WorkerPool and RayPool both have it, and callers never know which they hold."""

    size: int
    options: RunOptions
    backend: Backend

    def run(
        self,
        script: Path | None = None,
        options: RunOptions | None = None,
        *,
        source: str | None = None,
        as_file: Path | None = None,
        render_to: Path | None = None,
        linter: Linter | None = None,
    ) -> RunReport: ...

    def map(
        self,
        scripts: Sequence[Path],
        options: RunOptions | None = None,
        *,
        render_dir: Path | None = None,
        on_done: Callable[[Path, RunReport], None] | None = None,
        linter: Linter | None = None,
    ) -> list[RunReport]: ...

    def close(self) -> None: ...

    def __enter__(self) -> Pool: ...

    def __exit__(self, *exc) -> None: ...


def open_pool(
    options: RunOptions,
    *,
    cluster: ClusterSpec | None = None,
    jobs: int | None = None,
    default_jobs: int | None = None,
    at_most: int | None = None,
) -> Pool:
    """A pool for `options`: local with jobs or default_jobs workers, or on `cluster` with jobs or one actor per CPU.

    at_most caps the size (no more workers than scripts). Raises ClusterError when the cluster cannot be used.
    """
    if cluster is None:
        from ..harness.pool import WorkerPool

        size = jobs or default_jobs or os.cpu_count() or 1
        return WorkerPool(max(1, min(size, at_most or size)), options)
    from .raypool import RayPool

    return RayPool(cluster, jobs, options, at_most=at_most)
