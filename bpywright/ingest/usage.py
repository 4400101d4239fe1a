"""Which index symbols a script uses, and a prior from verified scripts: "prompts like this one used these symbols"."""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import pyast
from .symbols import Symbol
from .tokenize import tokenize

if TYPE_CHECKING:
    from .embedder import Embedder

NEIGHBOURS = 10  # verified scripts consulted per query
CONFIDENT_SIMILARITY = 0.4  # neighbours this similar on average (cosine) count fully; less similar ones scale shares down


def dotted(node: ast.AST) -> list[str] | None:
    """['bpy', 'ops', 'mesh', 'primitive_cube_add'] for a pure Name.attr.attr chain, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return [node.id, *reversed(parts)] if isinstance(node, ast.Name) else None


def unique_members(names: Iterable[str]) -> dict[str, str]:
    """Member name → `bpy.types.Struct.member` for member names defined on exactly one struct."""
    owners: dict[str, set[str]] = defaultdict(set)
    for name in names:
        parts = name.split(".")
        if len(parts) == 4 and parts[:2] == ["bpy", "types"]:
            owners[parts[3]].add(name)
    return {member: next(iter(found)) for member, found in owners.items() if len(found) == 1}


class SymbolResolver:
    """Resolves the attribute chains of a script to symbol names of one index (rules in `symbols_used`)."""

    def __init__(self, symbols: Mapping[str, Symbol]) -> None:
        self.symbols = symbols
        self.unique = unique_members(symbols)

    def item_struct(self, collection: str) -> str | None:
        """The struct a bpy.data collection holds (materials → Material), from the BlendData property type."""
        sym = self.symbols.get(f"bpy.types.BlendData.{collection}")
        found = re.search(r"[Cc]ollection of (\w+)", sym.type or "") if sym else None
        return found.group(1) if found else None

    def collection_struct(self, collection: str) -> str:
        """The struct of a bpy.data collection's API: 'Collection of Material (BlendDataMaterials)', else BlendData<CamelCase>."""
        sym = self.symbols.get(f"bpy.types.BlendData.{collection}")
        found = re.search(r"\((\w+)\)\s*$", sym.type or "") if sym else None
        return found.group(1) if found else "BlendData" + "".join(w.capitalize() for w in collection.split("_"))

    def variable_types(self, tree: ast.AST | list[ast.AST]) -> dict[str, str]:
        """Variables whose struct is evident from their assignment; a variable assigned two types is left out."""
        seen: dict[str, set[str]] = defaultdict(set)
        for node in tree if isinstance(tree, list) else ast.walk(tree):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                continue
            value, struct = node.value, None
            if (
                isinstance(value, ast.Call)
                and (chain := dotted(value.func))
                and chain[:2] == ["bpy", "data"]
                and len(chain) == 4
                and chain[3] == "new"
            ):
                struct = self.item_struct(chain[2])
            elif (chain := dotted(value)) and chain[:2] == ["bpy", "context"] and chain[2:] in (["object"], ["active_object"]):
                struct = "Object"
            seen[node.targets[0].id].add(struct or "?")
        return {name: next(iter(types)) for name, types in seen.items() if len(types) == 1 and "?" not in types}

    def candidate(self, node: ast.Attribute, modules: set[str], types: dict[str, str], inner: set[int]) -> str | None:
        """The symbol name one attribute node refers to, when the rules can tell."""
        chain = dotted(node)
        if chain and chain[0] in modules:
            return None
        if chain and chain[0] == "bpy":
            if chain[1:2] == ["ops"] and len(chain) == 4:
                return ".".join(chain)
            if chain[1:2] == ["data"] and len(chain) == 4:
                return f"bpy.types.{self.collection_struct(chain[2])}.{chain[3]}"
            if chain[1:2] == ["data"] and len(chain) == 3 and id(node) not in inner:
                return f"bpy.types.BlendData.{chain[2]}"
            if chain[1:2] == ["context"] and len(chain) == 3:
                return ".".join(chain) if ".".join(chain) in self.symbols else f"bpy.types.Context.{chain[2]}"
            if chain[1:3] == ["context", "object"] and len(chain) == 4:
                return f"bpy.types.Object.{chain[3]}"
            if len(chain) > 4 or (len(chain) == 4 and chain[1] == "context"):
                return self.unique.get(node.attr)
            return None
        if chain and len(chain) == 2 and chain[0] in types:
            return f"bpy.types.{types[chain[0]]}.{node.attr}"
        return self.unique.get(node.attr)

    def symbols_used(self, script: str) -> set[str]:
        """The index symbols a script uses.

        `bpy.ops.<ns>.<op>` → that operator; `bpy.data.<coll>.<method>` → the collection's API struct member
        (BlendDataMaterials.new); a bare `bpy.data.<coll>` → `BlendData.<coll>`; `bpy.context.<member>` → Context
        member; attributes of a variable whose struct is evident from its assignment (`mat = bpy.data.materials.new()`)
        → that struct's member; any other attribute only when exactly one struct defines a member of that name.
        Attributes of non-bpy modules are skipped. A script that does not parse uses nothing.
        """
        try:
            tree = pyast.parse(script)
        except SyntaxError:
            return set()
        nodes = list(ast.walk(tree))  # walked once: a recipe has thousands of nodes, and every index load reads 13 recipes
        modules = {a.asname or a.name.split(".")[0] for n in nodes if isinstance(n, ast.Import) for a in n.names}
        modules |= {a.asname or a.name for n in nodes if isinstance(n, ast.ImportFrom) and n.module != "bpy" for a in n.names}
        modules.discard("bpy")
        types = self.variable_types(nodes)
        attributes = [node for node in nodes if isinstance(node, ast.Attribute)]
        inner = {id(node.value) for node in attributes}  # bpy.data.x inside bpy.data.x.new
        found = (self.candidate(node, modules, types, inner) for node in attributes)
        return {name for name in found if name is not None and name in self.symbols}


@dataclass(frozen=True)
class UsageExample:
    """One verified script reduced to what retrieval needs: its prompt and the symbols it uses."""

    prompt: str
    symbols: frozenset[str]


class UsagePrior:
    """Symbols that verified scripts for similar prompts used (dense similarity, or token overlap without an embedder)."""

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder = embedder
        self.examples: list[UsageExample] = []
        self._vectors: Any = None  # numpy (n, dim), unit rows, for self.examples; None without an embedder
        self._tokens: list[set[str]] = []

    def __len__(self) -> int:
        return len(self.examples)

    def add(self, examples: Iterable[UsageExample]) -> int:
        """Add examples (those using no symbol are dropped); returns how many were added."""
        known = set(self.examples)
        new = [e for e in dict.fromkeys(examples) if e.symbols and e not in known]  # the same script taught twice counts once
        if not new:
            return 0
        if self.embedder is not None:
            import numpy as np

            from .embedder import EmbedderError

            try:
                vectors = np.asarray(self.embedder.embed([e.prompt for e in new]), dtype=np.float32)
                self._vectors = vectors if self._vectors is None else np.vstack([self._vectors, vectors])
            except EmbedderError:  # an endpoint that went away: token overlap from now on, for every example
                self.embedder, self._vectors = None, None
        self.examples.extend(new)
        self._tokens.extend(set(tokenize(e.prompt)) for e in new)
        return len(new)

    def similarities(self, query: str, query_vector: Any = None) -> list[float]:
        """Similarity of the query to each example: cosine when vectors exist, else token Jaccard."""
        if self._vectors is not None and query_vector is not None:
            return [float(x) for x in self._vectors @ query_vector]
        words = set(tokenize(query))
        return [len(words & t) / (len(words | t) or 1) for t in self._tokens]

    def shares(self, query: str, query_vector: Any = None, neighbours: int = NEIGHBOURS) -> dict[str, float]:
        """Symbol → similarity-weighted share of the query's nearest examples that use it (0..1), scaled down when they are not alike."""
        if not self.examples:
            return {}
        sims = self.similarities(query, query_vector)
        nearest = sorted(range(len(sims)), key=lambda i: -sims[i])[:neighbours]
        weights = {i: max(sims[i], 0.0) ** 2 for i in nearest}  # squared: the closest scripts count most
        total = sum(weights.values())
        if total <= 0:
            return {}
        # Neighbours that are not much like the query are weak evidence (a small store, an unusual prompt).
        confidence = min(1.0, sum(max(sims[i], 0.0) for i in nearest) / len(nearest) / CONFIDENT_SIMILARITY)
        total /= confidence
        shares: dict[str, float] = defaultdict(float)
        for i, weight in weights.items():
            for name in self.examples[i].symbols:
                shares[name] += weight / total
        return dict(shares)


USED_FILE = "used.json"  # beside an index: the symbols each recipe uses, so that a load need not parse 13 scripts


def script_key(script: str) -> str:
    """The key of a script in used.json: its sha256, with the resolver's own version (a changed resolver misses)."""
    return hashlib.sha256(_RESOLVER_VERSION + script.encode("utf-8")).hexdigest()


def read_used(folder: Path) -> dict[str, frozenset[str]]:
    """Script key → symbols used, as stored at ingest; empty when absent or unreadable."""
    try:
        data = json.loads((folder / USED_FILE).read_text(encoding="utf-8"))
        return {str(k): frozenset(map(str, v)) for k, v in data["scripts"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def write_used(folder: Path, used: Mapping[str, Iterable[str]]) -> None:
    """Store script key → symbols used (written whole, then renamed into place)."""
    tmp = folder / f".{USED_FILE}.tmp"
    tmp.write_text(json.dumps({"schema_version": 1, "scripts": {k: sorted(v) for k, v in used.items()}}), encoding="utf-8")
    tmp.replace(folder / USED_FILE)


_RESOLVER_VERSION = hashlib.sha256(Path(__file__).read_bytes()).digest()
