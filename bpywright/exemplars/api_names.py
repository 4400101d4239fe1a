"""The bpy/bmesh/mathutils names a script uses (attribute chains resolved through its imports, via ast)."""

from __future__ import annotations

import ast

from .. import pyast
from ..ingest.apicheck import ROOTS, ImportAliases, attribute_chain

MAX_SYMBOLS = 300


def api_names(source: str) -> list[str]:
    """Sorted full names like `bpy.ops.mesh.primitive_cube_add` or `mathutils.Vector`; [] when it does not parse."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError):
        return []
    aliases = ImportAliases()
    aliases.visit(tree)
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            chain = attribute_chain(node)
        elif isinstance(node, ast.Name) and id(node) not in inner and node.id in aliases.alias:
            chain = [node.id]
        else:
            continue
        if chain and chain[0] in aliases.alias:
            full = ".".join([aliases.alias[chain[0]], *chain[1:]])
            if full.split(".")[0] in ROOTS and "." in full:
                names.add(full)
    return sorted(names)[:MAX_SYMBOLS]
