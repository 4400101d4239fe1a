"""GGUF header reading: the fields we pin, and hostile headers rejected with a clear error."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from bpywright.models.gguf import GGUFError, read_header

from .ggufs import QWEN_LIKE, gguf_bytes, gguf_string


def test_reads_architecture_name_license_and_template(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(gguf_bytes({**QWEN_LIKE, "general.license": "apache-2.0", "qwen2.block_count": 28}, tokens=50))
    header = read_header(path)
    assert (header.architecture, header.name, header.license, header.has_chat_template) == ("qwen2", "Tiny Test Model", "apache-2.0", True)
    assert header.metadata["qwen2.block_count"] == 28
    assert header.metadata["tokenizer.ggml.tokens"] == {"array_of": 8, "length": 50}


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"PK\x03\x04" + b"\0" * 40, "wrong magic"),
        (b"GGUF" + struct.pack("<IQQ", 9, 0, 0), "unsupported GGUF version"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 10**9), "not plausible"),
        (gguf_bytes(QWEN_LIKE)[:-7], "truncated"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 2**62), "exceeds"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + gguf_string("k") + struct.pack("<IIQ", 9, 8, 2**40), "not plausible"),
        (b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + gguf_string("k") + struct.pack("<I", 77), "unknown GGUF value type"),
    ],
)
def test_hostile_headers_are_refused(tmp_path: Path, data: bytes, why: str) -> None:
    path = tmp_path / "bad.gguf"
    path.write_bytes(data)
    with pytest.raises(GGUFError, match=why):
        read_header(path)
