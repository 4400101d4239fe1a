"""`Mesh.from_pydata` fills an empty mesh only: called again on a mesh that has geometry (a small model "adds" vertices to
its list and calls it a second time) it raises RuntimeError "internal error setting the array". Seen in the generation
benchmark.

Only at the from_pydata call a run failed on with that error: the mesh is cleared first (`clear_geometry()`, 2.81+), so
the second call builds what its lists say, which is what the script meant."""

from __future__ import annotations

import libcst as cst

from .base import DriftRule, RuleTransformer
from .fragments import dotted, in_place_of


class _RefillMesh(RuleTransformer):
    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(updated.body) != 1 or not isinstance(expr := updated.body[0], cst.Expr) or not isinstance(call := expr.value, cst.Call):
            return updated
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "from_pydata"):
            return updated
        mesh = dotted(func.value)
        if mesh is None or "(" in mesh or "[" in mesh:  # a plain name or attribute chain: evaluated twice below
            return updated
        if not self.report(
            original, f"{mesh} already has geometry; from_pydata fills an empty mesh", f"{mesh}.clear_geometry() first", certain=False
        ):
            return updated
        return in_place_of(updated, f"{mesh}.clear_geometry()\n", updated)


RULES = (
    DriftRule(
        "from-pydata-refill",
        "values",
        "from_pydata on a mesh that already has geometry → clear_geometry() first",
        "2.81",
        "2.81",
        _RefillMesh,
        (r"internal error setting the array",),
        runtime_only=True,
    ),
)
