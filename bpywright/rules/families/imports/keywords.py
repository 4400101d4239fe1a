"""A call of the script's own function with a keyword that function does not take: a run failed with
"make_material() got an unexpected keyword argument 'roughness'" (a small model defined make_material(name, color) and
called it with roughness=0.9, copying an exemplar's signature).

Only with that runtime evidence, and only when the script defines the function once, without **kwargs: a keyword close
to one of its parameters (`colour` for `color`) is renamed to it; otherwise the keyword is dropped from every call of the
function (its body never reads it, so the scene it builds is what the function already did)."""

from __future__ import annotations

import re

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import kwarg, renamed_kwarg, without_args
from .misspelt import closest

UNEXPECTED = re.compile(r"(\w+)\(\) got an unexpected keyword argument '(\w+)'")


def _parameters(fn: cst.FunctionDef) -> list[str] | None:
    """The names a call may pass by keyword; None when the function takes **kwargs (any keyword goes)."""
    p = fn.params
    if isinstance(p.star_kwarg, cst.Param):
        return None
    return [q.name.value for q in (*p.params, *p.kwonly_params)]


class _Definitions(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        self.name = name
        self.found: list[cst.FunctionDef] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if node.name.value == self.name:
            self.found.append(node)


class _OwnFunctionKeyword(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.function: str | None = None
        found = UNEXPECTED.search(self.scope.error)
        if found is None:
            return
        definitions = _Definitions(found.group(1))
        node.visit(definitions)
        params = _parameters(definitions.found[0]) if len(definitions.found) == 1 else None
        if params is None or found.group(2) in params:
            return
        self.function, self.keyword = found.group(1), found.group(2)
        self.renamed = closest(self.keyword, set(params))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if self.function is None or not (isinstance(original.func, cst.Name) and original.func.value == self.function):
            return updated
        arg = kwarg(updated, self.keyword)
        if arg is None:
            return updated
        if self.renamed is not None:
            message, fix = f"{self.function}() has no parameter {self.keyword}; it has {self.renamed}", f"{self.renamed}="
            if self.report(original, message, fix):
                return updated.with_changes(args=[renamed_kwarg(a, self.renamed) if a is arg else a for a in updated.args])
        elif self.report(original, f"{self.function}() takes no {self.keyword}= and never reads it", f"drop {self.keyword}="):
            return without_args(updated, {self.keyword})
        return updated


RULES = (
    DriftRule(
        "own-function-keyword",
        "a keyword the script's own function does not take (TypeError) → the close parameter, else dropped",
        "2.50",
        "2.50",
        _OwnFunctionKeyword,
        (r"\w+\(\) got an unexpected keyword argument '\w+'",),
        runtime_only=True,
        example=('make_material("Plate", roughnes=0.9)', 'make_material("Plate", roughness=0.9)'),
        leaves_out="a keyword the script's own function does not take, when no parameter is close",
    ),
)
