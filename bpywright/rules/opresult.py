"""Operator results used as objects: `obj = bpy.ops.mesh.primitive_cube_add(...)` returns {'FINISHED'}, not the new object."""

from __future__ import annotations

import libcst as cst

from .base import DriftRule, RuleTransformer
from .fragments import dotted, stmt

# Operators whose new (or resulting) object becomes the active one, so `bpy.context.active_object` is what the script meant.
ACTIVE_RESULT = ("object.duplicate", "object.duplicate_move", "object.join", "object.convert", "object.text_add")


def _op(call: cst.BaseExpression) -> str | None:
    """'mesh.primitive_cube_add' when call is bpy.ops.mesh.primitive_cube_add(...)."""
    if not isinstance(call, cst.Call):
        return None
    chain = dotted(call.func)
    if chain and chain.startswith("bpy.ops.") and chain.count(".") == 3:
        return chain.removeprefix("bpy.ops.")
    return None


class _AttributeBases(cst.CSTVisitor):
    """Names the script uses as objects (`name.attr`, `name[...]`)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name):
            self.names.add(node.value.value)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if isinstance(node.value, cst.Name):
            self.names.add(node.value.value)


class _OperatorResult(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        bases = _AttributeBases()
        node.visit(bases)
        self.used_as_object = bases.names

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if len(updated.body) != 1 or not isinstance(updated.body[0], cst.Assign):
            return updated
        assign = updated.body[0]
        op = _op(assign.value)
        if op is None or len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
            return updated
        name = assign.targets[0].target.value
        adds = op.endswith("_add") or op in ACTIVE_RESULT
        if not adds or name not in self.used_as_object:
            return updated
        fix = f"bpy.ops.{op}(...) then {name} = bpy.context.active_object"
        message = f"bpy.ops.{op}() returns a set like {{'FINISHED'}}, not the new object, yet {name} is used as an object"
        if not self.report(original, message, fix, certain=op.endswith("_add")):
            return updated
        call = updated.with_changes(body=[cst.Expr(assign.value)])
        return cst.FlattenSentinel([call, stmt(f"{name} = bpy.context.active_object").with_changes(leading_lines=())])


RULES = (
    DriftRule(
        "operator-result-as-object",
        "operators",
        "operator results used as objects → bpy.context.active_object after the call",
        "2.50",
        "2.50",
        _OperatorResult,
        (r"'set' object has no attribute", r"'set' object is not subscriptable"),
        needles=("= bpy.ops.",),
    ),
)
