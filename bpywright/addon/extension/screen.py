"""A static screen of a script before Run in scene: the code that could reach past the scene (files, processes, the
network, Blender's own settings, code run later or from strings), found with the standard library's `ast`.

A sandbox pass says the script raised nothing on factory settings, inside the sandbox; it says nothing about what the
script does in the user's Blender, where it runs as the user. A script can ask where it is (the hostname, its uid, the
files it sees) and behave differently outside. The screen reads the text instead of running it: every construct that
could do more than build the scene is flagged, and the add-on runs flagged code only after the user confirms it.

It is a screen, not a proof: it allows the modelling API (bpy.data, bpy.context, bpy.ops categories that build
geometry, materials and objects) and the pure modules bpy, bmesh, mathutils, math and random, and it cannot know
what every bpy API does. The add-on guide lists what it catches and what it does not.
Standard library only (no bpy).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

ALLOWED_MODULES = frozenset({"bpy", "bmesh", "mathutils", "math", "random", "__future__"})
# Builtins that run code from strings, open files, or hand out namespaces.
FORBIDDEN_NAMES = {
    "exec": "runs code from a string",
    "eval": "runs code from a string",
    "compile": "makes code from a string",
    "open": "opens a file",
    "__import__": "imports a module by name",
    "globals": "hands out the module's namespace",
    "locals": "hands out a namespace",
    "vars": "hands out a namespace",
    "breakpoint": "starts a debugger",
    "input": "reads the terminal",
    "memoryview": "reaches raw memory",
}
ATTRIBUTE_BUILTINS = {"getattr", "setattr", "delattr", "hasattr"}  # fine with a literal, non-dunder name
# bpy.ops categories that build the scene; any other (wm, script, preferences, extensions, text, file, export_*,
# import_*, image, render, sound …) can open, save, export, run scripts or change Blender itself.
OPS_ALLOWED = frozenset(
    {
        "mesh", "object", "curve", "curves", "transform", "material", "uv", "node", "armature", "pose", "surface", "mball",
        "lattice", "font", "collection", "geometry", "paint", "sculpt", "particle", "rigidbody", "constraint", "texture",
        "world", "scene", "view3d", "view_layer", "anim", "grease_pencil", "gpencil", "camera", "cloth", "outliner", "ed",
    }
)  # fmt: skip
# Attribute names that reach files, run code later or from text, or change Blender, wherever they are reached from
# (so an alias such as `w = bpy.ops.wm` or `h = bpy.app.handlers` is caught at the attribute, not only at `bpy.`).
FORBIDDEN_ATTRIBUTES = {
    "wm": "window-manager operators (open, save, link, quit)",
    "script": "script operators (run a file, reload scripts)",
    "preferences": "Blender's preferences (install or enable add-ons)",
    "extensions": "the extension operators (install code)",
    "utils": "bpy.utils (execfile, register classes, load scripts)",
    "execfile": "runs a Python file",
    "handlers": "bpy.app.handlers: code that runs later, on every frame, load or save",
    "timers": "bpy.app.timers: code that runs later",
    "driver_namespace": "the namespace driver expressions run in",
    "expression": "a driver expression: Python that Blender evaluates",
    "texts": "bpy.data.texts: text blocks can be run as scripts",
    "as_module": "runs a text block as a module",
    "use_module": "registers a text block to run when the file loads",
    "run_script": "runs a text block",
    "libraries": "bpy.data.libraries: loads or writes .blend files",
    "load": "loads a file",
    "write": "writes a file",
    "save": "saves to a file",
    "save_render": "saves an image file",
    "save_as": "saves to a file",
    "filepath": "a file path",
    "filepath_raw": "a file path",
    "unpack": "writes packed data to files",
    "addons": "the enabled add-ons",
    "msgbus": "bpy.msgbus: callbacks that run later",
    "keyconfigs": "key maps: operators bound to keys",
}
PATH_KEYWORDS = {"filepath", "directory", "filename", "files", "filter_glob"}
DUNDER = re.compile(r"__\w+__")


@dataclass(frozen=True)
class Flag:
    """One construct the screen will not run unasked: where, the code, and why."""

    line: int
    code: str
    reason: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.code}: {self.reason}"


def screen(script: str) -> list[Flag]:
    """The flagged constructs of a script, in line order ([] for a script that only builds the scene).

    A script that does not parse is one flag (it cannot be read, so it cannot be vouched for)."""
    try:
        tree = ast.parse(script)  # noqa: TID251 (inside Blender, on its main thread; the extension cannot import bpywright)
    except (SyntaxError, ValueError) as exc:
        return [Flag(getattr(exc, "lineno", 0) or 0, "syntax", f"does not parse ({exc.__class__.__name__}), so it cannot be screened")]
    return sorted(set(_Screen(tree).flags), key=lambda f: (f.line, f.code, f.reason))


class _Screen(ast.NodeVisitor):
    def __init__(self, tree: ast.AST) -> None:
        self.flags: list[Flag] = []
        self.parents: dict[ast.AST, ast.AST] = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        self.bpy_names = {"bpy"}
        self.visit(tree)

    def flag(self, node: ast.AST, code: str, reason: str) -> None:
        self.flags.append(Flag(getattr(node, "lineno", 0), code[:80], reason))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            top = alias.name.split(".")[0]
            if top not in ALLOWED_MODULES:
                self.flag(node, f"import {alias.name}", "a module outside bpy, bmesh, mathutils, math and random")
            elif top == "bpy":
                if alias.name != "bpy":
                    self.flag(node, f"import {alias.name}", "imports a part of bpy by name (write `import bpy`)")
                elif alias.asname:
                    self.bpy_names.add(alias.asname)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        names = ", ".join(a.name for a in node.names)
        if node.level or module.split(".")[0] not in ALLOWED_MODULES:
            self.flag(node, f"from {'.' * node.level}{module} import {names}", "a module outside bpy, bmesh, mathutils, math and random")
        elif module in ("bpy.types", "bpy.props"):
            pass  # classes and property definitions: registering them needs bpy.utils, which is flagged
        elif module.split(".")[0] == "bpy" and (
            module != "bpy" or any(a.name not in {"data", "context", "types", "props"} for a in node.names)
        ):
            self.flag(
                node, f"from {module} import {names}", "takes a part of bpy out of its namespace (use bpy.data, bpy.context, bpy.types)"
            )

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in FORBIDDEN_NAMES:
            self.flag(node, node.id, FORBIDDEN_NAMES[node.id])
        elif DUNDER.fullmatch(node.id) and node.id != "__name__":
            self.flag(node, node.id, "a dunder name (reaches the interpreter's internals or builtins)")
        elif node.id in ATTRIBUTE_BUILTINS and not self._literal_attribute_call(node):
            self.flag(node, node.id, "an attribute reached by a computed name (write the attribute out)")
        elif node.id in self.bpy_names and not isinstance(self.parents.get(node), ast.Attribute):
            self.flag(node, node.id, "the bpy module passed around or rebound (only bpy.<name> is screened)")
        self.generic_visit(node)

    def _literal_attribute_call(self, node: ast.Name) -> bool:
        """getattr(x, 'name') with a literal, non-dunder, allowed name."""
        call = self.parents.get(node)
        if not isinstance(call, ast.Call) or call.func is not node or len(call.args) < 2:
            return False
        name = call.args[1]
        return (
            isinstance(name, ast.Constant)
            and isinstance(name.value, str)
            and not name.value.startswith("_")
            and name.value not in FORBIDDEN_ATTRIBUTES
        )

    def visit_Attribute(self, node: ast.Attribute) -> None:
        code = _dotted(node)
        if node.attr.startswith("_"):
            self.flag(node, code, "a private or dunder attribute (reaches internals: __class__, __globals__, __builtins__ …)")
        elif node.attr in FORBIDDEN_ATTRIBUTES:
            self.flag(node, code, FORBIDDEN_ATTRIBUTES[node.attr])
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "ops" and _root(value) in self.bpy_names:
            if node.attr not in OPS_ALLOWED:
                self.flag(node, code, f"bpy.ops.{node.attr}: operators outside modelling (files, scripts, settings, exports)")
        if node.attr == "ops" and _root(node) in self.bpy_names and not isinstance(self.parents.get(node), ast.Attribute):
            self.flag(node, code, "bpy.ops passed around (only bpy.ops.<category> is screened)")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        for keyword in node.keywords:
            if keyword.arg in PATH_KEYWORDS:
                self.flag(keyword.value, f"{_dotted(node.func)}({keyword.arg}=…)", "an operator given a file path")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and node.value != "__main__" and DUNDER.search(node.value):
            self.flag(node, repr(node.value)[:60], "a string naming a dunder (str.format and getattr reach attributes through it)")

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for name in node.kwd_attrs:
            if name.startswith("_"):
                self.flag(node, name, "a match pattern reading a private or dunder attribute")
        self.generic_visit(node)


def _root(node: ast.AST) -> str:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _dotted(node: ast.AST) -> str:
    """`bpy.ops.wm.open_mainfile` for an attribute chain ('…' for what is not a name)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    parts.append(node.id if isinstance(node, ast.Name) else "…")
    return ".".join(reversed(parts))
