"""Operator results used as objects: `obj = bpy.ops.mesh.primitive_cube_add(...)` returns {'FINISHED'}, not the new object.

And an operator called on a data collection: `body = link(bpy.data.meshes.primitive_cube_add(size=2.0))` (a small model's
business card, three heal rounds) raises AttributeError 'bpy_prop_collection: attribute "primitive_cube_add" not found'.
Only on the statement a run failed on with that error: the operator is called where it lives (`bpy.ops.mesh.…`, curve
primitives `bpy.ops.curve.…`), its new object is already linked, and a name it was bound to gets the active object."""

from __future__ import annotations

import re

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import dotted, lone_value, stmt

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


_ON_DATA = re.compile(r'attribute "(primitive_\w+_add)" not found|object has no attribute \'(primitive_\w+_add)\'')


def _on_data(call: cst.BaseExpression, op: str) -> cst.Call | None:
    """The `bpy.data.<collection>.<op>(...)` call in call, or in the one argument of a `link(...)`-like wrapper."""
    if not isinstance(call, cst.Call):
        return None
    chain = dotted(call.func) or ""
    if chain.endswith(f".{op}") and ".data." in f".{chain}" and chain.count(".") >= 2:
        return call
    if len(call.args) == 1 and call.args[0].keyword is None:
        return _on_data(call.args[0].value, op)
    return None


class _OperatorOnData(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        found = _ON_DATA.search(self.scope.error)
        self.op = (found.group(1) or found.group(2)) if found else ""

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        found = lone_value(updated) if self.op else None
        if found is None:
            return updated
        value, name = found
        call = _on_data(value, self.op)
        if call is None:
            return updated
        module = "curve" if any(w in self.op for w in ("curve", "bezier", "nurbs")) else "mesh"
        where = dotted(call.func)
        if not self.report(original, f"{where} is not an operator", f"bpy.ops.{module}.{self.op}(...)", certain=False):
            return updated
        op_call = cst.Expr(call.with_changes(func=cst.parse_expression(f"bpy.ops.{module}.{self.op}")))
        first = updated.with_changes(body=[op_call])
        if name is None:
            return first
        return cst.FlattenSentinel([first, stmt(f"{name} = bpy.context.active_object")])


RULES = (
    DriftRule(
        "operator-result-as-object",
        "operator results used as objects → bpy.context.active_object after the call",
        "2.50",
        "2.50",
        _OperatorResult,
        (r"'set' object has no attribute", r"'set' object is not subscriptable"),
        needles=("= bpy.ops.",),
        example=("copy = bpy.ops.object.duplicate()", "bpy.ops.object.duplicate()\ncopy = bpy.context.active_object"),
    ),
    DriftRule(
        "operator-on-data",
        "an operator called on bpy.data (bpy.data.meshes.primitive_cube_add) → bpy.ops.mesh.primitive_cube_add, the object then active",
        "2.50",
        "2.50",
        _OperatorOnData,
        (r'attribute "primitive_\w+_add" not found', r"has no attribute 'primitive_\w+_add'"),
        runtime_only=True,
        example=("bpy.data.curves.primitive_bezier_circle_add(radius=0.5)", "bpy.ops.curve.primitive_bezier_circle_add(radius=0.5)"),
    ),
)
