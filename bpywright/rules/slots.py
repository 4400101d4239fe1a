"""A material given where its slot index belongs: `face.material_index = mat.index` raises AttributeError "'Material'
object has no attribute 'index'" (a material has no index of its own: the index is of the slot it occupies on the mesh).
The 1.5B model kept this through three heal rounds in the generation benchmark.

Only at the statement a run failed on with that error, inside `for FACE in MESH.polygons:`: the material is appended to
MESH when it is not there yet, and FACE gets the index of its slot (`MESH.materials.find(mat.name)`)."""

from __future__ import annotations

import libcst as cst

from .base import DriftRule, RuleTransformer
from .fragments import dotted, in_place_of


class _SlotIndex(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.loops: list[tuple[str, str]] = []  # (face variable, mesh expression) of the enclosing `for … in MESH.polygons`

    def visit_For(self, node: cst.For) -> None:
        mesh = dotted(node.iter.value) if isinstance(node.iter, cst.Attribute) and node.iter.attr.value == "polygons" else None
        face = node.target.value if isinstance(node.target, cst.Name) else ""
        plain = mesh is not None and "(" not in mesh and "[" not in mesh  # evaluated again in the fix: a plain name or chain
        self.loops.append((face, mesh) if face and mesh and plain else ("", ""))

    def leave_For(self, original: cst.For, updated: cst.For) -> cst.For:
        self.loops.pop()
        return updated

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(updated.body) != 1 or not isinstance(assign := updated.body[0], cst.Assign) or len(assign.targets) != 1:
            return updated
        target, value = assign.targets[0].target, assign.value
        if not (isinstance(target, cst.Attribute) and target.attr.value == "material_index" and isinstance(target.value, cst.Name)):
            return updated
        if not (isinstance(value, cst.Attribute) and value.attr.value == "index" and isinstance(value.value, cst.Name)):
            return updated
        mesh = next((m for face, m in reversed(self.loops) if face == target.value.value), None)
        if mesh is None:
            return updated
        mat, face = value.value.value, target.value.value
        if not self.report(original, f"{mat} is a material, with no index of its own", f"the index of its slot on {mesh}", certain=False):
            return updated
        return in_place_of(
            updated,
            f"if {mesh}.materials.find({mat}.name) < 0:\n    {mesh}.materials.append({mat})\n",
            f"{face}.material_index = {mesh}.materials.find({mat}.name)\n",
        )


RULES = (
    DriftRule(
        "material-slot-index",
        "values",
        "face.material_index = material.index → the index of the material's slot on the mesh (appended when missing)",
        "2.80",
        "2.80",
        _SlotIndex,
        (r"'Material' object has no attribute 'index'",),
        runtime_only=True,
    ),
)
