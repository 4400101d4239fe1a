"""Linking what is already linked: a script that links an object a second time (a `link(obj)` helper called twice, or a link
into the collection a `bpy.ops.*_add` already put it in) raises RuntimeError "Object 'X' already in collection 'Y'"
(collections linked as children alike). Small models write this often.

A link call is correct wherever the object is not linked yet, so this rule fires only at the statement a run failed on with
that error, and makes the link conditional there (on every version since collections exist)."""

from __future__ import annotations

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import code, dotted


def _link_call(line: cst.SimpleStatementLine) -> tuple[str, str] | None:
    """(collection expression, linked expression) for `COLL.objects.link(X)` / `COLL.children.link(X)` with a plain X."""
    if len(line.body) != 1 or not isinstance(line.body[0], cst.Expr) or not isinstance(line.body[0].value, cst.Call):
        return None
    call = line.body[0].value
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "link" and isinstance(func.value, cst.Attribute)):
        return None
    if func.value.attr.value not in ("objects", "children") or len(call.args) != 1 or call.args[0].keyword is not None:
        return None
    target = call.args[0].value
    chain = dotted(target)
    if not isinstance(target, cst.Name | cst.Attribute) or chain is None or "(" in chain or "[" in chain:  # evaluated twice: plain names
        return None
    return code(func.value), code(target)


class _LinkTwice(RuleTransformer):
    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        found = _link_call(updated)
        if found is None:
            return updated
        members, thing = found
        message = f"{thing} is already in {members} (linked earlier, or by a bpy.ops.*_add), so linking it again raises"
        if not self.report(original, message, f"if {thing}.name not in {members}: link it", certain=False):
            return updated
        guarded = cst.parse_statement(f"if {thing}.name not in {members}:\n    {code(updated.body[0])}\n")
        return guarded.with_changes(leading_lines=updated.leading_lines)


RULES = (
    DriftRule(
        "link-already-linked",
        "linking an object or collection that is already linked there → link only when it is not",
        "2.80",
        "2.80",
        _LinkTwice,
        (r"already in collection",),
        runtime_only=True,
        example=(
            "scene.collection.objects.link(obj)",
            "if obj.name not in scene.collection.objects:\n    scene.collection.objects.link(obj)",
        ),
    ),
)
