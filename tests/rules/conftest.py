"""Rule tests' shared fixture: run a script's source in one warm worker (no render), for the healer on real Blender."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.harness.report import RunReport

OPTIONS = RunOptions(render=False, timeout=30)


@pytest.fixture(scope="session")
def blender_run() -> Iterator[Callable[[str], RunReport]]:
    with WorkerPool(1, OPTIONS) as pool:
        yield lambda source: pool.run(source=source, options=OPTIONS)
