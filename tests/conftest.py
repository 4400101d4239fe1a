"""Shared fixtures: scripts written to tmp dirs, a warm pool, and the real Blender executable."""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.harness.sandbox import PidsCgroup, bwrap_available

ScriptFactory = Callable[..., Path]

from .real_llm import report_deaths, smollm2  # noqa: E402, F401  (the real-model fixture, shared by tests/graph and tests/models)


def pytest_terminal_summary(terminalreporter) -> None:
    """The test model's server log, where it died during the session."""
    report_deaths(terminalreporter.write_line)


@pytest.fixture
def script(tmp_path: Path) -> ScriptFactory:
    """Write a dedented script to tmp_path/NAME and return its path."""

    def write(source: str, name: str = "script.py") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    """One warm sandboxed worker (size 1 so consecutive jobs share a process), no renders."""
    with WorkerPool(1, RunOptions(render=False, timeout=30)) as p:
        yield p


@pytest.fixture(scope="session")
def blender_exe() -> Path:
    """Debian's blender binary (installed by `make setup` as root)."""
    path = shutil.which("blender")
    if path is None:
        pytest.skip("no blender executable: `make setup` as root installs Debian's blender")
    return Path(path)


@pytest.fixture(scope="session")
def bwrap() -> str:
    """The bubblewrap binary (installed by `make setup` as root)."""
    path = bwrap_available()
    if path is None:
        pytest.skip("bubblewrap unavailable: `make setup` as root installs it")
    return path


@pytest.fixture(scope="session")
def pids_cgroup(bwrap: str) -> None:
    """Fork-bomb tests need a pids cgroup to cap them safely."""
    group = PidsCgroup.create(16)
    if group is None:
        pytest.skip("no writable pids cgroup here: a fork bomb could not be capped safely")
    group.remove()


@pytest.fixture(scope="session")
def runtime():
    """`runtime("5.2")`: a registered Blender runtime; fails with the install command when one could be installed here."""
    from bpywright.config import Settings
    from bpywright.runtimes import RuntimeMissing, RuntimeRegistry
    from bpywright.runtimes.pythons import WHEEL_PYTHON, find_pythons

    registry = RuntimeRegistry.for_settings(Settings.from_env())

    def get(version: str):
        try:
            return registry.get(version)
        except RuntimeMissing as exc:
            if WHEEL_PYTHON.get(version) not in find_pythons():
                pytest.skip(f"no CPython {WHEEL_PYTHON.get(version)} on this machine for the bpy {version} wheel")
            pytest.fail(str(exc))

    return get


# Tests that start Blender get the `blender` marker, so `make test-fast` (-m "not blender") runs the rest in
# seconds. A test starts Blender when it asks for a Blender fixture or its module drives the harness.
BLENDER_FIXTURES = {
    "pool",
    "service_pool",
    "store",
    "app",
    "client",
    "live_url",
    "blender_exe",
    "bwrap",
    "runtime",
    "pids_cgroup",
    "blender_run",
}
BLENDER_SIGNS = ("WorkerPool(", "run_script(", "main([", "RayPool(", "pool.run(", "heal_source(", "validate_and_add(", "stdio_client(")


def pytest_collection_modifyitems(config, items) -> None:
    """Mark the tests that start Blender (by the fixtures they use or what their module calls)."""
    sources: dict[str, str] = {}
    for item in items:
        path = str(item.fspath)
        if path not in sources:
            try:
                sources[path] = Path(path).read_text(encoding="utf-8")
            except OSError:
                sources[path] = ""
        if BLENDER_FIXTURES & set(getattr(item, "fixturenames", ())) or any(sign in sources[path] for sign in BLENDER_SIGNS):
            item.add_marker(pytest.mark.blender)
