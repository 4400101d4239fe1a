"""ServiceContext: everything one running app uses (settings, pool, store, job queue, lazily loaded symbol indexes)."""

from __future__ import annotations

import logging
import shutil
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import Settings
from .jobs import JobQueue

if TYPE_CHECKING:
    from ..cluster.factory import Pool
    from ..harness.lint import Linter
    from ..ingest.search import SymbolIndex

log = logging.getLogger("bpywright.service")
LLM_CHECK_TTL = 30.0  # seconds a reachability answer is reused


@dataclass
class ServiceContext:
    """Held in app.state.ctx for the app's lifetime; nothing here is a module global."""

    settings: Settings
    pool: Pool  # a WorkerPool, or a RayPool when BPYWRIGHT_CLUSTER names a cluster
    store: Any  # bpywright.exemplars.store.ExemplarStore (imported lazily: it may pull image features)
    jobs: JobQueue
    scratch: Path  # this process's job renders: they live as long as the jobs that point at them
    owns_pool: bool = False
    owns_store: bool = False
    _indexes: dict[str, SymbolIndex] = field(default_factory=dict)
    _index_lock: threading.Lock = field(default_factory=threading.Lock)
    _pools: dict[str, Pool] = field(default_factory=dict)  # other versions' runtimes, made on first request
    _linters: dict[str, Linter] = field(default_factory=dict)
    _runtime_lock: threading.Lock = field(default_factory=threading.Lock)
    _llm: tuple[float, bool | None, str] | None = None
    local_llm: Any = None  # the supervised llama.cpp server (models.server.LocalServer) when this app started one
    llm_note: str = ""  # why no local model answers, when none does

    def symbol_index(self, version: str) -> SymbolIndex:
        """The symbol index of a Blender version, loaded on first use; raises IndexMissing with the fix."""
        with self._index_lock:
            if version not in self._indexes:
                from ..exemplars.teach import load_taught_index

                self._indexes[version] = load_taught_index(self.settings, self.store, version)
            return self._indexes[version]

    def target(self, version: str | None) -> str:
        """MAJOR.MINOR of a request's blender_version, else the configured default (VersionError when malformed)."""
        from ..runtimes import major_minor

        return major_minor(version or self.settings.blender_version)

    def pool_for(self, version: str | None) -> Pool:
        """The pool of a target version: the app's own for the default, else one on that runtime (RuntimeMissing names the fix)."""
        key = self.target(version)
        if key == self.target(None):
            return self.pool
        with self._runtime_lock:
            if key not in self._pools:
                from ..cluster.factory import open_pool
                from ..cluster.spec import parse_cluster
                from ..runtimes import RuntimeRegistry

                runtime = RuntimeRegistry.for_settings(self.settings).get(key)
                options = runtime.run_options(self.pool.options)  # on the cluster too when BPYWRIGHT_CLUSTER names one
                self._pools[key] = open_pool(options, cluster=parse_cluster(self.settings.cluster), jobs=max(1, self.pool.size // 2))
            return self._pools[key]

    def linter_for(self, version: str | None) -> Linter:
        """Warm checkers with a target version's stubs and rule pack, one per version for the app's life."""
        key = self.target(version)
        with self._runtime_lock:
            if key not in self._linters:
                from ..harness.lint import Linter
                from ..rules import rule_pack

                self._linters[key] = Linter(version=key, rules=rule_pack(key, self.settings.index_dir))
            return self._linters[key]

    def index_versions(self) -> list[str]:
        """Blender versions with a built symbol index under settings.index_dir."""
        from ..ingest.index import read_manifest

        root = self.settings.index_dir
        if not root.is_dir():
            return []
        return sorted(p.name for p in root.iterdir() if p.is_dir() and read_manifest(p) is not None)

    def llm_status(self) -> tuple[bool | None, str]:
        """(reachable, detail) of the configured LLM endpoint; None when none is configured. Cached for 30 s."""
        base = self.settings.llm_base_url
        if not base:
            why = f" ({self.llm_note})" if self.llm_note else ""
            return (
                None,
                f"no LLM configured{why}: generation returns the nearest verified exemplar — `bpywright model install qwen2.5-coder-1.5b`, "
                "or set BPYWRIGHT_LLM_BASE_URL (e.g. a `vllm serve` /v1)",
            )
        now = time.monotonic()
        if self._llm is not None and now - self._llm[0] < LLM_CHECK_TTL:
            return self._llm[1], self._llm[2]
        url = base.rstrip("/") + "/models"
        request = urllib.request.Request(url, headers={"Authorization": f"Bearer {self.settings.llm_api_key or 'none'}"})
        try:
            with urllib.request.urlopen(request, timeout=3) as resp:
                reachable, detail = True, f"{self.answerer()} answered {resp.status}"
        except (urllib.error.URLError, OSError, ValueError) as exc:
            reachable, detail = False, f"{url} unreachable ({exc}): start the server or fix BPYWRIGHT_LLM_BASE_URL"
        self._llm = (now, reachable, detail)
        return reachable, detail

    def answerer(self) -> str:
        """Which model answers generate requests, in words: 'local model M (llama.cpp on CPU) at URL' or 'M at URL'."""
        model = self.settings.llm_model or "the first model served"
        where = "local model " if self.local_llm is not None else ""
        how = " (llama.cpp on CPU)" if self.local_llm is not None else ""
        return f"{where}{model}{how} at {self.settings.llm_base_url}"

    def close(self) -> None:
        """Stop taking jobs; close the pool and store when this context opened them; stop the local model server."""
        self.jobs.close()
        if self.local_llm is not None:
            self.local_llm.stop()
        shutil.rmtree(self.scratch, ignore_errors=True)
        if self.owns_pool:
            self.pool.close()
        for pool in self._pools.values():
            pool.close()
        for linter in self._linters.values():
            linter.close()
        if self.owns_store and self.store is not None:
            self.store.close()


def start_local_llm(settings: Settings) -> tuple[Settings, Any, str]:
    """(settings, server, note): with no endpoint configured, the installed local model served on loopback for the app's life.

    A model that fails its pin or a server that will not start leaves generation on the retrieval fallback, with the reason.
    """
    if settings.llm_base_url:
        return settings, None, ""
    from ..models.local import start_local

    try:
        return start_local(settings)
    except Exception as exc:  # the service still serves the gallery and the fallback; the banner and /status say why
        log.warning("local model not served: %s", exc)
        return settings, None, f"local model not served: {exc}"
