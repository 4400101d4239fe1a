"""Node socket names per node type and Blender version, and the rule that checks `node.inputs['Name']`."""

from __future__ import annotations

import ast
import difflib
import functools
import sys
from pathlib import Path

from .. import pyast
from ..harness.diagnostics import Diagnostic
from .rna import rna_table
from .tables import closest_table, probe_table

# Runs inside Blender: every shader/geometry/compositor/texture node type with its sockets and default name.
GENERATOR = r"""
import bpy, json, sys
out = {"blender_version": bpy.app.version_string, "nodes": {}, "default_names": {}}
trees = {t: bpy.data.node_groups.new("probe_" + t, t) for t in
         ("ShaderNodeTree", "GeometryNodeTree", "CompositorNodeTree", "TextureNodeTree") if hasattr(bpy.types, t)}
for attr in sorted(dir(bpy.types)):
    cls = getattr(bpy.types, attr)
    if not (isinstance(cls, type) and issubclass(cls, bpy.types.Node)):
        continue
    idname = getattr(cls, "bl_idname", attr)
    if idname in out["nodes"] or idname.endswith("Group") or "Custom" in idname:
        continue
    for tree in trees.values():
        try:
            node = tree.nodes.new(idname)
        except RuntimeError:
            continue
        names = lambda socks: sorted({s.name for s in socks} | {s.identifier for s in socks})
        out["nodes"][idname] = {"inputs": names(node.inputs), "outputs": names(node.outputs)}
        out["default_names"].setdefault(node.name, idname)
        tree.nodes.remove(node)
        break
json.dump(out, open(sys.argv[-1], "w"), indent=0, sort_keys=True)
"""


def generate_socket_table(out: Path, python: str = sys.executable) -> dict:
    """Probe the bpy module of `python` for every node type's sockets; write and return the table."""
    return probe_table("socket", GENERATOR, out, python, timeout=300)


@functools.cache
def socket_table(version: str = "4.5") -> dict:
    """The committed table closest to a Blender version (major.minor): the newest one not newer, else the oldest."""
    return closest_table("sockets", version)


# Principled BSDF inputs renamed in 4.0 (old name → new name); the node-inputs drift rule rewrites them.
PRINCIPLED_RENAMED_4_0 = {
    "Subsurface": "Subsurface Weight",
    "Specular": "Specular IOR Level",
    "Clearcoat": "Coat Weight",
    "Clearcoat Roughness": "Coat Roughness",
    "Clearcoat Normal": "Coat Normal",
    "Transmission": "Transmission Weight",
    "Sheen": "Sheen Weight",
    "Emission": "Emission Color",
}
# The first suggestion for an unknown input: the renames, and where a removed or retyped input's value went.
SUGGESTED_4_0 = {**PRINCIPLED_RENAMED_4_0, "Subsurface Color": "Base Color", "Specular Tint": "Specular Tint"}
# Node type names nodes.new() still accepts for a node it now makes of another type (measured on Blender 4.5).
NODE_TYPE_ALIASES = {"ShaderNodeBsdfGlossy": "ShaderNodeBsdfAnisotropic"}
# Removed node type → (version it was removed in, replacement): the node-type-removed drift rule rewrites them.
REMOVED_NODES = {
    "ShaderNodeTexMusgrave": ("4.1", "ShaderNodeTexNoise"),
    "ShaderNodeBsdfVelvet": ("4.0", "ShaderNodeBsdfSheen"),
    "FunctionNodeCompareFloats": ("3.3", "FunctionNodeCompare"),
    "GeometryNodeAttributeRandomize": ("3.0", "FunctionNodeRandomValue"),
}


# Attribute chains that name a node class's type: bpy.types.ShaderNodeMath.bl_idname, N.NodeGroupInput.__name__ …
TYPE_NAME_ATTRS = ("bl_idname", "__name__", "identifier")


class _Namespaces(ast.NodeVisitor):
    """Module-level names that stand for node type names: a class holding them as string attributes (`class Nodes:
    GroupInput = "NodeGroupInput"`, also filled after the class statement), an alias of such a class (`N = Nodes`),
    and an alias of bpy.types (`N = bpy.types`, `from bpy import types as N`)."""

    def __init__(self) -> None:
        self.strings: dict[str, dict[str, str]] = {}  # class (or alias) → attribute → string value
        self.types_aliases: set[str] = {"bpy.types"}
        self.classes: set[str] = set()  # classes the script defines (its own node classes have their own bl_idname)

    def visit_Module(self, node: ast.Module) -> None:
        for stmt in node.body:
            if isinstance(stmt, ast.ClassDef):
                self.classes.add(stmt.name)
                self.strings[stmt.name] = {
                    t.id: v.value
                    for a in stmt.body
                    if isinstance(a, ast.Assign) and isinstance(v := a.value, ast.Constant) and isinstance(v.value, str)
                    for t in a.targets
                    if isinstance(t, ast.Name)
                }
            elif isinstance(stmt, ast.ImportFrom) and stmt.module == "bpy":
                self.types_aliases.update(a.asname or a.name for a in stmt.names if a.name == "types")
            elif isinstance(stmt, ast.Import):
                self.types_aliases.update(a.asname for a in stmt.names if a.name == "bpy.types" and a.asname)
            elif isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                self._assign(stmt.targets[0], stmt.value)

    def _assign(self, target: ast.expr, value: ast.expr) -> None:
        if isinstance(target, ast.Name) and isinstance(value, ast.Name) and value.id in self.strings:
            self.strings[target.id] = self.strings[value.id]  # N = Nodes: the same dict, later attributes included
        elif isinstance(target, ast.Name) and _dotted(value) in self.types_aliases:
            self.types_aliases.add(target.id)
        elif (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id in self.strings
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
        ):
            self.strings[target.value.id][target.attr] = value.value

    def type_name(self, arg: ast.expr | None) -> str | None:
        """The node type name an argument of nodes.new() spells, when the script shows it; else None."""
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return arg.value
        if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id in self.strings:
            return self.strings[arg.value.id].get(arg.attr)
        if isinstance(arg, ast.Attribute) and arg.attr in TYPE_NAME_ATTRS:
            inner = arg.value.value if isinstance(arg.value, ast.Attribute) and arg.value.attr == "bl_rna" else arg.value
            if isinstance(inner, ast.Attribute) and _dotted(inner.value) in self.types_aliases:
                return inner.attr
        return None


def _dotted(node: ast.expr) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def _new_type_arg(call: ast.Call) -> ast.expr | None:
    return call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "type"), None)


def _is_nodes_new(call: ast.Call) -> bool:
    """`<tree>.nodes.new(...)` or `nodes.new(...)`: a node collection's new(), not bpy.data.*.new()."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "new"):
        return False
    receiver = func.value
    return (isinstance(receiver, ast.Attribute) and receiver.attr == "nodes") or (isinstance(receiver, ast.Name) and receiver.id == "nodes")


class _NodeTypes(ast.NodeVisitor):
    """Infers which variables hold which node type, from nodes.new('Type') (also spelled through a namespace class or
    bpy.types) and nodes['Default Name']; reports node types the target Blender does not have."""

    def __init__(self, table: dict, names: _Namespaces | None = None, version: str = "4.5"):
        self.table = table
        self.version = version
        self.names = names or _Namespaces()
        self.types: dict[str, str] = {}
        self.findings: list[Diagnostic] = []

    def _node_type(self, value: ast.expr) -> str | None:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            if value.func.attr == "new":
                kind = self.names.type_name(_new_type_arg(value))
                kind = NODE_TYPE_ALIASES.get(kind or "", kind)
                return kind if kind in self.table["nodes"] else None
            arg = value.args[0] if value.args else next((k.value for k in value.keywords if k.arg == "key"), None)
            if value.func.attr == "get" and isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                return self.table["default_names"].get(arg.value)
        if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and isinstance(value.slice.value, str):
            if isinstance(value.value, ast.Attribute) and value.value.attr == "nodes":
                return self.table["default_names"].get(value.slice.value)
        return None

    def visit_Call(self, node: ast.Call) -> None:
        if _is_nodes_new(node):
            arg = _new_type_arg(node)
            kind = self.names.type_name(arg)
            if kind is not None and arg is not None and not self._exists(kind):
                self._unknown_type(kind, arg)
        self.generic_visit(node)

    def _exists(self, kind: str) -> bool:
        """A node type this Blender creates, or one the probe does not list (groups, custom nodes, the script's own)."""
        if kind in self.table["nodes"] or kind.endswith("Group") or "Custom" in kind or kind in self.names.classes:
            return True
        if kind in NODE_TYPE_ALIASES:
            return True
        if kind in rna_table(self.version)["bases"]:  # a node class of this Blender the probe could not make in its trees
            return True
        return kind in REMOVED_NODES  # the node-type-removed drift rule reports these with their replacement

    def _unknown_type(self, kind: str, arg: ast.expr) -> None:
        suggestion = next(iter(difflib.get_close_matches(kind, list(self.table["nodes"]), n=1, cutoff=0.6)), None)
        self.findings.append(
            Diagnostic(
                tool="rules",
                code="node-type",
                severity="blocking",
                line=arg.lineno,
                col=arg.col_offset + 1,
                message=f'nodes.new("{kind}"): no node type "{kind}" in Blender {self.table["blender_version"].split()[0]}',
                fix=f'use "{suggestion}"' if suggestion else "a node type's bl_idname (ShaderNodeMath, GeometryNodeSetPosition …)",
            )
        )

    def visit_Assign(self, node: ast.Assign) -> None:
        kind = self._node_type(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                if kind:
                    self.types[target.id] = kind
                else:
                    self.types.pop(target.id, None)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        value = node.value
        if (
            isinstance(value, ast.Attribute)
            and value.attr in ("inputs", "outputs")
            and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)
        ):
            kind = self.types.get(value.value.id) if isinstance(value.value, ast.Name) else self._node_type(value.value)
            if kind is not None:
                self._check(kind, value.attr, node.slice.value, node)
        self.generic_visit(node)

    def _check(self, kind: str, side: str, name: str, node: ast.expr) -> None:
        names = self.table["nodes"][kind][side]
        if name in names or "__extend__" in names:
            return  # "__extend__" marks nodes whose sockets the script defines (group I/O, zones, captures)
        suggestion = SUGGESTED_4_0.get(name) if side == "inputs" and SUGGESTED_4_0.get(name) in names else None
        suggestion = suggestion or next(iter(difflib.get_close_matches(name, names, n=1, cutoff=0.5)), None)
        fix = f'use "{suggestion}"' if suggestion else f"{side} of {kind}: {', '.join(names[:12])}"
        self.findings.append(
            Diagnostic(
                tool="rules",
                code="node-socket",
                severity="blocking",
                line=node.lineno,
                col=node.col_offset + 1,
                message=f'{kind} has no {side[:-1]} "{name}" in Blender {self.table["blender_version"].split()[0]}',
                fix=fix,
            )
        )


def check_node_sockets(source: str, version: str = "4.5") -> list[Diagnostic]:
    """Blocking diagnostics for `node.inputs['X']`/`outputs['X']` naming a socket the node type lacks, and for
    `nodes.new(T)` where T (a literal, a namespace class's attribute, a bpy.types class's name) is no node type."""
    try:
        tree = pyast.parse(source)
    except SyntaxError:
        return []
    names = _Namespaces()
    names.visit(tree)
    visitor = _NodeTypes(socket_table(version), names, version)
    visitor.visit(tree)
    return visitor.findings
