"""Missing imports: names a script uses but never binds (math, mathutils.Vector, bmesh, radians, console C/D …)."""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import PositionProvider, ScopeProvider

from ...base import DriftRule, RuleTransformer
from ...fragments import imports_end, stmt
from ...unbound import NOT_DEFINED, unbound_uses

MODULES = {
    name: f"import {name}"
    for name in (
        "math",
        "random",
        "bmesh",
        "mathutils",
        "os",
        "sys",
        "time",
        "json",
        "re",
        "colorsys",
        "itertools",
        "functools",
        "copy",
        "string",
        "collections",
        "bpy",
        "bpy_extras",
        "addon_utils",
        "datetime",
    )
}
MODULES["np"] = "import numpy as np"
FROM = {
    "mathutils": ("Vector", "Matrix", "Euler", "Quaternion", "Color", "noise", "kdtree", "bvhtree"),
    "math": (
        "radians",
        "degrees",
        "pi",
        "sin",
        "cos",
        "tan",
        "sqrt",
        "atan2",
        "atan",
        "asin",
        "acos",
        "floor",
        "ceil",
        "tau",
        "hypot",
        "fabs",
        "exp",
        "log",
        "log10",
        "isclose",
        "copysign",
        "fmod",
        "sinh",
        "cosh",
        "tanh",
        "trunc",
    ),
    "random": ("randint", "uniform", "choice", "shuffle", "gauss", "seed", "randrange", "sample", "choices"),
    "bpy.props": (
        "FloatProperty",
        "IntProperty",
        "BoolProperty",
        "StringProperty",
        "EnumProperty",
        "PointerProperty",
        "CollectionProperty",
        "FloatVectorProperty",
        "IntVectorProperty",
        "BoolVectorProperty",
    ),
    "bpy.types": ("Operator", "Panel", "Menu", "PropertyGroup", "AddonPreferences", "UIList", "Header"),
    "bpy_extras.io_utils": ("ImportHelper", "ExportHelper"),
    "bpy_extras.object_utils": ("AddObjectHelper", "object_data_add"),
}
IMPORTS = {**{n: f"from {m} import {n}" for m, names in FROM.items() for n in names}, **MODULES}
# The Python console's shorthands, and the `scene` a small model's helpers use without binding it (seen in the benchmark).
CONSOLE = {"C": "C = bpy.context", "D": "D = bpy.data", "scene": "scene = bpy.context.scene"}


_WORD = re.compile(r"(?<![.\w])[A-Za-z_]\w*")
_STRINGS = re.compile(r"\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|\"[^\"\n]*\"|'[^'\n]*'|#[^\n]*")


def may_miss_imports(source: str) -> bool:
    """Cheap pre-check: a known importable name is used and no line binds it by import, def, class or assignment."""
    used = set(_WORD.findall(_STRINGS.sub("", source))) & (IMPORTS.keys() | CONSOLE.keys())
    for name in used:
        bound = re.search(
            rf"(import[^\n]*\b{name}\b|\b(def|class)\s+{name}\b|\b{name}\s*(,[^=\n]*)?=[^=]|\bfor\s[^\n]*\b{name}\b[^\n]*\bin\b|\bas\s+{name}\b)",
            source,
        )
        if not bound:
            return True
    return False


def _star_modules(module: cst.Module) -> set[str]:
    out = set()
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar) and small.module is not None:
                out.add(cst.Module([]).code_for_node(small.module))
    return out


class _MissingImports(RuleTransformer):
    METADATA_DEPENDENCIES = (PositionProvider, ScopeProvider)

    def visit_Module(self, node: cst.Module) -> None:
        stars = _star_modules(node)
        first: dict[str, cst.Name] = {}
        for _, name in unbound_uses(self.metadata[ScopeProvider].values()):
            if name.value not in IMPORTS | CONSOLE:
                continue
            source = IMPORTS.get(name.value, "")
            if source.startswith("from ") and source.split()[1] in stars:
                continue
            if name.value not in first or self.span(name).start.line < self.span(first[name.value]).start.line:
                first[name.value] = name
        self.missing: list[str] = []
        for value, name in sorted(first.items(), key=lambda kv: self.span(kv[1]).start.line):
            line = IMPORTS.get(value) or CONSOLE[value]
            if self.report(name, f'"{value}" is used but never imported or defined', line):
                self.missing.append(line)

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        if not self.missing:
            return updated
        lines = [m for m in self.missing if m not in CONSOLE.values()]
        console = [m for m in self.missing if m in CONSOLE.values()]
        if console and not _binds_bpy(updated) and "import bpy" not in lines:
            lines.insert(0, "import bpy")
        body = list(updated.body)
        at = imports_end(body)
        new = [stmt(line + "\n") for line in [*sorted(lines, key=lambda t: (t.startswith("from"), t)), *console]]
        return updated.with_changes(body=[*body[:at], *new, *body[at:]])


def _binds_bpy(module: cst.Module) -> bool:
    return any(
        isinstance(small, cst.Import) and any(cst.Module([]).code_for_node(a.name) == "bpy" and a.asname is None for a in small.names)
        for statement in module.body
        for small in (statement.body if isinstance(statement, cst.SimpleStatementLine) else ())
    )


RULES = (
    DriftRule(
        "missing-import",
        "names used but never imported (math, mathutils, bmesh, radians, Vector, console C/D, scene …)",
        "2.50",
        "2.50",
        _MissingImports,
        (NOT_DEFINED.pattern,),
        needles=may_miss_imports,
        example=("x = radians(90)", "from math import radians\nx = radians(90)"),
    ),
)
