"""Lets CPU torch import the CUDA-only torchvision wheel (needed by open_clip and sentence-transformers)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torch.library import Library

_lock = threading.Lock()
_library: bool | Library | None = None  # True: torchvision defines the ops; else the Library keeping ours alive


def prepare_torchvision() -> None:
    """Define the `torchvision::nms`/`qnms` op schemas before torchvision is imported.

    The only torchvision wheels are CUDA builds; with the CPU torch build their C++ ops are missing
    and `import torchvision` fails with "operator torchvision::nms does not exist" while registering
    fake kernels. Declaring the two schemas first lets the import succeed; nothing here calls them.
    """
    global _library
    with _lock:
        if _library is not None:
            return
        import torch

        try:
            torch.ops.torchvision.nms  # noqa: B018 - a real torchvision build defines it already
            _library = True
            return
        except (AttributeError, RuntimeError):
            pass
        library = torch.library.Library("torchvision", "DEF")
        library.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        library.define("qnms(Tensor qdets, Tensor scores, float iou_threshold) -> Tensor")
        _library = library
