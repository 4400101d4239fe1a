"""Index pass: symbols.jsonl → a BM25 index (bm25s) and, with an embedder, a FAISS index, under one manifest."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from .embedder import EmbedderError
from .onnx_encoder import encoder_dir, export_encoder, read_meta
from .stored import VECTORS, FaissVectors, SymbolRecords, SymbolsByName, read_known, write_known
from .symbols import Symbol, read_symbols
from .tokenize import split_identifier, tokenize
from .usage import SymbolResolver, read_used, script_key, write_used

if TYPE_CHECKING:
    import numpy as np

    from ..config import Settings
    from .embedder import Embedder

FORMAT = 4  # bump when chunk texts or files change: the content key then differs and the index is rebuilt
MANIFEST = "search.json"
MAX_DENSE = 24_000  # ≈ 5 min of MiniLM encoding on 2 busy CPU cores (~80 texts/s); see dense_priority
_UI_CLASS = re.compile(r"^[A-Z0-9]+_(?:PT|MT|HT|UL|OT|GT|GGT|AST|FH|KM|PIE)_")  # registered UI classes: panels, menus, …
_LOW_VALUE = ("Theme", "Preferences", "User", "Addon", "KeyMap", "Keyconfig", "WorkSpace", "Xr", "UI", "Window")  # User*: preferences
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_PARAM = re.compile(r"[(,]\s*\*{0,2}(\w+)")  # parameter names of a signature, not their defaults


class IndexStats(BaseModel):
    """What a build did (or that it was skipped because nothing changed)."""

    path: Path
    symbols: int
    dense: int = 0
    embedder: str | None = None
    dim: int | None = None
    seconds: float = 0.0
    bytes: int = 0
    skipped: bool = False
    note: str = ""

    def summary(self) -> str:
        """One line for the CLI."""
        verb = "unchanged" if self.skipped else f"built in {self.seconds:.1f} s"
        dense = f"{self.dense} vectors ({self.embedder}, dim {self.dim})" if self.embedder else "no dense vectors (BM25-only)"
        return f"index {self.path}: {verb}; {self.symbols} symbols, {dense}, {self.bytes / 1e6:.1f} MB" + (
            f" ({self.note})" if self.note else ""
        )


def first_sentence(text: str, limit: int = 160) -> str:
    """The description's first sentence (of its first line: later lines list parameters), cut at limit characters."""
    line = text.strip().split("\n", 1)[0]
    return _SENTENCE_END.split(" ".join(line.split()), maxsplit=1)[0][:limit]


def short_name(sym: Symbol) -> str:
    """The last dotted component, e.g. primitive_uv_sphere_add."""
    return sym.name.rsplit(".", 1)[-1]


def owner_name(sym: Symbol) -> str:
    """The component before the last: the struct of a member, the namespace of an operator."""
    parts = sym.name.split(".")
    return parts[-2] if len(parts) > 1 else ""


def bm25_tokens(sym: Symbol) -> list[str]:
    """The BM25 chunk of one symbol: its own name weighted ×3, the full name, description, signature/type, enum items, examples."""
    tokens = tokenize(short_name(sym)) * 2 + tokenize(sym.name)
    tokens += tokenize(sym.description)
    tokens += tokenize(" ".join(_PARAM.findall(sym.signature or ""))) + tokenize(sym.type or "")
    tokens += tokenize(" ".join(sym.enum_items[:32]))
    tokens += tokenize(" ".join(sym.examples[:4]))
    return tokens or ["_empty"]


def dense_text(sym: Symbol) -> str:
    """A short embedding text: owner and own name as words, then the first sentence of the description."""
    words = split_identifier(owner_name(sym), joined=False) + split_identifier(short_name(sym), joined=False)
    return f"{' '.join(w for w in words if w not in {'bpy', 'ops', 'types'})}: {first_sentence(sym.description)}".strip(": ")


def is_peripheral(sym: Symbol) -> bool:
    """UI registration classes (panels, menus), themes, preferences and bl_* attributes: API, but not for building scenes."""
    return is_peripheral_name(sym.name)


def is_peripheral_name(name: str) -> bool:
    """is_peripheral by the symbol's name alone (all it looks at)."""
    struct = name.split(".")[2] if name.startswith("bpy.types.") and name.count(".") >= 2 else ""
    return bool(struct and (_UI_CLASS.match(struct) or struct.startswith(_LOW_VALUE))) or name.rsplit(".", 1)[-1].startswith("bl_")


def dense_priority(sym: Symbol) -> int | None:
    """Embedding order (lower first), None to leave out: operators, structs, functions, then properties.

    Left out: peripheral symbols, enum items (their parent's text lists them) and modules (bpy.ops.mesh: a namespace,
    found by name; as vectors they matched every vague query). Measured here (2 CPU cores): MiniLM encodes ~380 short
    texts/s in bf16 (~215 in float32, ~50-80 when the machine is busy), so the ~15.7k vectors of Blender 4.5 take
    40 s to 5 min; MAX_DENSE caps a much larger API at the slow end of that, dropping properties first. BM25 covers
    every symbol either way.
    """
    if is_peripheral(sym) or sym.kind in ("enum_item", "module"):
        return None
    return {"operator": 0, "struct": 1, "class": 1, "function": 2, "property": 3}.get(sym.kind, 4)


def file_sha256(path: Path) -> str:
    """Content hash of a file (symbols.jsonl: the index's input)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def content_key(symbols_sha256: str, embedder_name: str | None, max_dense: int) -> str:
    """Hash of everything the index depends on: the symbols, the embedder, the dense budget, the format."""
    return hashlib.sha256(f"{symbols_sha256}|format={FORMAT}|embedder={embedder_name}|max_dense={max_dense}".encode()).hexdigest()


def read_manifest(version_dir: Path) -> dict | None:
    """The manifest of the current index of version_dir, or None."""
    path = version_dir / MANIFEST
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def _dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _write_bm25(symbols: list[Symbol], out: Path, progress: bool) -> None:
    import bm25s
    from tqdm import tqdm

    corpus = [bm25_tokens(s) for s in tqdm(symbols, desc="bm25 chunks", disable=not progress, unit="sym")]
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=progress)
    retriever.save(str(out / "bm25"))


def sibling_vectors(version_dir: Path, embedder_name: str, wanted: set[str]) -> dict[str, np.ndarray]:
    """Text → vector from the other versions' indexes (same embedder) beside version_dir, for the wanted texts only.

    Most of one Blender version's API reads as another's, so a new version's index embeds only the texts no installed
    index holds (4.2 next to 4.5 and 5.2: a few hundred texts instead of ~16k). Unreadable siblings are skipped.
    """
    import numpy as np

    found: dict[str, np.ndarray] = {}
    here = version_dir.resolve()
    for manifest_path in sorted(version_dir.parent.glob(f"*/{MANIFEST}")):
        sibling = manifest_path.parent
        if sibling.resolve() == here or sibling.name.startswith(".") or len(found) == len(wanted):
            continue
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
            if manifest.get("embedder") != embedder_name or not manifest.get("dense"):
                continue
            folder = sibling / manifest["dir"]
            vectors = np.load(folder / VECTORS, mmap_mode="r")
            rows = np.load(folder / "dense_rows.npy")
            symbols = list(read_symbols(sibling / "symbols.jsonl"))
            for j, i in enumerate(rows.tolist()):
                text = dense_text(symbols[i])
                if text in wanted and text not in found:
                    found[text] = np.array(vectors[j], dtype=np.float32)
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            continue
    return found


def _write_dense(
    symbols: list[Symbol], embedder: Embedder, out: Path, max_dense: int, progress: bool, reuse_from: Path | None = None
) -> tuple[int, int]:
    """Embed the chosen symbols' texts into out; texts found in sibling indexes of reuse_from are not embedded again.

    Returns (vectors written, vectors reused).
    """
    import faiss
    import numpy as np
    from tqdm import tqdm

    ranked = sorted((p, i) for i, s in enumerate(symbols) if (p := dense_priority(s)) is not None)
    rows = sorted(i for _, i in ranked[:max_dense])
    texts = [dense_text(symbols[i]) for i in rows]
    vectors = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    known = sibling_vectors(reuse_from, embedder.name, set(texts)) if reuse_from is not None else {}
    known = {t: v for t, v in known.items() if v.shape == (embedder.dim,)}
    for j, text in enumerate(texts):
        if text in known:
            vectors[j] = known[text]
    missing = [j for j, text in enumerate(texts) if text not in known]
    order = sorted(missing, key=lambda j: len(texts[j]))  # similar lengths per batch: less padding
    batch = 512
    for start in tqdm(range(0, len(order), batch), desc=f"embed ({embedder.name})", disable=not progress, unit="batch"):
        chunk = order[start : start + batch]
        vectors[chunk] = embedder.embed([texts[j] for j in chunk])
    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(vectors)
    faiss.write_index(index, str(out / "dense.faiss"))
    np.save(out / VECTORS, vectors)  # the same rows, memory-mapped by a search that does not import faiss
    np.save(out / "dense_rows.npy", np.asarray(rows, dtype=np.int32))
    return len(rows), len(texts) - len(missing)


def known_texts() -> list[str]:
    """Texts every index load embeds: the modelling phrases and the recipes' prompts (the usage prior's first examples)."""
    from ..recipes import all_recipes
    from .tokenize import all_modelling_phrases

    return list(dict.fromkeys(all_modelling_phrases() + [r.prompt for r in all_recipes()]))


def _query_files(folder: Path, embedder: Embedder) -> list[str]:
    """add_query_files, its failure (an endpoint gone while embedding the known texts) one more note."""
    try:
        return add_query_files(folder, embedder)
    except EmbedderError as exc:
        return [f"no stored vectors of known texts ({exc})"]


def add_query_files(folder: Path, embedder: Embedder) -> list[str]:
    """Add what a cold search reads instead of loading libraries and models, where missing; returns notes on what it did.

    dense.npy (the vectors without FAISS), known.npz (vectors of known_texts), used.json (the symbols each recipe uses:
    the usage prior's first examples, without parsing the scripts) and, for a local model, the ONNX query
    encoder (no torch). Each is written whole and renamed into place, so an index built before them gains them here
    without re-embedding its symbols; an export that fails leaves searches on the model, and says why.
    """
    import numpy as np

    added = []
    if not (folder / VECTORS).is_file() and (folder / "dense.faiss").is_file():
        tmp = folder / f".{VECTORS}.tmp.npy"
        np.save(tmp, np.ascontiguousarray(FaissVectors.load(folder).vectors(), dtype=np.float32))
        tmp.replace(folder / VECTORS)
        added.append("added dense.npy")
    if not read_known(folder, embedder.name):
        texts = known_texts()
        write_known(folder, embedder.name, texts, embedder.embed(texts))
        added.append(f"added the vectors of {len(texts)} known texts")
    if not read_used(folder) and (folder.parent / "symbols.jsonl").is_file():
        from ..recipes import all_recipes

        resolver = SymbolResolver(SymbolsByName(SymbolRecords.read(folder.parent / "symbols.jsonl")))
        write_used(folder, {script_key(r.source): resolver.symbols_used(r.source) for r in all_recipes()})
        added.append("added the symbols the recipes use")
    from .embedder import SentenceTransformerEmbedder

    if isinstance(embedder, SentenceTransformerEmbedder):
        meta = read_meta(encoder_dir(folder))
        if meta is None or meta.embedder != embedder.name:
            try:
                meta = export_encoder(embedder, folder)
                added.append(f"added the ONNX query encoder (max difference {meta.max_difference:.0e})")
            except Exception as exc:  # noqa: BLE001 - any exporter failure (missing onnx, an untraceable model) only costs speed
                added.append(f"no ONNX query encoder ({type(exc).__name__}: {exc}): searches load the model")
    return added


def build_index(
    version_dir: Path,
    *,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    progress: bool = False,
    max_dense: int = MAX_DENSE,
    force: bool = False,
) -> IndexStats:
    """Index version_dir/symbols.jsonl into version_dir (atomically); a no-op when symbols and embedder are unchanged.

    The embedder is `embedder`, else the one `settings` configures (one of them is required: nothing here reads the
    environment; Settings(embedder="none") builds BM25 only).
    """
    symbols_path = version_dir / "symbols.jsonl"
    if not symbols_path.is_file():
        raise FileNotFoundError(f"{symbols_path} is missing: run `bpywright ingest --blender-version {version_dir.name}`")
    if embedder is None:
        if settings is None:
            raise TypeError("build_index needs settings or an embedder")
        from .embedder import make_embedder

        embedder = make_embedder(settings)
    note = ""
    try:
        name = embedder.name if embedder is not None else None
    except EmbedderError as exc:  # e.g. the endpoint is down: index BM25-only now, retry the vectors on the next run
        embedder, name, note = None, None, f"no vectors: {exc}"
    symbols_sha256 = file_sha256(symbols_path)
    key = content_key(symbols_sha256, name, max_dense)
    manifest = read_manifest(version_dir)
    if manifest and manifest.get("key") == key and (version_dir / manifest["dir"]).is_dir() and not force:
        if embedder is not None and manifest["dense"]:  # an index from before the query files gains them (cheap: no re-embedding)
            note = "; ".join(_query_files(version_dir / manifest["dir"], embedder))
        return IndexStats(
            path=version_dir,
            symbols=manifest["symbols"],
            dense=manifest["dense"],
            embedder=manifest["embedder"],
            dim=manifest["dim"],
            seconds=manifest["seconds"],
            bytes=manifest["bytes"],
            skipped=True,
            note=note,
        )
    started = time.perf_counter()
    symbols = list(read_symbols(symbols_path))
    final = version_dir / f"search-{key[:12]}-{secrets.token_hex(3)}"  # never the live directory, even on --force
    for stale in version_dir.glob(".search-*.tmp"):  # left by an interrupted build
        shutil.rmtree(stale, ignore_errors=True)
    tmp = version_dir / f".{final.name}.tmp"
    tmp.mkdir(parents=True)
    _write_bm25(symbols, tmp, progress)
    dense = 0
    if embedder is not None and symbols:
        try:
            dense, reused = _write_dense(symbols, embedder, tmp, max_dense, progress, reuse_from=version_dir)
            notes = [f"{reused} of {dense} vectors reused from other versions' indexes"] if reused else []
            note = "; ".join(notes + _query_files(tmp, embedder))
        except EmbedderError as exc:
            note = f"no vectors: {exc}"
    if not dense:
        key = content_key(symbols_sha256, None, max_dense)  # what was built: a later run with a working embedder rebuilds
    tmp.rename(final)
    stats = IndexStats(
        path=version_dir,
        symbols=len(symbols),
        dense=dense,
        embedder=name if dense else None,
        dim=embedder.dim if dense and embedder else None,
        seconds=round(time.perf_counter() - started, 2),
        bytes=_dir_bytes(final),
        note=note,
    )
    record = {
        "schema_version": 1,
        "format": FORMAT,
        "key": key,
        "dir": final.name,
        "symbols_sha256": symbols_sha256,
        **stats.model_dump(mode="json", exclude={"path", "skipped", "note"}),
    }
    manifest_tmp = version_dir / f".{MANIFEST}.tmp"
    manifest_tmp.write_text(json.dumps(record, indent=2), encoding="utf-8")
    manifest_tmp.replace(version_dir / MANIFEST)  # readers switch to the new index here, in one step
    for old in version_dir.glob("search-*"):
        if old != final and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    return stats
