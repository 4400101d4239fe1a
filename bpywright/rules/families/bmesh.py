"""bmesh drift: create_* 'diameter' keywords became 'radius' (2.80); index access needs ensure_lookup_table() (2.73)."""

from __future__ import annotations

import re

import libcst as cst

from ..base import DriftRule, RuleTransformer
from ..fragments import dotted, renamed_kwarg, stmt, without_args

_RADIUS = {"diameter": "radius", "diameter1": "radius1", "diameter2": "radius2"}
_CREATE = re.compile(r"(^|\.)ops\.(create_icosphere|create_uvsphere|create_circle|create_cone)$")
_INVALID = re.compile(r'(\w+): keyword "(\w+)" is invalid for this operator')


class _Radius(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        bad = _INVALID.search(self.scope.error)
        self.invalid = (bad.group(1), bad.group(2)) if bad and bad.group(2) not in _RADIUS else None

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        chain = dotted(original.func) or ""
        if _CREATE.search(chain):
            names = {a.keyword.value for a in original.args if a.keyword}
            old = sorted(names & _RADIUS.keys())
            # The old 'diameter' already meant the radius (hence the rename): the value is kept.
            if old and self.report(
                original,
                f"bmesh.ops.{chain.rsplit('.', 1)[-1]}: {', '.join(old)} became {', '.join(_RADIUS[o] for o in old)} in 2.80",
                ", ".join(f"{_RADIUS[o]}=…" for o in old),
            ):
                return updated.with_changes(
                    args=[
                        renamed_kwarg(a, _RADIUS[a.keyword.value]) if a.keyword and a.keyword.value in _RADIUS else a for a in updated.args
                    ]
                )
        if self.invalid and chain.endswith(f"ops.{self.invalid[0]}"):
            if self.report(
                original, f'bmesh.ops.{self.invalid[0]} has no keyword "{self.invalid[1]}"', f"drop {self.invalid[1]}=…", certain=False
            ):
                return without_args(updated, {self.invalid[1]})
        return updated


_SEQ = re.compile(r"\.(verts|edges|faces)$")


class _Sequences(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def visit_Subscript(self, node: cst.Subscript) -> None:
        chain = dotted(node.value)
        if chain is not None and _SEQ.search(chain) and "data." not in chain and chain not in self.found:
            self.found.append(chain)


class _LookupTable(RuleTransformer):
    def _ensure(self, original: cst.BaseStatement, header: cst.CSTNode):
        if not self.on_failing_line(header):
            return None
        seqs = _Sequences()
        header.visit(seqs)
        calls = [f"{seq}.ensure_lookup_table()" for seq in seqs.found]
        if calls and self.report(
            header, "bmesh sequences need ensure_lookup_table() before index access (since 2.73)", "; ".join(calls), certain=False
        ):
            return cst.FlattenSentinel([*[stmt(c + "\n") for c in calls], original])
        return None

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        return self._ensure(updated, original) or updated

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        result = super().on_leave(original, updated)
        if isinstance(original, cst.If | cst.For | cst.While) and isinstance(result, cst.BaseStatement):
            head = original.test if isinstance(original, cst.If | cst.While) else original.iter
            return self._ensure(result, head) or result
        return result


RULES = (
    DriftRule(
        "bmesh-radius",
        "bmesh.ops.create_icosphere/uvsphere/circle/cone: diameter → radius",
        "2.80",
        "2.80",
        _Radius,
        (r'create_(icosphere|uvsphere|circle|cone): keyword "diameter\d?" is invalid', r'keyword "\w+" is invalid for this operator'),
        needles=("diameter",),
        example=(
            "bmesh.ops.create_uvsphere(bm, u_segments=8, v_segments=6, diameter=2)",
            "bmesh.ops.create_uvsphere(bm, u_segments=8, v_segments=6, radius=2)",
        ),
    ),
    DriftRule(
        "bmesh-lookup-table",
        "index access to bm.verts/edges/faces needs ensure_lookup_table()",
        "2.73",
        "2.73",
        _LookupTable,
        (r"outdated internal index table, run ensure_lookup_table\(\) first",),
        runtime_only=True,
        example=("v = bm.verts[0]", "bm.verts.ensure_lookup_table()\nv = bm.verts[0]"),
    ),
)
