"""ingest(): inventory → introspect → merge → examples → write → index, a no-op when its inputs are unchanged."""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .. import __version__
from ..versions import VersionError, major_minor
from .errors import IngestError
from .introspect import PROBE_PATH, introspect
from .inventory import Inventory, load_inventory
from .merge import SymbolTable, attach_examples
from .symbols import write_symbols

if TYPE_CHECKING:
    from ..config import Settings

__all__ = ["IngestError", "IngestResult", "ingest"]

INGEST_FORMAT = 1  # bump when the symbols written change meaning; inputs then differ and ingest re-runs
MANIFEST = "manifest.json"
SYMBOLS = "symbols.jsonl"
CODE_FILES = ("inventory.py", "introspect.py", "merge.py", "pipeline.py", "symbols.py")
PASSES = ("inventory", "introspect", "merge", "examples", "write", "index")


@dataclass
class IngestResult:
    """What one ingest produced (or found up to date): where, how many symbols of each kind, how long each pass took."""

    version: str
    directory: Path
    blender_version: str = ""
    inventory_version: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    skipped: bool = False
    warnings: list[str] = field(default_factory=list)
    index: str = ""

    @property
    def total(self) -> int:
        """Number of symbols."""
        return sum(self.counts.values())

    def summary(self) -> str:
        """Several lines for the CLI: where, how many symbols by kind, time per pass, warnings."""
        head = f"symbol index for Blender {self.version} ({self.blender_version}) in {self.directory}"
        lines = [head + (": up to date, inputs unchanged (--force rebuilds)" if self.skipped else "")]
        kinds = ", ".join(f"{n:,} {kind}" for kind, n in sorted(self.counts.items(), key=lambda kv: -kv[1]))
        lines.append(f"  {self.total:,} symbols: {kinds}")
        if self.inventory_version:
            lines.append(f"  inventory: Blender {self.inventory_version} docs")
        if not self.skipped:
            lines.append("  passes: " + ", ".join(f"{name} {secs:.1f} s" for name, secs in self.seconds.items()))
        if self.index:
            lines.append(f"  {self.index}")
        lines += [f"  warning: {w}" for w in self.warnings]
        return "\n".join(lines)


def sha256_text(*parts: str | bytes) -> str:
    """sha256 over several parts (length-prefixed, so parts cannot run into each other)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(f"{len(data)}:".encode() + data)
    return digest.hexdigest()


def blender_identity(blender: Path | None, python: Path | None = None) -> str:
    """Which Blender would be introspected, known without starting it: the binary's path/size/mtime or the bpy wheel's version."""
    if blender is not None:
        path = blender.expanduser().resolve()
        try:
            stat = path.stat()
        except OSError as exc:
            raise IngestError(f"Blender executable not found: {blender} (check --blender / BPYWRIGHT_BLENDER)") from exc
        return f"exe:{path}:{stat.st_size}:{stat.st_mtime_ns}"
    if python is not None:  # a runtime's venv: the bpy wheel it holds names the version
        wheels = sorted(p.name for p in Path(python).parent.parent.glob("lib/python3*/site-packages/bpy-*.dist-info"))
        return f"bpy:{python}:{wheels[-1] if wheels else 'unknown'}"
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"bpy:{sys.executable}:{version('bpy')}"
    except PackageNotFoundError:
        return f"bpy:{sys.executable}:unknown"


def input_hashes(inventory: Inventory | None, blender: Path | None, settings, python: Path | None = None) -> dict[str, str]:
    """Content hashes of everything the index depends on (a change in any one re-runs the ingest)."""
    from ..recipes import all_recipes

    here = Path(__file__).parent
    return {
        "inventory": inventory.sha256 if inventory else "",
        "blender": blender_identity(blender, python),
        "probe": hashlib.sha256(PROBE_PATH.read_bytes()).hexdigest(),
        "recipes": sha256_text(*(part for r in all_recipes() for part in (r.name, r.source))),
        "code": sha256_text(__version__, str(INGEST_FORMAT), *((here / name).read_bytes() for name in CODE_FILES)),
        "embedder": sha256_text(str(settings.embedder), str(settings.embed_model), str(settings.embed_base_url)),
    }


def find_up_to_date(out_root: Path, inputs: dict[str, str]) -> IngestResult | None:
    """The result recorded by an earlier ingest with exactly these inputs, when its files are all still there."""
    for path in sorted(out_root.glob(f"*/{MANIFEST}")):
        if path.parent.name.startswith("."):
            continue  # staging or moved-aside directories
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if manifest.get("inputs") == inputs and (path.parent / SYMBOLS).is_file():
            return IngestResult(
                manifest["version"],
                path.parent,
                manifest["blender_version"],
                manifest.get("inventory_version"),
                manifest["counts"],
                manifest["seconds"],
                True,
                manifest.get("warnings", []),
            )
    return None


def restore_interrupted(out_root: Path) -> None:
    """Put back a version directory that an ingest killed mid-swap had moved aside."""
    for old in out_root.glob(".*.old"):
        target = out_root / old.name[1:-4]
        if not target.exists():
            old.rename(target)
        else:
            shutil.rmtree(old, ignore_errors=True)


def install(staging: Path, target: Path) -> None:
    """Swap the staged version directory in (two renames; restore_interrupted repairs a kill in between)."""
    old = target.parent / f".{target.name}.old"
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    staging.rename(target)
    shutil.rmtree(old, ignore_errors=True)


def write_manifest(directory: Path, result: IngestResult, inputs: dict[str, str]) -> None:
    """manifest.json: the input hashes that make a re-run a no-op, and what this run produced."""
    record = {
        "schema_version": 1,
        "version": result.version,
        "blender_version": result.blender_version,
        "inventory_version": result.inventory_version,
        "inputs": inputs,
        "counts": result.counts,
        "seconds": result.seconds,
        "warnings": result.warnings,
    }
    tmp = directory / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(record, indent=2), encoding="utf-8")
    tmp.replace(directory / MANIFEST)


def build_symbols(probe: dict, inventory: Inventory | None, version: str, timer: dict[str, float]) -> tuple[SymbolTable, list[str]]:
    """The merge and examples passes: one Symbol per name, with URLs and recipe lines; plus warnings."""
    from ..recipes import all_recipes

    warnings = []
    start = time.perf_counter()
    table = SymbolTable(version)
    table.add_probe(probe)
    if probe.get("errors"):
        warnings.append(f"the probe skipped {len(probe['errors'])} items that raised (first: {probe['errors'][0][0]})")
    if inventory is not None:
        same = inventory.version == version
        if not same:
            warnings.append(
                f"the inventory describes Blender {inventory.version}, not {version}: its URLs point at the "
                f"{inventory.version} docs and names only it lists were not added where introspection is complete"
            )
        table.add_inventory(inventory.entries, new_names=same)
    timer["merge"] = time.perf_counter() - start
    start = time.perf_counter()
    attach_examples(table, [r.source for r in all_recipes()])
    timer["examples"] = time.perf_counter() - start
    return table, warnings


def ingest(
    *,
    inventory: str | None = None,
    blender: Path | None = None,
    python: Path | None = None,
    out_root: Path,
    settings: Settings,
    force: bool = False,
    progress: bool = False,
    timeout: float = 600,
) -> IngestResult:
    """Build out_root/<major.minor>/symbols.jsonl (+ manifest.json and the search index) from the introspected Blender.

    settings (the caller's: the CLI reads them from the environment) give the sandbox, the embedder and the default Blender.
    """
    from tqdm import tqdm

    blender = blender or settings.blender  # the Blender that runs scripts (BPYWRIGHT_BLENDER) unless told otherwise
    out_root.mkdir(parents=True, exist_ok=True)
    restore_interrupted(out_root)
    bar = tqdm(total=len(PASSES), desc="ingest", unit="pass", file=sys.stderr, disable=not progress)
    timer: dict[str, float] = {}
    try:
        inv = None
        if inventory:
            start = time.perf_counter()
            inv = load_inventory(inventory)
            timer["inventory"] = time.perf_counter() - start
        inputs = input_hashes(inv, blender, settings, python)
        if not force and (done := find_up_to_date(out_root, inputs)) is not None:
            from .index import build_index

            done.index = build_index(done.directory, settings=settings).summary()  # a no-op that adds query files an older index lacks
            return done
        bar.update(1)
        bar.set_postfix_str("introspect")
        start = time.perf_counter()
        probe = introspect(blender, timeout, sandbox=settings.sandbox, python=python)
        timer["introspect"] = time.perf_counter() - start
        try:
            version = major_minor(probe.get("blender_version"))
        except VersionError:
            raise IngestError(f"the introspected Blender reported no version ({probe.get('blender_version')!r})") from None
        bar.update(1)
        bar.set_postfix_str("merge")
        table, warnings = build_symbols(probe, inv, version, timer)
        bar.update(2)
        bar.set_postfix_str("index")
        result = IngestResult(version, out_root / version, probe["blender_version"], inv.version if inv else None, warnings=warnings)
        write_and_index(table, result, inputs, settings, progress, timer)
        bar.update(2)
        return result
    finally:
        bar.close()


def write_and_index(
    table: SymbolTable, result: IngestResult, inputs: dict[str, str], settings, progress: bool, timer: dict[str, float]
) -> None:
    """Write symbols.jsonl, the search index and manifest.json next to the live directory; swap them in only once complete."""
    from .index import build_index

    symbols = table.symbols()
    result.counts = dict(Counter(sym.kind for sym in symbols))
    target = result.directory
    staging = target.parent / f".{target.name}.staging"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        start = time.perf_counter()
        write_symbols(symbols, staging / SYMBOLS)
        timer["write"] = time.perf_counter() - start
        start = time.perf_counter()
        live = target / SYMBOLS
        same = live.is_file() and live.read_bytes() == (staging / SYMBOLS).read_bytes()
        # same symbols: the live index stays valid and build_index refreshes it in place (a no-op unless the embedder changed)
        stats = build_index(target if same else staging, settings=settings, progress=progress)
        timer["index"] = time.perf_counter() - start
        result.index = stats.summary().replace(str(staging), str(target))
        result.seconds = {name: round(timer[name], 2) for name in PASSES if name in timer}
        write_manifest(target if same else staging, result, inputs)
        if not same:
            install(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # left over only when a pass failed: the live directory is untouched
