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

from ...base import DriftRule, RuleTransformer
from ...fragments import code

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


class _IntFromDivision(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        found = _KEYWORD.search(self.scope.error)
        self.keyword = (found.group(1) or found.group(2)) if found else None
        self.range = bool(_INTEGER.search(self.scope.error))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not (self.keyword or self.range) or not self.on_failing_line(original):
            return updated
        args = list(updated.args)
        for i, arg in enumerate(args):
            value = arg.value
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in {"int", "round"}:
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
