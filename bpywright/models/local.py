"""Which model answers: a configured endpoint, else the installed local model served on loopback for as long as a caller needs it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel

from ..config import LOCAL_BUDGET_S, Settings
from .catalogue import CATALOGUE, PREFERENCE, ModelSpec, spec_for
from .install import ModelInstallError, installed_models, model_path, verify
from .server import LocalServer, llama_cpp_available

OFF = {"off", "none", "0", "false", "no"}
LOCAL_EXEMPLARS = 1


class Answerer(BaseModel):
    """Who answers generation requests, for doctor, /api/v1/status and the gallery banner."""

    kind: str  # endpoint | local | none
    model: str | None = None
    base_url: str | None = None
    detail: str = ""


def chosen_local(settings: Settings) -> ModelSpec | None:
    """The local model to serve: BPYWRIGHT_LOCAL_MODEL when set (off disables), else the first installed in PREFERENCE."""
    wanted = (settings.local_model or "").strip()
    if wanted.lower() in OFF and wanted:
        return None
    if wanted:
        return spec_for(wanted)
    have = set(installed_models(settings))
    return next((CATALOGUE[name] for name in PREFERENCE if name in have), None)


def describe(settings: Settings) -> Answerer:
    """Who would answer a generate request now (does not start anything)."""
    if settings.llm_base_url:
        return Answerer(
            kind="endpoint",
            model=settings.llm_model,
            base_url=settings.llm_base_url,
            detail=f"{settings.llm_model or 'the first model served'} at {settings.llm_base_url}",
        )
    try:
        spec = chosen_local(settings)
    except KeyError as exc:
        return Answerer(kind="none", detail=str(exc))
    if spec is None:
        detail = "no LLM: set BPYWRIGHT_LLM_BASE_URL, or `bpywright model install qwen2.5-coder-1.5b`"
        if not settings.artifacts.is_absolute() and not settings.artifacts.is_dir():  # run from another folder than the checkout
            detail += (
                f" (the data dir is ./{settings.artifacts}, relative to the working directory {Path.cwd()}, which has none:"
                " run from the bpywright checkout, or set BPYWRIGHT_ARTIFACTS to its artifacts folder)"
            )
        return Answerer(kind="none", detail=detail)
    if not model_path(settings, spec).is_file():
        return Answerer(kind="none", model=spec.name, detail=f"{spec.name} is not installed: `bpywright model install {spec.name}`")
    if not llama_cpp_available():
        return Answerer(kind="none", model=spec.name, detail="a local model is installed but llama-cpp-python is not: `make setup`")
    return Answerer(kind="local", model=spec.name, detail=f"{spec.title}, llama.cpp on loopback (CPU)")


# llama_cpp.server options, measured on the plan sequence (bench/prompt_cache.py, bench/results/prompt_cache):
# - logits_all off: the server's default keeps a float per vocabulary entry for every prompt token (n_ctx x 152k for
#   Qwen2.5: 5 GB reserved); nothing here reads them. Resident memory 3,760 -> 2,190 MiB, answers identical.
# - a RAM prompt cache: the critic's prompt no longer evicts the plan's. The revised plan waited 18.8 s for its first
#   token instead of 62.6 s, the second review 1.2 s instead of 29.3 s; the sequence 198 s instead of 244 s.
SERVER_OPTIONS = ("--logits_all", "false", "--cache", "true", "--cache_type", "ram", "--cache_size", str(512 << 20))
PROMPT_STATES = 8  # about what 512 MiB of Qwen2.5-1.5B states hold (28 KiB of KV cache a token, 2,000-token prompts)


def start_local(settings: Settings) -> tuple[Settings, LocalServer | None, str]:
    """Serve the chosen local model when no endpoint is configured: (settings pointing at it, the server, a note); unchanged otherwise.

    The weights are checked against their pin first: a mismatch raises ModelInstallError and nothing is served.
    """
    if settings.llm_base_url:
        return settings, None, ""
    spec = chosen_local(settings)
    if spec is None or not model_path(settings, spec).is_file():
        return settings, None, describe(settings).detail
    if not llama_cpp_available():
        return settings, None, describe(settings).detail
    installed = verify(spec, settings, full=False)
    server = LocalServer(
        model_path(settings, spec),
        spec.name,
        log_path=settings.models_dir / "server.log",
        n_ctx=spec.n_ctx,
        check_model=lambda: verify(spec, settings, full=False),  # again at every restart
        options=SERVER_OPTIONS,
    ).start()
    # One exemplar, not three: on 2 CPU cores reading a 3.5k-token prompt takes as long as writing the script;
    # and a budget in minutes (unless one is set): one heal round there is a minute or two.
    served = dataclasses.replace(
        settings,
        llm_base_url=server.base_url,
        llm_api_key=server.api_key,
        llm_model=spec.name,
        llm_critic_model=None,
        llm_sampling=tuple((spec.sampling | dict(settings.llm_sampling)).items()),
        llm_prompt_states=PROMPT_STATES,
        repair=spec.repair if settings.repair == "auto" and spec.repair else settings.repair,
        strategy=spec.strategy if settings.strategy == "auto" and spec.strategy else settings.strategy,
        review=spec.review if settings.review == "auto" and spec.review else settings.review,
        max_critic_rounds=spec.critic_rounds if settings.max_critic_rounds is None else settings.max_critic_rounds,
        prompt_exemplars=min(settings.prompt_exemplars, LOCAL_EXEMPLARS),
        budget_s=settings.budget_s or LOCAL_BUDGET_S,
    )
    return served, server, f"local model {installed.name} ({spec.title}) on {server.base_url}"


@contextmanager
def local_llm(settings: Settings) -> Iterator[tuple[Settings, str]]:
    """(settings to use, a note) with the local server up for the block's duration; a configured endpoint is used as is."""
    served, server, note = start_local(settings)
    try:
        yield served, note
    finally:
        if server is not None:
            server.stop()


__all__ = ["Answerer", "ModelInstallError", "chosen_local", "describe", "local_llm", "start_local"]
