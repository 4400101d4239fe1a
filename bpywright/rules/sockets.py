"""Node socket names per node type and Blender version, and the rule that checks `node.inputs['Name']`."""

from __future__ import annotations

import ast
import difflib
import functools
import sys
from pathlib import Path

from .. import pyast
from ..harness.diagnostics import Diagnostic
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


class _NodeTypes(ast.NodeVisitor):
    """Infers which variables hold which node type, from nodes.new('Type') and nodes['Default Name']."""

    def __init__(self, table: dict):
        self.table = table
        self.types: dict[str, str] = {}
        self.findings: list[Diagnostic] = []

    def _node_type(self, value: ast.expr) -> str | None:
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            arg = value.args[0] if value.args else next((k.value for k in value.keywords if k.arg in ("type", "key")), None)
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                if value.func.attr == "new" and arg.value in self.table["nodes"]:
                    return arg.value
                if value.func.attr == "get":
                    return self.table["default_names"].get(arg.value)
        if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and isinstance(value.slice.value, str):
            if isinstance(value.value, ast.Attribute) and value.value.attr == "nodes":
                return self.table["default_names"].get(value.slice.value)
        return None

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
    """Blocking diagnostics for `node.inputs['X']`/`outputs['X']` naming a socket the node type lacks."""
    try:
        tree = pyast.parse(source)
    except SyntaxError:
        return []
    visitor = _NodeTypes(socket_table(version))
    visitor.visit(tree)
    return visitor.findings
