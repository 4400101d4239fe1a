"""`Mesh.from_pydata`, two ways small models get it wrong (both seen in the generation benchmark).

It fills an empty mesh only: called again on a mesh that has geometry (a small model "adds" vertices to
its list and calls it a second time) it raises RuntimeError "internal error setting the array". Seen in the generation
benchmark.

Only at the from_pydata call a run failed on with that error: the mesh is cleared first (`clear_geometry()`, 2.81+), so
the second call builds what its lists say, which is what the script meant. Not again where the statement before is that
very `clear_geometry()` (the error then has another cause: the rule fired eight times on a small model's paperclip).

Its lists have shapes: vertices of 3 numbers, edges of 2 indices, faces of 3 or more distinct indices. A small model wrote an
edge of four indices (`[(0, 0, 1, 2)]`), colours for faces (`[(1, 0, 0, 1.0)]`) and 2D vertices; Blender raises
RuntimeError "internal error setting the array" or TypeError "couldn't access the py sequence", and takes a face whose
index is past the vertices without a word (an invalid mesh). Only at the from_pydata call a run failed on with one of
those errors, for lists written out (in the call, or in the one assignment of a name it passes): a 2D vertex gets z = 0,
an edge that is not two indices and a face that is not three or more distinct indices of the vertices are left out."""

from __future__ import annotations

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import code, dotted, in_place_of, number_value


class _RefillMesh(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.previous = ""  # the statement before the one being left, as code

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        previous, self.previous = self.previous, code(original).strip()
        if len(updated.body) != 1 or not isinstance(expr := updated.body[0], cst.Expr) or not isinstance(call := expr.value, cst.Call):
            return updated
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "from_pydata"):
            return updated
        mesh = dotted(func.value)
        if mesh is None or "(" in mesh or "[" in mesh:  # a plain name or attribute chain: evaluated twice below
            return updated
        if previous == f"{mesh}.clear_geometry()":
            return updated
        if not self.report(
            original, f"{mesh} already has geometry; from_pydata fills an empty mesh", f"{mesh}.clear_geometry() first", certain=False
        ):
            return updated
        return in_place_of(updated, f"{mesh}.clear_geometry()\n", updated)


_SHAPE_ERRORS = ("internal error setting the array", "couldn't access the py sequence")


def _elements(node: cst.CSTNode | None) -> list[cst.BaseExpression] | None:
    """The items of a list or tuple written out (no starred items), else None."""
    if isinstance(node, (cst.List, cst.Tuple)) and all(isinstance(e, cst.Element) for e in node.elements):
        return [e.value for e in node.elements]
    return None


def _indices(node: cst.CSTNode) -> list[int] | None:
    items = _elements(node)
    if items is None or not all(isinstance(i, cst.Integer) for i in items):
        return None
    return [int(i.value) for i in items if isinstance(i, cst.Integer)]


def _kept(node: cst.BaseExpression, keep: list[bool]) -> cst.BaseExpression:
    assert isinstance(node, (cst.List, cst.Tuple))
    elements = [e for e, k in zip(node.elements, keep, strict=True) if k]
    if elements:
        elements[-1] = elements[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    if isinstance(node, cst.Tuple) and len(elements) == 1:
        elements[0] = elements[0].with_changes(comma=cst.Comma())
    return node.with_changes(elements=elements)


class _Shapes(RuleTransformer):
    """Decides in visit_Module (a list may be assigned above the call that fails), swaps the lists as they are left."""

    def visit_Module(self, node: cst.Module) -> None:
        self.fixed: dict[int, cst.BaseExpression] = {}  # id(original list node) -> its fixed form
        if not any(e in self.scope.error for e in _SHAPE_ERRORS):
            return
        finder = _PydataCalls()
        node.visit(finder)
        for call in finder.calls:
            if self.on_failing_line(call):
                self._fix(call, finder.assigned, finder.mutated)

    def _fix(self, call: cst.Call, assigned: dict[str, list[cst.BaseExpression]], mutated: set[str]) -> None:
        args: list[cst.BaseExpression | None] = [None, None, None]
        for i, arg in enumerate(call.args):
            slot = (
                ("vertices", "edges", "faces").index(arg.keyword.value)
                if arg.keyword and arg.keyword.value in ("vertices", "edges", "faces")
                else i
            )
            if slot < 3:
                values = assigned.get(arg.value.value, []) if isinstance(arg.value, cst.Name) else [arg.value]
                changed = isinstance(arg.value, cst.Name) and arg.value.value in mutated
                args[slot] = values[0] if len(values) == 1 and not changed else None  # a name bound once, never changed
        verts, edges, faces = (_elements(a) for a in args)
        count = None
        if verts is not None:
            coords = [_elements(v) for v in verts]
            if all(c is not None and all(number_value(x) is not None for x in c) for c in coords):
                count = len(verts)
                if all(c is not None and len(c) == 2 for c in coords):
                    made = [cst.Element(cst.Tuple([*(cst.Element(x) for x in c or ()), cst.Element(cst.Float("0.0"))])) for c in coords]
                    assert isinstance(args[0], (cst.List, cst.Tuple))
                    self._swap(call, args[0], args[0].with_changes(elements=made), "2D vertices", "z = 0.0 added")

        def edge_ok(e: cst.BaseExpression) -> bool:
            ids = _indices(e)
            return ids is not None and len(ids) == 2 and (count is None or max(ids) < count)

        def face_ok(f: cst.BaseExpression) -> bool:
            ids = _indices(f)
            return ids is not None and len(ids) >= 3 and len(set(ids)) == len(ids) and (count is None or max(ids) < count)

        for items, node, ok, what in ((edges, args[1], edge_ok, "edge"), (faces, args[2], face_ok, "face")):
            if items is None or node is None:
                continue
            keep = [ok(i) for i in items]
            if not all(keep):
                bad = code(items[keep.index(False)])
                self._swap(
                    call, node, _kept(node, keep), f"{what} {bad} is not a {what} of these vertices", f"{keep.count(False)} left out"
                )

    def _swap(self, call: cst.Call, old: cst.BaseExpression, new: cst.BaseExpression, message: str, fix: str) -> None:
        if self.report(call, f"from_pydata: {message}", fix, certain=False):
            self.fixed[id(old)] = new

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
        if id(original_node) in self.fixed:
            return self.fixed[id(original_node)]
        return super().on_leave(original_node, updated_node)  # type: ignore[return-value]


class _PydataCalls(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[cst.Call] = []
        self.assigned: dict[str, list[cst.BaseExpression]] = {}  # name -> every value assigned to it
        self.mutated: set[str] = set()  # names whose list may change after it: NAME.append(…), NAME += …, NAME[i] = …

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "from_pydata":
            self.calls.append(node)
        elif isinstance(node.func, cst.Attribute) and isinstance(node.func.value, cst.Name):
            self.mutated.add(node.func.value.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.target, cst.Name):
            self.mutated.add(node.target.value)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if isinstance(node.value, cst.Name):
            self.mutated.add(node.value.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self.assigned.setdefault(target.target.value, []).append(node.value)


RULES = (
    DriftRule(
        "from-pydata-refill",
        "from_pydata on a mesh that already has geometry → clear_geometry() first",
        "2.81",
        "2.81",
        _RefillMesh,
        (r"internal error setting the array",),
        runtime_only=True,
        example=("mesh.from_pydata(verts, [], faces)", "mesh.clear_geometry()\nmesh.from_pydata(verts, [], faces)"),
    ),
    DriftRule(
        "from-pydata-shapes",
        "from_pydata lists of the wrong shape (an edge of 4 indices, colours as faces, 2D vertices) → fixed or left out",
        "2.80",
        "2.80",
        _Shapes,
        (r"internal error setting the array", r"couldn't access the py sequence"),
        runtime_only=True,
        example=("faces = [(0, 1, 2), (1, 0, 0, 1.0)]", "faces = [(0, 1, 2)]"),
        leaves_out="polygons or edges of an impossible shape (an edge of 4 indices), which Blender cannot hold",
    ),
)
