"""Material slots given the wrong thing, three ways a small model wrote it in the generation benchmark.

A material given where its slot index belongs: `face.material_index = mat.index` raises AttributeError "'Material'
object has no attribute 'index'" (a material has no index of its own: the index is of the slot it occupies on the mesh).
A small model kept this through three heal rounds in the generation benchmark.

Only at the statement a run failed on with that error, inside `for FACE in MESH.polygons:`: the material is appended to
MESH when it is not there yet, and FACE gets the index of its slot (`MESH.materials.find(mat.name)`).

An object or its data given where a material belongs: `lid.data.materials.append(create_latch())` ("# append the latch
material to the lid") raises TypeError "IDMaterials.append(): … expected a Material type, not Object" (or "not Mesh" for
`create_latch().data`). Only on the statement a run failed on with that error: an object gives its active material
(`ARG.active_material`), object data its first (`next(iter(ARG.materials), None)`). The argument is evaluated once, as
before (a call that builds the latch still builds it); a thing with no material leaves an empty slot, which Blender
allows.

The first material of a mesh that has none: `brackets.data.materials[0].diffuse_color = …` or
`lid.data.materials.append(brackets.data.materials[0])` raises IndexError "bpy_prop_collection[index]: index 0 out of
range, size 0" (a small model's solar inverters, three heal rounds). Only on the statement a run failed on with that error:
before it, each `CHAIN.materials` it reads `[0]` of gets a new material when it has none (named after the object)."""

from __future__ import annotations

import re

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import code, dotted, expr, in_place_of
from .datablocks import DATA_TYPES


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


_NOT_MATERIAL = re.compile(rf"expected a Material type, not (Object|{DATA_TYPES})\b")


class _MaterialOf(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        func = updated.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "append" and len(updated.args) == 1):
            return updated
        if not (isinstance(func.value, cst.Attribute) and func.value.attr.value == "materials") or updated.args[0].keyword:
            return updated
        found = _NOT_MATERIAL.search(self.scope.error)
        if found is None or not self.on_failing_line(original):
            return updated
        arg = updated.args[0].value
        kind = found.group(1)
        what = f"{code(arg)} is an {kind.lower()}, not a material" if kind == "Object" else f"{code(arg)} is {kind} data, not a material"
        fix = "its active material" if kind == "Object" else "its first material"
        if not self.report(original, what, fix, certain=False):
            return updated
        if kind == "Object":
            material: cst.BaseExpression = cst.Attribute(value=arg, attr=cst.Name("active_material"))
        else:
            material = expr(f"next(iter({code(arg)}.materials), None)")
        return updated.with_changes(args=[updated.args[0].with_changes(value=material)])


_EMPTY = "bpy_prop_collection[index]: index 0 out of range, size 0"


class _FirstOfNone(cst.CSTVisitor):
    """Plain chains (`brackets.data`, `mesh`) whose `.materials[0]` a statement reads."""

    def __init__(self) -> None:
        super().__init__()
        self.chains: list[str] = []

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if not (isinstance(node.value, cst.Attribute) and node.value.attr.value == "materials" and len(node.slice) == 1):
            return
        index = node.slice[0].slice
        chain = dotted(node.value.value)
        if isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.value == "0":
            if chain and "(" not in chain and "[" not in chain and chain not in self.chains:
                self.chains.append(chain)


class _EmptySlots(RuleTransformer):
    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if _EMPTY not in self.scope.error or not self.on_failing_line(original):
            return updated
        reads = _FirstOfNone()
        original.visit(reads)
        if not reads.chains or not self.report(
            original, f"{reads.chains[0]} has no material yet, so it has no first one", "a material made when it has none", certain=False
        ):
            return updated
        guards = []
        for chain in reads.chains:
            owner = next((part for part in chain.split(".") if part not in ("data", "bpy", "context")), "Object")
            label = owner.replace("_", " ").title()
            guards.append(f"if not {chain}.materials:\n    {chain}.materials.append(bpy.data.materials.new({label + ' Material'!r}))\n")
        return in_place_of(updated, *guards, updated)


RULES = (
    DriftRule(
        "material-slot-index",
        "face.material_index = material.index → the index of the material's slot on the mesh (appended when missing)",
        "2.80",
        "2.80",
        _SlotIndex,
        (r"'Material' object has no attribute 'index'",),
        runtime_only=True,
        example=("face.material_index = green.index", "face.material_index = mesh.materials.find(green.name)"),
    ),
    DriftRule(
        "material-append-object",
        "mesh.materials.append(obj) → the object's active material (its data's first material for object data)",
        "2.80",
        "2.80",
        _MaterialOf,
        (rf"IDMaterials\.append\(\): .*expected a Material type, not (?:Object|{DATA_TYPES})\b",),
        runtime_only=True,
        example=("lid.data.materials.append(create_latch())", "lid.data.materials.append(create_latch().active_material)"),
    ),
    DriftRule(
        "material-first-of-none",
        "the first material of a mesh with none (mesh.materials[0].diffuse_color = …) → one made first",
        "2.80",
        "2.80",
        _EmptySlots,
        (r"bpy_prop_collection\[index\]: index 0 out of range, size 0",),
        runtime_only=True,
        example=(
            "mat = obj.data.materials[0]",
            "if not obj.data.materials:\n    obj.data.materials.append(bpy.data.materials.new('Material'))\nmat = obj.data.materials[0]",
        ),
    ),
)
