"""The local model's query encoder as an ONNX file beside the index: exported at ingest, run with onnxruntime + tokenizers.

Importing sentence-transformers (transformers, torch) costs ~12 s of a cold `bpywright search` here; onnxruntime and
tokenizers load in well under a second and give the same vectors (max difference ~1e-6, checked at export).
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from .embedder import EmbedderError, normalise

if TYPE_CHECKING:
    import numpy as np

    from ..config import Settings
    from .embedder import Embedder, SentenceTransformerEmbedder

ENCODER_DIR = "encoder"  # inside an index folder (search-…/encoder)
MODEL_FILE = "model.onnx"
WEIGHTS_FILE = "model.onnx.data"  # the graph's tensors (external data, beside model.onnx)
TOKENIZER_FILE = "tokenizer.json"
META_FILE = "encoder.json"
OPSET = 17
ENCODER_SCHEMA = 2  # 2: graph optimised at export, weights in WEIGHTS_FILE (an older export is redone by `ingest`)
TOLERANCE = 1e-4  # largest element difference from the model accepted at export (float32 measures ~1e-6)
BATCH = 64
# Tokenizer output for each model input the exporter may see: a model needing another input is not exported.
_ENCODING_FIELDS = {"input_ids": "ids", "attention_mask": "attention_mask", "token_type_ids": "type_ids"}
# Texts the export is checked on: short, punctuated, non-ASCII, empty-ish and one past the model's token limit.
CHECK_TEXTS = [
    "bevel modifier",
    "a low-poly pine tree on a snowy ground",
    "Subdivision Surface, level 2!",
    "über-glänzendes Ölfass",
    " ",
    "cube " * 400,
]


class EncoderMeta(BaseModel):
    """encoder.json: which embedder's vectors the ONNX graph reproduces, its inputs, and how closely (measured)."""

    schema_version: int = ENCODER_SCHEMA
    embedder: str
    dim: int
    inputs: list[str]
    max_length: int
    opset: int = OPSET
    max_difference: float


def encoder_dir(index_folder: Path) -> Path:
    """Where an index folder keeps its exported query encoder."""
    return index_folder / ENCODER_DIR


def read_meta(directory: Path) -> EncoderMeta | None:
    """The encoder's metadata, or None when the directory holds no complete export."""
    meta = directory / META_FILE
    if not all((directory / name).is_file() for name in (META_FILE, MODEL_FILE, WEIGHTS_FILE, TOKENIZER_FILE)):
        return None
    try:
        found = EncoderMeta.model_validate_json(meta.read_text(encoding="utf-8"))
    except ValueError:
        return None
    return found if found.schema_version == ENCODER_SCHEMA else None


class OnnxQueryEncoder:
    """An Embedder over an exported encoder: the model's name (so index vectors stay comparable), no torch import."""

    def __init__(self, directory: Path, meta: EncoderMeta | None = None) -> None:
        meta = meta or read_meta(directory)
        if meta is None:
            raise EmbedderError(f"no exported query encoder in {directory}: run `bpywright ingest` to add it")
        self.directory = directory
        self.meta = meta
        self._session: Any = None
        self._tokenizer: Any = None

    @property
    def name(self) -> str:
        """The name of the embedder the graph was exported from."""
        return self.meta.embedder

    @property
    def dim(self) -> int:
        """Vector dimension."""
        return self.meta.dim

    def load(self) -> OnnxQueryEncoder:
        """Open the ONNX session and the tokenizer now (~0.1 s), so the first query pays nothing extra."""
        if self._session is None:
            try:
                import onnxruntime
                from tokenizers import Tokenizer
            except ImportError as exc:
                raise EmbedderError(f"onnxruntime/tokenizers not importable ({exc}): `pip install onnxruntime tokenizers`") from exc
            options = onnxruntime.SessionOptions()
            options.log_severity_level = 3  # warnings about unused initialisers are noise to a person searching
            options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL  # optimised at export
            try:
                self._tokenizer = Tokenizer.from_file(str(self.directory / TOKENIZER_FILE))
                self._session = onnxruntime.InferenceSession(str(self.directory / MODEL_FILE), options, providers=["CPUExecutionProvider"])
            except Exception as exc:  # a corrupt or truncated file: say which, the caller falls back to the model
                raise EmbedderError(
                    f"cannot open the query encoder in {self.directory} ({exc}): `bpywright ingest --force` re-exports it"
                ) from exc
        return self

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit-length float32 rows, in batches of similar length (less padding)."""
        import numpy as np

        self.load()
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]
            out[chunk] = self._run([texts[i] for i in chunk])
        return normalise(out)

    def _run(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        encodings = self._tokenizer.encode_batch(texts)
        feed = {name: np.array([getattr(e, _ENCODING_FIELDS[name]) for e in encodings], dtype=np.int64) for name in self.meta.inputs}
        try:
            return self._session.run(None, feed)[0]
        except Exception as exc:  # e.g. weights damaged after the session opened: the search goes on with BM25
            raise EmbedderError(f"the query encoder in {self.directory} failed ({exc}): `bpywright ingest --force` re-exports it") from exc


def export_encoder(embedder: SentenceTransformerEmbedder, index_folder: Path) -> EncoderMeta:
    """Export the model's whole sentence pipeline (transformer, pooling, normalisation) to index_folder/encoder.

    Written to a temporary directory and checked against the model on CHECK_TEXTS before it is moved into place, so a
    reader sees a complete, verified encoder or none. Raises EmbedderError when the model cannot be exported.
    """
    target = encoder_dir(index_folder)
    # The graph is float32 (onnxruntime's CPU kernels have no bf16 fast path): it is exported from and checked against
    # the float32 model. A bf16 runtime's vectors are within cosine 0.9999 of those, as a bf16 query's are.
    reference = embedder.float32()
    tmp = index_folder / f".{ENCODER_DIR}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        inputs, max_length = _export_graph(reference, tmp)
        meta = EncoderMeta(embedder=embedder.name, dim=embedder.dim, inputs=inputs, max_length=max_length, max_difference=0.0)
        (tmp / META_FILE).write_text(meta.model_dump_json(indent=2), encoding="utf-8")
        meta.max_difference = _difference(reference, OnnxQueryEncoder(tmp, meta))
        if meta.max_difference > TOLERANCE:
            raise EmbedderError(f"the ONNX export of {embedder.name} differs from the model by {meta.max_difference:.1e} (> {TOLERANCE})")
        (tmp / META_FILE).write_text(meta.model_dump_json(indent=2), encoding="utf-8")
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)
        return meta
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _export_graph(embedder: SentenceTransformerEmbedder, out: Path) -> tuple[list[str], int]:
    """model.onnx and tokenizer.json for the embedder's model; returns the graph's input names and the token limit."""
    import torch
    from tokenizers import Tokenizer

    model = embedder.load()._load()
    tokenizer = getattr(model, "tokenizer", None)
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if tokenizer is None or backend is None:
        raise EmbedderError(f"{embedder.name} has no fast tokenizer to export")
    features = (getattr(model, "preprocess", None) or model.tokenize)(CHECK_TEXTS[:2])
    tensors = {name for name, value in features.items() if isinstance(value, torch.Tensor)}
    constants = {name: value for name, value in features.items() if name not in tensors}  # e.g. modality="text"
    inputs = [name for name in _ENCODING_FIELDS if name in tensors]
    if tensors - set(inputs):
        raise EmbedderError(f"{embedder.name} needs inputs the exporter does not know: {sorted(tensors - set(inputs))}")
    max_length = int(getattr(model, "max_seq_length", None) or 512)

    class Pipeline(torch.nn.Module):
        """The SentenceTransformer called on positional tensors (the exporter's calling convention)."""

        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
            return self.model({**constants, **dict(zip(inputs, tensors))})["sentence_embedding"]

    axes = {name: {0: "batch", 1: "tokens"} for name in inputs} | {"sentence_embedding": {0: "batch"}}
    with torch.inference_mode(False), torch.no_grad():
        torch.onnx.export(
            Pipeline().eval(),
            tuple(features[name] for name in inputs),
            str(out / "raw.onnx"),
            input_names=inputs,
            output_names=["sentence_embedding"],
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )
    optimise(out / "raw.onnx", out / MODEL_FILE)
    (out / "raw.onnx").unlink()
    # The runtime tokenizer is the model's own, with the truncation and padding sentence-transformers applies per call.
    runtime = Tokenizer.from_str(backend.to_str())
    runtime.enable_truncation(max_length=max_length)
    runtime.enable_padding(pad_id=int(tokenizer.pad_token_id or 0), pad_token=str(tokenizer.pad_token or "[PAD]"))
    runtime.save(str(out / TOKENIZER_FILE))
    return inputs, max_length


def optimise(raw: Path, target: Path) -> None:
    """Save raw's graph with onnxruntime's portable (extended) fusions applied and its weights in a side file: each
    search then opens it with no optimisation pass and maps the weights instead of parsing 90 MB of protobuf (session
    start ~0.5 s → ~0.1 s here)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_EXTENDED  # ALL adds CPU-specific layouts
    options.optimized_model_filepath = str(target)
    options.add_session_config_entry("session.optimized_model_external_initializers_file_name", WEIGHTS_FILE)
    options.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
    onnxruntime.InferenceSession(str(raw), options, providers=["CPUExecutionProvider"])


def _difference(embedder: SentenceTransformerEmbedder, encoder: OnnxQueryEncoder) -> float:
    """Largest element difference between the model's and the export's vectors, one text at a time and as a batch."""
    import numpy as np

    worst = 0.0
    for texts in [[t] for t in CHECK_TEXTS] + [CHECK_TEXTS]:
        worst = max(worst, float(np.abs(embedder.embed(texts) - encoder.embed(texts)).max()))
    return worst


def query_embedder(settings: Settings, index_folder: Path) -> Embedder | None:
    """The embedder a search encodes queries with: the index's exported encoder when it reproduces the model the settings
    select (and BPYWRIGHT_QUERY_ENCODER is not `model`), else that model (make_embedder's choice), loaded on demand."""
    from .embedder import SentenceTransformerEmbedder, make_embedder

    embedder = make_embedder(settings)
    if settings.query_encoder == "model" or not isinstance(embedder, SentenceTransformerEmbedder):
        return embedder
    meta = read_meta(encoder_dir(index_folder))
    if meta is None or meta.embedder != embedder.name or importlib.util.find_spec("onnxruntime") is None:
        return embedder  # an index from before the export (`bpywright ingest` adds it), or onnxruntime missing
    try:
        return OnnxQueryEncoder(encoder_dir(index_folder), meta).load()
    except EmbedderError:
        return embedder  # a damaged export: the model still answers, only slower to start
