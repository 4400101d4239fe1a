"""CLIP image/text embeddings via open_clip: weights from a local checkpoint or a cached pretrained tag."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from ..config import Settings

HOW_TO_ENABLE = (
    "set BPYWRIGHT_CLIP_WEIGHTS=/path/to/open_clip_checkpoint (or BPYWRIGHT_CLIP_PRETRAINED=TAG with its weights in the local cache)"
)


class ClipUnavailable(Exception):
    """CLIP cannot be used here; the message says why and what fixes it."""


def _open_clip():
    from ..torch_compat import prepare_torchvision

    prepare_torchvision()  # CPU torch + CUDA torchvision wheel: define the missing op schemas first
    import open_clip

    return open_clip


def _cached_tag_file(open_clip: Any, model_name: str, tag: str) -> tuple[str, dict]:
    """The local file of a pretrained tag's weights, without touching the network (fails fast offline)."""
    cfg = open_clip.get_pretrained_cfg(model_name, tag)
    if not cfg:
        tags = ", ".join(open_clip.list_pretrained_tags_by_model(model_name)) or "none"
        raise ClipUnavailable(f"unknown open_clip pretrained tag {tag!r} for {model_name} (known: {tags})")
    candidates: list[str] = []
    if cfg.get("hf_hub"):
        from huggingface_hub import try_to_load_from_cache

        repo, filename = os.path.split(cfg["hf_hub"])  # "org/model/" (default file names) or "org/model/file.pt"
        names = [filename] if filename else ["open_clip_pytorch_model.bin", "open_clip_model.safetensors"]
        for name in names:
            found = try_to_load_from_cache(repo, name, cache_dir=os.environ.get("HF_HUB_CACHE"))  # read now, not at import
            if isinstance(found, str):
                candidates.append(found)
    if cfg.get("url"):
        candidates.append(str(Path.home() / ".cache" / "clip" / os.path.basename(cfg["url"])))
    for path in candidates:
        if Path(path).is_file():
            return path, cfg
    raise ClipUnavailable(
        f"the weights of open_clip {model_name}/{tag} are not in the local cache and cannot be downloaded here; "
        f"download them where there is network, or set BPYWRIGHT_CLIP_WEIGHTS to a local checkpoint"
    )


class ClipEncoder:
    """A loaded open_clip model: encode_image(path) / encode_text(text) → L2-normalised float32 vectors."""

    def __init__(self, model: Any, preprocess: Any, tokenizer: Any, *, key: str, description: str):
        self.model = model.eval()
        self.preprocess = preprocess
        self.tokenizer = tokenizer
        self.key = key  # identifies the weights: stored vectors of another key are stale
        self.description = description
        self._lock = threading.Lock()
        self.dim = int(self.encode_text("a render").shape[0])

    @classmethod
    def load(cls, model_name: str, *, weights: Path | None = None, pretrained: str | None = None) -> ClipEncoder:
        """Load model_name with a local checkpoint or a cached pretrained tag; ClipUnavailable says why not."""
        if weights is None and not pretrained:
            raise ClipUnavailable(f"no CLIP weights configured: {HOW_TO_ENABLE}")
        if weights is not None and not Path(weights).is_file():
            raise ClipUnavailable(f"CLIP weights not found at {weights}: fix BPYWRIGHT_CLIP_WEIGHTS")
        try:
            open_clip = _open_clip()
            if model_name not in open_clip.list_models():
                raise ClipUnavailable(f"unknown open_clip model {model_name!r}: fix BPYWRIGHT_CLIP_MODEL (e.g. ViT-B-32)")
            extra: dict[str, Any] = {}
            if weights is not None:
                source, stat = str(weights), Path(weights).stat()
                key = f"{model_name}@{Path(weights).resolve()}:{stat.st_size}:{int(stat.st_mtime)}"
            else:
                assert pretrained is not None
                source, cfg = _cached_tag_file(open_clip, model_name, pretrained)
                key = f"{model_name}@{pretrained}"
                extra = {"force_quick_gelu": bool(cfg.get("quick_gelu", False)), "image_mean": cfg.get("mean"), "image_std": cfg.get("std")}
            model, _, preprocess = open_clip.create_model_and_transforms(model_name, pretrained=source, **extra)
            return cls(model, preprocess, open_clip.get_tokenizer(model_name), key=key, description=f"{model_name} from {source}")
        except ClipUnavailable:
            raise
        except Exception as exc:  # any failure to load weights means CLIP is off, with the reason
            raise ClipUnavailable(
                f"could not load CLIP {model_name} weights ({type(exc).__name__}: {str(exc)[:300]}); {HOW_TO_ENABLE}"
            ) from exc

    @classmethod
    def random(cls, model_name: str, *, seed: int = 0) -> ClipEncoder:
        """A randomly initialised model (real code, no weights): for tests; the same seed gives the same vectors."""
        import torch

        open_clip = _open_clip()
        torch.manual_seed(seed)
        model, _, preprocess = open_clip.create_model_and_transforms(model_name, pretrained=None)
        return cls(
            model,
            preprocess,
            open_clip.get_tokenizer(model_name),
            key=f"{model_name}@random-{seed}",
            description=f"{model_name} (random init)",
        )

    def encode_image(self, path: Path) -> np.ndarray:
        """The normalised embedding of an image file."""
        import torch
        from PIL import Image

        with Image.open(path) as img:
            pixels = self.preprocess(img.convert("RGB")).unsqueeze(0)
        with self._lock, torch.no_grad():
            vector = self.model.encode_image(pixels)[0]
        return _normalised(vector.float().numpy())

    def encode_text(self, text: str) -> np.ndarray:
        """The normalised embedding of a text."""
        import torch

        tokens = self.tokenizer([text])
        with self._lock, torch.no_grad():
            vector = self.model.encode_text(tokens)[0]
        return _normalised(vector.float().numpy())


def _normalised(vector: np.ndarray) -> np.ndarray:
    import numpy as np

    vector = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


class ClipSlot:
    """The store's CLIP encoder: given, loaded on first use (once, under its own lock), or off with the reason."""

    def __init__(self, encoder: ClipEncoder | None = None, loader: Any = None, reason: str = ""):
        self._encoder = encoder
        self._loader = None if encoder is not None else loader
        self.reason = encoder.description if encoder is not None else reason or "CLIP off: no encoder given"
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings, *, enabled: bool = True) -> ClipSlot:
        """Off (with the fix) unless weights or a pretrained tag are configured; nothing heavy is imported here."""
        if not enabled:
            return cls(reason="CLIP not requested by this command")
        if settings.clip_weights is None and not settings.clip_pretrained:
            return cls(reason=f"CLIP off: no weights configured; {HOW_TO_ENABLE}")
        if settings.clip_weights is not None and not Path(settings.clip_weights).is_file():
            return cls(reason=f"CLIP off: weights not found at {settings.clip_weights}; fix BPYWRIGHT_CLIP_WEIGHTS")

        def load() -> ClipEncoder:
            return ClipEncoder.load(settings.clip_model, weights=settings.clip_weights, pretrained=settings.clip_pretrained)

        return cls(loader=load, reason="CLIP configured, not loaded yet")

    @property
    def loaded(self) -> ClipEncoder | None:
        """The encoder if it is loaded already (never loads)."""
        return self._encoder

    def get(self) -> ClipEncoder | None:
        """The encoder, loading it the first time; None when CLIP is off (see .reason)."""
        with self._lock:
            if self._encoder is None and self._loader is not None:
                loader, self._loader = self._loader, None
                try:
                    self._encoder = loader()
                    self.reason = self._encoder.description
                except ClipUnavailable as exc:
                    self.reason = f"CLIP off: {exc}"
            return self._encoder
