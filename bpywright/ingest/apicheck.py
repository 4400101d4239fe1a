"""api-check: resolve bpy/bmesh/mathutils attribute chains in a script against one version's symbols."""

from __future__ import annotations

import ast
import difflib
import functools
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .. import pyast
from ..harness.diagnostics import Diagnostic, LintReport, ToolStatus
from .search import missing_index
from .symbols import read_symbols

ROOTS = ("bpy", "bmesh", "mathutils")
POINTER = re.compile(r"(?:pointer to|Pointer to|PointerProperty of)\s+`?(\w+)`?")
COLLECTION_API = re.compile(r"Collection of \w+ \((\w+)\)")  # the struct holding new()/remove() of a collection
BASE = re.compile(r"^bpy\.types\.(\w+)$")
# bpy.data / bpy.context are instances of these structs
ROOT_STRUCTS = {"bpy.data": "BlendData", "bpy.context": "Context"}


@dataclass
class ApiNames:
    """The names of one Blender version, and the property types needed to follow pointers."""

    version: str
    names: frozenset[str]
    pointer_type: dict[str, str] = field(default_factory=dict)  # "bpy.types.Context.scene" -> "Scene"
    members: dict[str, set[str]] = field(default_factory=dict)  # "bpy.ops.mesh" -> {"primitive_cube_add", …}
    bases: dict[str, str] = field(default_factory=dict)  # "Object" -> "ID"; every struct ends at bpy_struct

    def __post_init__(self) -> None:
        for name in self.names:
            parent, _, leaf = name.rpartition(".")
            while parent:
                self.members.setdefault(parent, set()).add(leaf)
                parent, _, leaf = parent.rpartition(".")

    def known(self, name: str) -> bool:
        """A symbol, or a namespace that holds symbols (bpy.ops.mesh)."""
        return name in self.names or name in self.members

    def member(self, struct: str, attr: str) -> str | None:
        """The full name of struct.attr, looked up through the base classes (members live where defined)."""
        seen = set()
        current: str | None = struct
        while current and current not in seen:
            seen.add(current)
            name = f"bpy.types.{current}.{attr}"
            if name in self.names:
                return name
            current = self.bases.get(current)
        name = f"bpy.types.bpy_struct.{attr}"
        return name if name in self.names else None

    def children(self, prefix: str) -> list[str]:
        """Direct members of prefix (for did-you-mean)."""
        return sorted(self.members.get(prefix, ()))


@functools.cache
def _load(version_dir: Path, stamp: float) -> ApiNames:
    names, pointers, bases = set(), {}, {}
    for sym in read_symbols(version_dir / "symbols.jsonl"):
        names.add(sym.name)
        if sym.kind == "property" and sym.type:
            m = POINTER.search(sym.type) or COLLECTION_API.search(sym.type)
            if m:
                pointers[sym.name] = m.group(1)
        elif sym.kind == "struct" and sym.type and (m := BASE.match(sym.type)):
            bases[sym.name.rsplit(".", 1)[1]] = m.group(1)
    return ApiNames(version_dir.name, frozenset(names), pointers, bases=bases)


def load_names(version_dir: Path) -> ApiNames:
    """Names of the index at version_dir (cached until symbols.jsonl changes)."""
    path = version_dir / "symbols.jsonl"
    if not path.is_file():
        raise missing_index(version_dir)
    return _load(version_dir, path.stat().st_mtime)


def attribute_chain(node: ast.expr) -> list[str] | None:
    """['bpy', 'context', 'scene'] for bpy.context.scene; None when the chain does not start at a name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


class ImportAliases(ast.NodeVisitor):
    """import bpy / import bmesh as bm / from mathutils import Vector / from bpy import ops → canonical prefixes."""

    def __init__(self) -> None:
        self.alias: dict[str, str] = {}
        self.script_defined: set[str] = set()

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.name.split(".")[0] in ROOTS:
                self.alias[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and node.module.split(".")[0] in ROOTS and node.level == 0:
            for a in node.names:
                if a.name != "*":
                    self.alias[a.asname or a.name] = f"{node.module}.{a.name}"

    def visit_Assign(self, node: ast.Assign) -> None:
        # bpy.types.Scene.my_prop = bpy.props.FloatProperty(...): the script defines that name
        for target in node.targets:
            chain = attribute_chain(target) if isinstance(target, ast.Attribute) else None
            full = ".".join([self.alias[chain[0]], *chain[1:]]) if chain and chain[0] in self.alias else ""
            if full.startswith("bpy.types."):
                self.script_defined.add(full)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        # operators a script registers: bl_idname = "object.my_op" → bpy.ops.object.my_op
        for stmt in node.body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "bl_idname" for t in stmt.targets):
                if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                    self.script_defined.add("bpy.ops." + stmt.value.value)
        self.script_defined.add("bpy.types." + node.name)
        self.generic_visit(node)


def _bound_names(tree: ast.AST) -> Counter[str]:
    """How many times each name is bound anywhere in the module (assignments, loops, parameters, imports, defs)."""
    bound: Counter[str] = Counter()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound[node.id] += 1
        elif isinstance(node, ast.arg):
            bound[node.arg] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] += 1
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(dict.fromkeys(node.names, 2))  # rebinding from another scope: not followed
    return bound


def variable_aliases(tree: ast.AST, alias: dict[str, str]) -> dict[str, str]:
    """Names bound once in the whole script to a chain of the API (`scene = bpy.context.scene`) → that chain.

    Bound more than once (a loop, a parameter, a second assignment) or to anything else (a call's result), a name
    is not followed: a wrong guess would block a script that runs.
    """
    bound = _bound_names(tree)
    chains = {
        node.targets[0].id: chain
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and bound[node.targets[0].id] == 1
        and node.targets[0].id not in alias
        and (chain := attribute_chain(node.value)) is not None
    }
    found: dict[str, str] = {}
    for _ in range(3):  # obj = bpy.context.object; data = obj.data: follow a few links
        for name, chain in chains.items():
            known = alias.get(chain[0]) or found.get(chain[0])
            if known and name not in found:
                found[name] = ".".join([known, *chain[1:]])
    return found


def _resolve(parts: list[str], api: ApiNames) -> tuple[int, str] | None:
    """(index of the first unknown part, the name it should have had) or None when all known/unresolvable."""
    if parts[:2] in (["bpy", "data"], ["bpy", "context"]):
        struct: str | None = ROOT_STRUCTS[".".join(parts[:2])]
        for i in range(2, len(parts)):
            assert struct is not None
            name = api.member(struct, parts[i])
            if name is None and i == 2 and api.known(".".join(parts[:3])):
                return None  # a screen-context member (bpy.context.active_object): known, untyped
            if name is None:
                return i, f"bpy.types.{struct}.{parts[i]}"
            struct = api.pointer_type.get(name)
            if struct is None or not api.children(f"bpy.types.{struct}"):
                return None  # a value, a function, or a struct the index has no members of (add-on property groups)
        return None
    if parts[0] == "bpy" and len(parts) > 1 and parts[1] not in ("ops", "types"):
        return None  # bpy.props, bpy.utils, bpy.app, … are Python modules the probe may not list fully
    start, limit = (2, 4) if parts[0] == "bpy" else (1, len(parts))
    for i in range(start, min(len(parts), limit)):
        name = ".".join(parts[: i + 1])
        if api.known(name):
            continue
        parent = ".".join(parts[:i])
        # only where the index knows the parent's members: unknown territory is not an error
        return (i, name) if api.children(parent) else None
    return None


def _suggest(api: ApiNames, name: str) -> str | None:
    parent, _, leaf = name.rpartition(".")
    members = api.children(parent)
    head = leaf.split("_", 1)[0]
    if "_" in leaf and head in members:
        return f"{parent}.{head}"  # cursor_location → cursor (.location): a flattened 2.7x name
    close = difflib.get_close_matches(leaf, members, n=1, cutoff=0.6)
    return f"{parent}.{close[0]}" if close else None


def check_source(source: str, api: ApiNames, others: dict[str, ApiNames] | None = None) -> list[Diagnostic]:
    """Blocking `rules` diagnostics for names the script uses that this Blender version does not have."""
    try:
        tree = pyast.parse(source)
    except SyntaxError:
        return []
    aliases = ImportAliases()
    aliases.visit(tree)
    roots = {**variable_aliases(tree, aliases.alias), **aliases.alias}
    found: dict[tuple[int, str], Diagnostic] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        chain = attribute_chain(node)
        if not chain or chain[0] not in roots:
            continue
        parts = roots[chain[0]].split(".") + chain[1:]
        miss = _resolve(parts, api)
        if miss is None:
            continue
        i, expected = miss
        written = ".".join(parts[: i + 1])
        if written in aliases.script_defined or expected in aliases.script_defined:
            continue
        if chain[0] not in aliases.alias:  # through a variable: say what the script wrote and what it stands for
            at = i - (len(parts) - len(chain))
            if at < 1:
                continue  # the variable's own chain is wrong: reported where it is assigned
            written = f"{'.'.join(chain[: at + 1])}, that is {written}"
        key = (node.lineno, written)
        if key in found:
            continue
        hint = _suggest(api, expected)
        elsewhere = [v for v, other in (others or {}).items() if other.known(expected)]
        fix = f"did you mean {hint.rsplit('.', 1)[1]!r} ({hint})?" if hint else None
        note = f"; it exists in Blender {', '.join(elsewhere)}" if elsewhere else ""
        found[key] = Diagnostic(
            tool="rules",
            code="api-unknown",
            severity="blocking",
            line=node.lineno,
            col=node.col_offset + 1,
            message=f'"{parts[i]}" is not in Blender {api.version} ({written}){note}',
            fix=fix,
        )
    return sorted(found.values(), key=lambda d: (d.line, d.col))


def api_check(source: str, *, version: str = "4.5", index_root: Path) -> LintReport:
    """The api-check report of a script for one version (other versions' indexes say where a name exists).

    index_root is the caller's settings.index_dir; IndexMissing names the command that builds a missing index.
    """
    root = index_root
    api = load_names(root / version)
    others = {}
    if root.is_dir():
        for d in sorted(root.iterdir()):
            if d.name != version and (d / "symbols.jsonl").is_file():
                others[d.name] = load_names(d)
    diags = check_source(source, api, others)
    return LintReport(blender_version=api.version, diagnostics=diags, tools=[ToolStatus(tool="rules", status="ok")])
