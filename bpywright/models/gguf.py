"""Read a GGUF file's header (magic, version, metadata) without trusting it: every length is bounded."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import BaseModel

MAGIC = b"GGUF"
MAX_KV = 100_000  # metadata entries; real models have a few dozen
MAX_STRING = 4 << 20  # one string (chat templates are a few KB)
MAX_ARRAY = 4_000_000  # elements of one array (vocabularies: ~150k)
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
STRING, ARRAY = 8, 9


class GGUFError(ValueError):
    """The file is not a well-formed GGUF header (truncated, wrong magic, absurd lengths)."""


class GGUFHeader(BaseModel):
    """What a GGUF says about itself: format version, tensor count and the scalar/string metadata (arrays summarised by length)."""

    version: int
    tensors: int
    metadata: dict[str, Any]

    @property
    def architecture(self) -> str | None:
        """general.architecture (e.g. qwen2, llama)."""
        return _str(self.metadata.get("general.architecture"))

    @property
    def name(self) -> str | None:
        """general.name, as the converter wrote it."""
        return _str(self.metadata.get("general.name"))

    @property
    def license(self) -> str | None:
        """general.license, when present."""
        return _str(self.metadata.get("general.license"))

    @property
    def has_chat_template(self) -> bool:
        """True when the file carries a chat template (the server formats prompts with it)."""
        return bool(self.metadata.get("tokenizer.chat_template"))


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _read(f: BinaryIO, n: int) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise GGUFError("truncated GGUF header")
    return data


def _unpack(f: BinaryIO, fmt: str) -> Any:
    return struct.unpack(fmt, _read(f, struct.calcsize(fmt)))[0]


def _string(f: BinaryIO) -> str:
    length = _unpack(f, "<Q")
    if length > MAX_STRING:
        raise GGUFError(f"GGUF string of {length} bytes exceeds {MAX_STRING}")
    return _read(f, length).decode("utf-8", errors="replace")


def _value(f: BinaryIO, kind: int) -> Any:
    if kind in _SCALARS:
        return _unpack(f, _SCALARS[kind])
    if kind == STRING:
        return _string(f)
    if kind == ARRAY:
        item, count = _unpack(f, "<I"), _unpack(f, "<Q")
        if count > MAX_ARRAY or item == ARRAY:
            raise GGUFError(f"GGUF array of {count} elements (type {item}) is not plausible")
        if item in _SCALARS:
            _read(f, struct.calcsize(_SCALARS[item]) * count)  # skipped: only its length is kept
        elif item == STRING:
            for _ in range(count):
                _string(f)
        else:
            raise GGUFError(f"unknown GGUF array element type {item}")
        return {"array_of": item, "length": count}
    raise GGUFError(f"unknown GGUF value type {kind}")


def read_header(path: Path) -> GGUFHeader:
    """The header of the GGUF at path (raises GGUFError when it is not one)."""
    with open(path, "rb") as f:
        if f.read(4) != MAGIC:
            raise GGUFError(f"{path} is not a GGUF file (wrong magic bytes)")
        version = _unpack(f, "<I")
        if version not in (2, 3):
            raise GGUFError(f"{path}: unsupported GGUF version {version}")
        tensors, count = _unpack(f, "<Q"), _unpack(f, "<Q")
        if count > MAX_KV:
            raise GGUFError(f"{path}: {count} metadata entries is not plausible")
        metadata: dict[str, Any] = {}
        for _ in range(count):
            key = _string(f)
            metadata[key] = _value(f, _unpack(f, "<I"))
    return GGUFHeader(version=version, tensors=tensors, metadata=metadata)
