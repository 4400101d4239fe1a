"""Inventory pass: a Sphinx objects.inv (file or URL) → API names with their roles and documentation URLs."""

from __future__ import annotations

import hashlib
import re
import urllib.error
import urllib.request
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..versions import VersionError, major_minor
from .errors import IngestError

DOCS_BASE = "https://docs.blender.org/api/{version}/"
MAGIC = b"# Sphinx inventory version 2"
FETCH_TIMEOUT = 60.0


@dataclass(frozen=True)
class InventoryEntry:
    """One inventory name: `bpy.types.Object.modifiers`, role `py:data`, its absolute documentation URL."""

    name: str
    role: str
    uri: str


@dataclass(frozen=True)
class Inventory:
    """A parsed objects.inv: the docs version it describes, where its pages live, and its entries."""

    source: str
    version: str
    base_url: str
    sha256: str
    entries: list[InventoryEntry]


def is_url(path_or_url: str) -> bool:
    """True for http(s) and file URLs."""
    return re.match(r"^(https?|file)://", path_or_url) is not None


def fetch_inventory(path_or_url: str) -> bytes:
    """The raw bytes of an objects.inv from a path or URL, checked to be a version-2 Sphinx inventory."""
    try:
        if is_url(path_or_url):
            with urllib.request.urlopen(path_or_url, timeout=FETCH_TIMEOUT) as response:  # noqa: S310 (a URL the user gave)
                data = response.read()
        else:
            data = Path(path_or_url).expanduser().read_bytes()
    except (OSError, urllib.error.URLError) as exc:
        raise IngestError(f"cannot read the inventory {path_or_url}: {exc}; pass --inventory a Sphinx objects.inv path or URL") from exc
    if not data.startswith(MAGIC):
        raise IngestError(f"{path_or_url} is not a Sphinx objects.inv (version 2): it should start with {MAGIC.decode()!r}")
    return data


def base_url_for(path_or_url: str, version: str) -> str:
    """The docs root that the inventory's URIs are relative to: next to a downloaded inventory, else docs.blender.org."""
    if is_url(path_or_url) and not path_or_url.startswith("file:"):
        return path_or_url.rsplit("/", 1)[0] + "/"
    return DOCS_BASE.format(version=version)


def complete_zlib(body: bytes) -> bool:
    """True when body is a whole zlib stream (sphobjinv reads a truncated one silently, losing entries)."""
    decompressor = zlib.decompressobj()
    try:
        decompressor.decompress(body)
    except zlib.error:
        return False
    return decompressor.eof


def parse_inventory(data: bytes, source: str, version: str | None = None) -> Inventory:
    """Parse inventory bytes; URIs are made absolute against the docs of `version` (default: the inventory's own)."""
    import sphobjinv  # ~0.1 s import, only needed here

    try:
        body = data.split(b"\n", 4)[-1]
        compressed = body[:1] == b"\x78"  # zlib's header byte; Sphinx keeps the "compressed" header line in plaintext dumps
        if compressed and not complete_zlib(body):
            raise ValueError("the compressed stream ends early (truncated download?)")
        inv = sphobjinv.Inventory(zlib=data) if compressed else sphobjinv.Inventory(plaintext=data)
    except Exception as exc:  # sphobjinv raises assorted errors (zlib.error, AttributeError, …) on bad data
        raise IngestError(f"{source} is a corrupt objects.inv ({type(exc).__name__}: {exc}); download it again") from exc
    try:
        resolved = major_minor(version or inv.version)
    except VersionError:
        raise IngestError(f"{source} names no Blender version ({inv.version!r}); pass the version explicitly") from None
    base = base_url_for(source, resolved)
    entries = [InventoryEntry(obj.name, f"{obj.domain}:{obj.role}", base + obj.uri_expanded) for obj in inv.objects]
    return Inventory(source, resolved, base, hashlib.sha256(data).hexdigest(), entries)


def load_inventory(path_or_url: str, version: str | None = None) -> Inventory:
    """Read and parse an objects.inv from a path or URL."""
    return parse_inventory(fetch_inventory(path_or_url), path_or_url, version)


def read_inventory(path_or_url: str, version: str | None = None) -> list[InventoryEntry]:
    """The entries of an objects.inv (path or URL), with absolute URLs of that Blender version's docs."""
    return load_inventory(path_or_url, version).entries
