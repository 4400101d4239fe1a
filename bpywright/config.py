"""Settings: the one configuration object, read from BPYWRIGHT_* environment variables (no globals)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value).expanduser() if value else None


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() not in {"0", "false", "no", "off"}


REPAIRS = ("auto", "patch", "regenerate")
STRATEGIES = ("auto", "code", "plan")
REVIEWS = ("auto", "model", "grounded", "checks", "none", "neighbours")


def _env_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    value = (os.environ.get(name) or default).strip().lower()
    if value not in choices:
        raise ValueError(f"{name}={value!r}: expected one of {', '.join(choices)}")
    return value


def _env_sampling(name: str) -> tuple[tuple[str, float], ...]:
    """NAME=VALUE pairs, comma-separated (e.g. "repeat_penalty=1.0,top_k=20"); a malformed pair is a clear error."""
    pairs = []
    for item in (os.environ.get(name) or "").split(","):
        if not item.strip():
            continue
        key, _, value = item.partition("=")
        try:
            number = float(value)
        except ValueError:
            number = None
        if number is None or not key.strip().isidentifier():
            raise ValueError(f"{name}: {item.strip()!r} is not NAME=NUMBER (e.g. {name}=repeat_penalty=1.0,top_k=20)")
        pairs.append((key.strip(), number))
    return tuple(pairs)


def _project_table(start: Path | None = None) -> tuple[dict, Path] | None:
    """[tool.bpywright] of the nearest pyproject.toml / bpywright.toml from the working directory up (to the git root)."""
    import tomllib

    from .untrusted_files import UntrustedFileError, read_capped

    for folder in (start or Path.cwd(), *(start or Path.cwd()).parents):
        for name in ("bpywright.toml", "pyproject.toml"):
            try:  # a regular file of at most 1 MB: the checkout may link it to /dev/zero or a FIFO
                data = tomllib.loads(read_capped(folder / name, 1 << 20).decode("utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, UntrustedFileError):
                continue
            table = data.get("tool", {}).get("bpywright", data if name == "bpywright.toml" else None)
            if isinstance(table, dict):
                return {key.replace("-", "_"): value for key, value in table.items()}, folder / name
        if (folder / ".git").exists():
            break
    return None


def _project_blender_version(start: Path | None = None) -> str | None:
    """`blender_version` of [tool.bpywright] in the nearest pyproject.toml / bpywright.toml from the working directory up."""
    found = _project_table(start)
    value = found[0].get("blender_version") if found else None
    return str(value) if value is not None else None


# The sandbox limits operators set: name → (bpywright's default, its variable). The same names under [tool.bpywright].
LIMITS: dict[str, tuple[float, str]] = {
    "memory_mb": (6144, "BPYWRIGHT_MEMORY_MB"),
    "disk_mb": (1024, "BPYWRIGHT_DISK_MB"),
    "tmp_mb": (256, "BPYWRIGHT_TMP_MB"),
    "max_processes": (64, "BPYWRIGHT_MAX_PROCESSES"),
    "max_file_mb": (256, "BPYWRIGHT_MAX_FILE_MB"),
    "timeout": (60.0, "BPYWRIGHT_TIMEOUT"),
}


def _limit(variable: str, project: tuple[dict, Path] | None, sources: dict[str, str]) -> float:
    """One limit: its BPYWRIGHT_* variable, else [tool.bpywright], else bpywright's default; its source noted in sources."""
    name = next(key for key, (_, var) in LIMITS.items() if var == variable)
    default = LIMITS[name][0]
    raw: object = os.environ.get(variable, "").strip()
    where = variable
    if not raw and project is not None and project[0].get(name) is not None:
        raw, where = project[0][name], f"{project[1]} [tool.bpywright] {name}"
    if raw in ("", None):
        sources[name] = "default"
        return default
    try:
        value = float(raw) if isinstance(raw, (int, float, str)) and not isinstance(raw, bool) else float("nan")
    except (TypeError, ValueError):
        value = float("nan")
    if not value > 0 or (isinstance(default, int) and value != int(value)):
        kind = "a positive whole number" if isinstance(default, int) else "a positive number"
        raise ValueError(f"{where}={raw!r} is not {kind}")
    sources[name] = where
    return int(value) if isinstance(default, int) else value


DEFAULT_BUDGET_S = 300.0  # one generate request against an endpoint (vLLM on a GPU)
DEFAULT_CRITIC_ROUNDS = 1  # rounds for the critic's findings on a script that runs, unless set or a catalogue entry decides
LOCAL_BUDGET_S = 900.0  # against the local model on CPU: a heal round is minutes there
# Fresh answers after a shape that disagreed (Settings.redraws). 2: a third was accepted once in 23 draws, at about
# 30 LLM seconds a draw (docs/benchmarks/acceptance.md). Each takes one of max_heal_rounds (3); BPYWRIGHT_REDRAWS=3 draws it.
DEFAULT_REDRAWS = 2

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")  # names and addresses only this machine can reach


@dataclass(frozen=True)
class Settings:
    """Where bpywright keeps its data and which external services/binaries it uses."""

    artifacts: Path = Path("artifacts")  # data directory: symbol indexes, exemplar store, runs, models, runtimes, recipe renders
    blender: Path | None = None  # a Blender executable to run scripts with (None: the target version's runtime, the bpy module for 4.5)
    sandbox: bool = True  # False = UNSAFE: run scripts without bubblewrap (rlimits and a cleared environment remain); trusted code only
    workers: int = field(default_factory=lambda: os.cpu_count() or 1)  # warm Blender workers for batch runs and the service
    llm_base_url: str | None = None  # an OpenAI-compatible /v1 endpoint (`vllm serve MODEL`); unset: the local model, else retrieval
    llm_model: str | None = None  # the model to ask the endpoint for (default: the first it serves)
    llm_api_key: str | None = None  # the endpoint's API key, when it wants one
    clip_weights: Path | None = None  # an open_clip checkpoint for the gallery's image search; CLIP is off when no weights load
    embedder: str = "local"  # text embedder of the symbol index: local (packaged all-MiniLM-L6-v2), openai (an endpoint), none (BM25 only)
    embed_model: str | None = None  # the embedding model (a local path or package for local; the model name for openai)
    embed_base_url: str | None = None  # the /v1 endpoint of embedder=openai (e.g. a vLLM embedding model)
    query_encoder: str = "auto"  # auto: the ONNX encoder ingest exports beside the index, when there; model: always the model
    llm_critic_model: str | None = None  # a separate critic model (default: the generator's)
    llm_timeout: float = 120.0  # seconds per LLM request
    # sampling fields sent with every LLM request besides OpenAI's (BPYWRIGHT_LLM_SAMPLING="repeat_penalty=1.0,top_k=20");
    # the local model's own (catalogue) are added under these
    llm_sampling: tuple[tuple[str, float], ...] = ()
    # prompt states the endpoint's cache keeps (the cost report's reuse estimate): 1 for llama.cpp's one slot; the local
    # server's RAM cache keeps several (set when it is started)
    llm_prompt_states: int = 1
    accept_threshold: float = 0.75  # critic score needed to accept a script
    max_heal_rounds: int = 3  # LLM heal rounds (a patch or a regeneration) per generate request; rule heals are free steps
    # of those rounds, how many may patch a script that runs but the critic rejected (the rest repair failures); None:
    # a local model's catalogue entry decides, else DEFAULT_CRITIC_ROUNDS
    max_critic_rounds: int | None = None
    # how a heal round repairs a script that fails: patch (the LLM rewrites it), regenerate (a fresh script, told what
    # failed), auto (patch, then regenerate once a patch round has not made it run; a local model's catalogue entry decides)
    repair: str = "auto"
    # how the first script is written: code (the model writes the bpy script), plan (the model writes the parts as JSON and
    # a deterministic builder writes the script: graph/plans/plan.py), auto (a local model's catalogue entry decides; else code)
    strategy: str = "auto"
    # who accepts a script that passed the objective checks: model (the critic model's rubric), grounded (the rubric, its
    # low score overruled when the scene disproves every reason it gives: graph/review/grounding.py), checks (those checks
    # decide, no rubric call), none (no rubric call and nothing accepted: the answer that passes the checks is returned as
    # the best attempt), neighbours (no rubric call: the scene's shape must agree with its 2 nearest verified exemplars of the
    # same kind: graph/review/agreement.py; the local model's entry: its own reviews carry no information), auto (a local
    # model's catalogue entry decides; else model)
    review: str = "auto"
    # fresh answers a request may draw when its answer passed the checks and its shape disagreed with its verified
    # neighbours or the archetype of its kind (review=neighbours; graph/review/agreement.py), each a round. Against the archetypes
    # they raised a run's accepts from 7 to 12 of 30, all faithful (docs/benchmarks/acceptance.md)
    redraws: int = DEFAULT_REDRAWS
    # plans of related everyday objects (graph/plans/library.py) shown with a plan request, to adapt: 0 shows none
    plan_examples: int = 2
    # show the critic's own shape of the request's kind (graph/plans/shapes.py) as the first plan example, to adapt; the critic
    # then holds the answer against a shape the model was shown (agreement.REPEAT_F refuses it repeated up to scale) and
    # the copy test counts it as shown (BPYWRIGHT_PLAN_SHAPES=0 hides it). Shown, 20 answers of 30 were faithful against
    # 17 and about 10 recognisable on the contact sheet against 3; built as answers, the shapes are faithful to 74.4 % of
    # their references, the loop's own answers to 58.8 % (docs/benchmarks/fidelity.md)
    plan_shapes: bool = True
    # wall-clock budget of one generate request; None: DEFAULT_BUDGET_S for an endpoint, LOCAL_BUDGET_S for the local CPU model
    budget_s: float | None = None
    clip_model: str = "ViT-B-32"  # open_clip architecture
    clip_pretrained: str | None = None  # an open_clip pretrained tag (needs its weights in the local cache)
    queue_size: int = 8  # service: jobs waiting for the pool before 429
    max_request_bytes: int = 1_000_000  # service: largest request body / script
    blender_version: str = "4.5"  # the target Blender (MAJOR.MINOR) when a command names none
    api_token: str | None = None  # service: bearer token required for what runs code or writes (and reads unless public)
    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS  # service: Host header allow-list, comma-separated; * for any (DNS rebinding)
    public_gallery: bool = False  # service: with a token, let anyone browse (GET) without it
    prompt_exemplars: int = 3  # verified exemplars shown to the generator (a local CPU model gets 1: reading the prompt is half the wait)
    # A bundled recipe is shown to the generator only when its prompt is at least this similar (cosine, the text embedder)
    # to the request: below it a small model copies the recipe (a table for a storage box, a mirror, a box) — measured:
    # the 30 CADBench prompts of the benchmark reach at most 0.44, requests a recipe covers 0.46-0.81.
    exemplar_floor: float = 0.45
    local_model: str | None = None  # catalogue name served on loopback when no LLM URL is set; "off" disables (default: best installed)
    cluster: str | None = None  # a Ray cluster for batches and the service (auto | ray://HOST:PORT | HOST:PORT); unset/local = this machine
    # The sandbox limits of every run: the BPYWRIGHT_* variable, else the same name under [tool.bpywright] in the nearest
    # pyproject.toml / bpywright.toml from the working directory up, else this default. `doctor` shows each and its source.
    memory_mb: int = 6144  # memory of a worker's processes together (memory cgroup where writable), and of each (address space)
    disk_mb: int = 1024  # space one job's dir may use (its own tmpfs in the sandbox; deleted-but-open files count)
    tmp_mb: int = 256  # size of each of the sandbox's private /tmp and /dev/shm (RAM-backed)
    max_processes: int = 64  # processes and threads of one sandbox (pids cgroup where writable)
    max_file_mb: int = 256  # largest file a script may write
    timeout: float = 60.0  # seconds a script may run (a command's --timeout wins)
    limit_sources: tuple[tuple[str, str], ...] = ()  # where each limit above came from (filled by from_env; for doctor)

    @classmethod
    def from_env(cls) -> Settings:
        """Settings from BPYWRIGHT_* variables (and the limits from [tool.bpywright] too), with embedded defaults for everything."""
        project = _project_table()
        sources: dict[str, str] = {}
        return cls(
            artifacts=_env_path("BPYWRIGHT_ARTIFACTS") or Path("artifacts"),
            blender=_env_path("BPYWRIGHT_BLENDER"),
            sandbox=_env_bool("BPYWRIGHT_SANDBOX", True),
            workers=int(os.environ.get("BPYWRIGHT_WORKERS") or (os.cpu_count() or 1)),
            llm_base_url=os.environ.get("BPYWRIGHT_LLM_BASE_URL") or None,
            llm_model=os.environ.get("BPYWRIGHT_LLM_MODEL") or None,
            llm_api_key=os.environ.get("BPYWRIGHT_LLM_API_KEY") or None,
            clip_weights=_env_path("BPYWRIGHT_CLIP_WEIGHTS"),
            embedder=os.environ.get("BPYWRIGHT_EMBEDDER") or "local",
            embed_model=os.environ.get("BPYWRIGHT_EMBED_MODEL") or None,
            embed_base_url=os.environ.get("BPYWRIGHT_EMBED_BASE_URL") or None,
            query_encoder=os.environ.get("BPYWRIGHT_QUERY_ENCODER") or "auto",
            llm_critic_model=os.environ.get("BPYWRIGHT_LLM_CRITIC_MODEL") or None,
            llm_timeout=float(os.environ.get("BPYWRIGHT_LLM_TIMEOUT") or 120.0),
            llm_sampling=_env_sampling("BPYWRIGHT_LLM_SAMPLING"),
            accept_threshold=float(os.environ.get("BPYWRIGHT_ACCEPT_THRESHOLD") or 0.75),
            max_heal_rounds=int(os.environ.get("BPYWRIGHT_MAX_HEAL_ROUNDS") or 3),
            max_critic_rounds=int(os.environ["BPYWRIGHT_MAX_CRITIC_ROUNDS"]) if os.environ.get("BPYWRIGHT_MAX_CRITIC_ROUNDS") else None,
            repair=_env_choice("BPYWRIGHT_REPAIR", REPAIRS, "auto"),
            strategy=_env_choice("BPYWRIGHT_STRATEGY", STRATEGIES, "auto"),
            review=_env_choice("BPYWRIGHT_REVIEW", REVIEWS, "auto"),
            redraws=max(0, int(os.environ.get("BPYWRIGHT_REDRAWS") or DEFAULT_REDRAWS)),
            plan_examples=max(0, int(os.environ.get("BPYWRIGHT_PLAN_EXAMPLES") or 2)),
            plan_shapes=_env_bool("BPYWRIGHT_PLAN_SHAPES", True),
            budget_s=float(os.environ["BPYWRIGHT_BUDGET_S"]) if os.environ.get("BPYWRIGHT_BUDGET_S") else None,
            clip_model=os.environ.get("BPYWRIGHT_CLIP_MODEL") or "ViT-B-32",
            clip_pretrained=os.environ.get("BPYWRIGHT_CLIP_PRETRAINED") or None,
            queue_size=int(os.environ.get("BPYWRIGHT_QUEUE_SIZE") or 8),
            max_request_bytes=int(os.environ.get("BPYWRIGHT_MAX_REQUEST_BYTES") or 1_000_000),
            blender_version=os.environ.get("BPYWRIGHT_BLENDER_VERSION") or _project_blender_version() or "4.5",
            local_model=os.environ.get("BPYWRIGHT_LOCAL_MODEL") or None,
            cluster=os.environ.get("BPYWRIGHT_CLUSTER") or None,
            prompt_exemplars=int(os.environ.get("BPYWRIGHT_PROMPT_EXEMPLARS") or 3),
            exemplar_floor=float(os.environ.get("BPYWRIGHT_EXEMPLAR_FLOOR") or 0.45),
            api_token=os.environ.get("BPYWRIGHT_API_TOKEN") or None,
            allowed_hosts=tuple(h.strip() for h in os.environ.get("BPYWRIGHT_ALLOWED_HOSTS", "").split(",") if h.strip()) or LOOPBACK_HOSTS,
            public_gallery=_env_bool("BPYWRIGHT_PUBLIC_GALLERY", False),
            memory_mb=int(_limit("BPYWRIGHT_MEMORY_MB", project, sources)),
            disk_mb=int(_limit("BPYWRIGHT_DISK_MB", project, sources)),
            tmp_mb=int(_limit("BPYWRIGHT_TMP_MB", project, sources)),
            max_processes=int(_limit("BPYWRIGHT_MAX_PROCESSES", project, sources)),
            max_file_mb=int(_limit("BPYWRIGHT_MAX_FILE_MB", project, sources)),
            timeout=_limit("BPYWRIGHT_TIMEOUT", project, sources),
            limit_sources=tuple(sources.items()),
        )

    def run_limits(self) -> dict[str, Any]:
        """The limits as RunOptions fields: `RunOptions(**settings.run_limits(), ...)` at every front door."""
        return {name: getattr(self, name) for name in LIMITS}

    def limit_source(self, name: str) -> str:
        """Where a limit came from: a BPYWRIGHT_* variable, a config file, or 'default'."""
        return dict(self.limit_sources).get(name, "default")

    def index_for(self, version: str) -> Path:
        """The symbol index directory of one Blender version."""
        return self.index_dir / version

    @property
    def exemplar_db(self) -> Path:
        """The exemplar store's SQLite database."""
        return self.artifacts / "exemplars" / "exemplars.sqlite"

    @property
    def exemplar_files(self) -> Path:
        """Content-addressed renders and thumbnails of the exemplar store."""
        return self.artifacts / "exemplars" / "files"

    @property
    def critic_rounds(self) -> int:
        """Rounds for the critic's findings on a script that runs: the set value, else DEFAULT_CRITIC_ROUNDS."""
        return DEFAULT_CRITIC_ROUNDS if self.max_critic_rounds is None else self.max_critic_rounds

    @property
    def runs_dir(self) -> Path:
        """Generation runs: the LangGraph checkpoint database and each run's script/report/render."""
        return self.artifacts / "runs"

    @property
    def models_dir(self) -> Path:
        """Installed local models (verified GGUF files) and the local server's log."""
        return self.artifacts / "models"

    @property
    def index_dir(self) -> Path:
        """Root of the per-version symbol indexes."""
        return self.artifacts / "index"
