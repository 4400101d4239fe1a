"""Python 2 division: `n / 2` was an int in 2.7x-era Blender (Python 2 and scripts written for it); in Python 3 it is a
float, and an int-typed operator or bmesh keyword refuses it: 'create_cone: keyword "segments" expected an int, not
float', 'MESH_OT_primitive_cone_add.vertices expected an int type, not float', range(n / 2) 'float object cannot be
interpreted as an integer'.

Only with that runtime evidence and only at the failing statement: the named keyword's value (or, for range() and a
message naming no keyword, each argument holding a `/`) is wrapped in int(...), what Python 2's floor division gave for
the positive counts these are."""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ...base import DriftRule, RuleTransformer
from ...fragments import code, string_value

_KEYWORD = re.compile(r'keyword "(\w+)" expected an int, not float|\w+\.(\w+) expected an int type, not float')
_INTEGER = re.compile(r"'float' object cannot be interpreted as an integer")


def _has_division(node: cst.CSTNode) -> bool:
    """True when the expression holds a true division `/` (not inside a call's arguments)."""
    found = False

    class _Find(cst.CSTVisitor):
        def visit_BinaryOperation(self, n: cst.BinaryOperation) -> None:
            nonlocal found
            found = found or isinstance(n.operator, cst.Divide)

        def visit_Call(self, n: cst.Call) -> bool:
            return False

    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Divide):
        return True
    node.visit(_Find())
    return found


def _as_int(value: cst.BaseExpression) -> cst.Call:
    """int(value)."""
    return cst.Call(cst.Name("int"), [cst.Arg(value.with_changes(lpar=[], rpar=[]) if value.lpar else value)])


def _wanted_value(value: cst.BaseExpression) -> bool:
    """A value to wrap: not already int(…)/round(…)."""
    return not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in {"int", "round"})


class _KeywordsFrom(cst.CSTVisitor):
    """Where the failing call's `**name` gets the keyword: a dict of the name, or calls to the function whose **name it is."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, keyword: str, lines: frozenset[int]) -> None:
        super().__init__()
        self.keyword, self.lines = keyword, lines
        self.functions: list[cst.FunctionDef] = []
        self.spread: dict[str, str | None] = {}  # a **name at the failing call → the function it is the **kwargs of (None: a dict)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node)

    def leave_FunctionDef(self, original: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Call(self, node: cst.Call) -> None:
        r = self.get_metadata(PositionProvider, node)
        if not any(line in self.lines for line in range(r.start.line, r.end.line + 1)):
            return
        if any(a.keyword is not None and a.keyword.value == self.keyword for a in node.args):
            return
        for arg in node.args:
            if arg.star == "**" and isinstance(arg.value, cst.Name):
                name = arg.value.value
                owner = next(
                    (
                        f.name.value
                        for f in reversed(self.functions)
                        if isinstance(f.params.star_kwarg, cst.Param) and f.params.star_kwarg.name.value == name
                    ),
                    None,
                )
                self.spread[name] = owner


class _IntFromDivision(RuleTransformer):
    _dict_target: str | None = None

    def visit_Module(self, node: cst.Module) -> None:
        found = _KEYWORD.search(self.scope.error)
        self.keyword = (found.group(1) or found.group(2)) if found else None
        self.range = bool(_INTEGER.search(self.scope.error))
        self.spread: dict[str, str | None] = {}
        if self.keyword and self.scope.lines:
            finder = _KeywordsFrom(self.keyword, self.scope.lines)
            MetadataWrapper(node, unsafe_skip_copy=True).visit(finder)
            self.spread = finder.spread
        self.helpers = {f for f in self.spread.values() if f}
        self.dicts = {name for name, f in self.spread.items() if f is None}

    def _wrap(self, original: cst.CSTNode, value: cst.BaseExpression, why: str) -> cst.BaseExpression | None:
        if _wanted_value(value) and self.report(original, f"{code(value)} is a float in Python 3 (true division); {why}", "int(…)"):
            return _as_int(value)
        return None

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not (self.keyword or self.range):
            return updated
        name = (
            original.func.value
            if isinstance(original.func, cst.Name)
            else original.func.attr.value
            if isinstance(original.func, cst.Attribute)
            else None
        )
        if name in self.helpers or (name == "dict" and self._assigned_to_dict(original)):
            # the value reaches the failing call through the helper's **kwargs (or a dict spread there)
            args = list(updated.args)
            for i, arg in enumerate(original.args):
                if arg.keyword is not None and arg.keyword.value == self.keyword:
                    wrapped = self._wrap(arg, updated.args[i].value, f"{name}() passes it on to an int keyword")
                    if wrapped is not None:
                        args[i] = updated.args[i].with_changes(value=wrapped)
            return updated.with_changes(args=args)
        if not self.on_failing_line(original):
            return updated
        args = list(updated.args)
        for i, arg in enumerate(args):
            value = arg.value
            if not _wanted_value(value):
                continue
            wanted = (
                arg.keyword is not None and arg.keyword.value == self.keyword
                if self.keyword
                else arg.keyword is None and _has_division(original.args[i].value)
            )
            if wanted and self.report(
                original,
                f"{code(original.args[i].value)} is a float in Python 3 (true division); an int is expected",
                "int(…)",
                certain=False,
            ):
                args[i] = arg.with_changes(value=_as_int(value))
        return updated.with_changes(args=args)

    def _assigned_to_dict(self, call: cst.Call) -> bool:
        return bool(self.dicts) and self._dict_target is not None

    def visit_Assign(self, node: cst.Assign) -> None:
        target = node.targets[0].target if len(node.targets) == 1 else None
        self._dict_target = target.value if isinstance(target, cst.Name) and target.value in self.dicts else None

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        self._dict_target = None
        target = original.targets[0].target if len(original.targets) == 1 else None
        # params["segments"] = n / 2, for a dict spread into the failing call
        if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name) and target.value.value in self.dicts:
            index = target.slice[0].slice if len(target.slice) == 1 else None
            if isinstance(index, cst.Index) and string_value(index.value) == self.keyword:
                wrapped = self._wrap(original, updated.value, f"{target.value.value} is spread into an int keyword")
                if wrapped is not None:
                    return updated.with_changes(value=wrapped)
        return updated

    def leave_DictElement(self, original: cst.DictElement, updated: cst.DictElement) -> cst.DictElement:
        if self._dict_target is not None and string_value(original.key) == self.keyword:
            wrapped = self._wrap(original, updated.value, "the dict is spread into an int keyword")
            if wrapped is not None:
                return updated.with_changes(value=wrapped)
        return updated


RULES = (
    DriftRule(
        "int-from-division",
        "an int keyword given a float from Python 2 division (`n / 2`) → int(…) at the failing call",
        "2.50",
        "2.50",
        _IntFromDivision,
        (r'keyword "\w+" expected an int, not float', r"\w+\.\w+ expected an int type, not float", _INTEGER.pattern),
        runtime_only=True,
        example=("for i in range(sides / 3):", "for i in range(int(sides / 3)):"),
    ),
)
