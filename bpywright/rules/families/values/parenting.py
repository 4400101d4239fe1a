"""A parent given its child through `children`: `stand.children.link(stick)` raises AttributeError "'tuple' object has
no attribute 'link'" (Object.children is a read-only tuple; a child names its parent). Seen in the generation benchmark.

Only at the statement a run failed on with that error, when it is `PARENT.children.link(CHILD)` (or `.append`) on its own:
it becomes `CHILD.parent = PARENT`."""

from __future__ import annotations

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import code


class _ChildrenLink(RuleTransformer):
    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        if len(updated.body) != 1 or not isinstance(expr := updated.body[0], cst.Expr) or not isinstance(call := expr.value, cst.Call):
            return updated
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("link", "append") and isinstance(func.value, cst.Attribute)):
            return updated
        if func.value.attr.value != "children" or len(call.args) != 1 or call.args[0].keyword is not None:
            return updated
        parent, child = code(func.value.value), code(call.args[0].value)
        if not self.report(original, f"{parent}.children is read-only", f"{child}.parent = {parent}", certain=False):
            return updated
        assign = cst.parse_statement(f"{child}.parent = {parent}\n")
        assert isinstance(assign, cst.SimpleStatementLine)
        return assign.with_changes(leading_lines=updated.leading_lines)


RULES = (
    DriftRule(
        "children-link",
        "PARENT.children.link(CHILD) → CHILD.parent = PARENT (children is a read-only tuple)",
        "2.80",
        "2.80",
        _ChildrenLink,
        (r"'tuple' object has no attribute '(?:link|append)'",),
        runtime_only=True,
        example=("stand.children.link(stick)", "stick.parent = stand"),
    ),
)
