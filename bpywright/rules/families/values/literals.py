"""Value drift: `Matrix * Vector` became `@` (2.80); colours gained an alpha channel (RGBA where RGB was enough); and an
operator's `scale=(0, 0, 0)`, its documented "not set" default, copied from the signature into a call, where it collapses
the new mesh to a point."""

from __future__ import annotations

import difflib
import re

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import code, dotted, expr, is_object, kwarg, last_name, number_value, object_names, string_value, without_args
from ...rna import rna_table

_MATRIX = re.compile(
    r"(^|\.)(matrix_world|matrix_local|matrix_basis|matrix_parent_inverse|matrix|matrix_channel|rotation_quaternion)$|"
    r"(^|\.)(Matrix|Quaternion)(\.\w+)?\(\)$|(^|\.)(to_matrix|to_4x4|to_3x3|to_quaternion|rotation_difference)\(\)$"
)
_VECTOR = re.compile(r"(^|\.)(co|location|normal|head|tail|center|translation)$|(^|\.)(Vector|to_translation|to_scale|cross)\(\)$")
_SAME_KIND = {"inverted", "inverted_safe", "transposed", "normalized", "copy", "freeze"}


class _Kinds(cst.CSTVisitor):
    """Names bound only to matrix-like (or vector-like) expressions."""

    def __init__(self, names: dict[str, str]) -> None:
        super().__init__()
        self.names = names
        self.kinds: dict[str, set[str]] = {}

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                self.kinds.setdefault(t.target.value, set()).add(_kind(node.value, self.names))


def kinds_of_names(module: cst.Module) -> dict[str, str]:
    """Names whose every assignment is matrix-like (or every one vector-like); a few passes follow chains of names."""
    names: dict[str, str] = {}
    for _ in range(3):
        finder = _Kinds(names)
        module.visit(finder)
        names = {n: next(iter(k)) for n, k in finder.kinds.items() if len(k) == 1 and k != {"other"}}
    return names


def _kind(node: cst.BaseExpression, names: dict[str, str]) -> str:
    """'matrix' (matrices and quaternions), 'vector' or 'other' for an expression."""
    if isinstance(node, cst.Name) and node.value in names:
        return names[node.value]
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value in _SAME_KIND:
        return _kind(node.func.value, names)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.MatrixMultiply | cst.Multiply):
        kinds = {_kind(node.left, names), _kind(node.right, names)}
        return "vector" if kinds == {"matrix", "vector"} else "matrix" if kinds == {"matrix"} else "other"
    chain = dotted(node) or ""
    return "matrix" if _MATRIX.search(chain) else "vector" if _VECTOR.search(chain) else "other"


class _MatMul(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.names = kinds_of_names(node)

    def _judge(self, left: cst.BaseExpression, right: cst.BaseExpression) -> tuple[bool, bool] | None:
        """(certain, fails) for a product, or None when it is surely not a matrix product."""
        if number_value(left) is not None or number_value(right) is not None:
            return None
        kinds = {_kind(left, self.names), _kind(right, self.names)}
        if "matrix" in kinds and kinds <= {"matrix", "vector"}:
            return True, "vector" in kinds
        return (False, True) if "Element-wise multiplication" in self.scope.error else None

    def leave_BinaryOperation(self, original: cst.BinaryOperation, updated: cst.BinaryOperation) -> cst.BaseExpression:
        judged = self._judge(original.left, original.right) if isinstance(original.operator, cst.Multiply) else None
        if judged is None:
            return updated
        certain, fails = judged
        fix = f"{code(original.left)} @ {code(original.right)}"
        star = original.operator
        assert isinstance(star, cst.Multiply)
        if self.report(
            original, "matrix/vector/quaternion products use @ since 2.80 (* is element-wise)", fix, certain=certain, blocking=fails
        ):
            return updated.with_changes(
                operator=cst.MatrixMultiply(whitespace_before=star.whitespace_before, whitespace_after=star.whitespace_after)
            )
        return updated

    def leave_AugAssign(self, original: cst.AugAssign, updated: cst.AugAssign) -> cst.BaseSmallStatement:
        judged = self._judge(original.target, original.value) if isinstance(original.operator, cst.MultiplyAssign) else None
        if judged and self.report(
            original, "matrix products use @= since 2.80", f"{code(original.target)} @= {code(original.value)}", certain=judged[0]
        ):
            return updated.with_changes(operator=cst.MatrixMultiplyAssign())
        return updated


_TRIPLE = re.compile(r"(color|default_value)\s*=\s*[(\[][^,\n]+,[^,\n]+,[^,\n]+[)\]]")
_LENGTHS = re.compile(r"should contain (\d+) items, not (\d+)")


def _rgba_socket(target: cst.Attribute, version: str) -> bool:
    """`….inputs['Base Color'].default_value` (or .get('Base Color')) naming a socket that is always RGBA."""
    socket = target.value
    key = None
    if isinstance(socket, cst.Subscript) and len(socket.slice) == 1 and isinstance(socket.slice[0].slice, cst.Index):
        key = string_value(socket.slice[0].slice.value)
    elif isinstance(socket, cst.Call) and (dotted(socket.func) or "").endswith("inputs.get") and socket.args:
        key = string_value(socket.args[0].value)
    return key is not None and key in rna_table(version)["rgba_sockets"] and "inputs" in (dotted(socket) or "")


class _Rgba(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.names = object_names(node)
        found = _LENGTHS.search(self.scope.error)
        self.want = (int(found.group(1)), int(found.group(2))) if found else None

    def _sure_rgba(self, target: cst.Attribute) -> bool:
        attr = target.attr.value
        if attr == "diffuse_color":
            return "pref" not in (dotted(target.value) or "") and "light" not in last_name(dotted(target.value)).lower()
        if attr == "color":
            return is_object(target.value, self.names)
        return attr == "default_value" and _rgba_socket(target, self.scope.target)

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.BaseSmallStatement:
        target = original.targets[0].target if len(original.targets) == 1 else None
        if not isinstance(target, cst.Attribute):
            return updated
        value = original.value
        size = len(value.elements) if isinstance(value, cst.Tuple | cst.List) else None
        if size == 3 and self._sure_rgba(target):
            want, certain = 4, True
        elif self.want in ((4, 3), (3, 4)) and (size is None or size == self.want[1]):
            want, certain = self.want[0], False
        elif self.want == (4, 5) and (new := _alpha_on_rgba(updated.value)) is not None:
            if self.report(
                original, f"{code(target)} takes 4 values: the colour spread into it already had an alpha", code(new), certain=False
            ):
                return updated.with_changes(value=new)
            return updated
        else:
            return updated
        new = _resized(updated.value, want)
        if new is not None and self.report(
            original,
            f"{code(target)} takes {want} values (RGBA since 2.80)" if want == 4 else f"{code(target)} takes 3 values",
            f"{code(target)} = {code(new)}",
            certain=certain,
        ):
            return updated.with_changes(value=new)
        return updated


def _alpha_on_rgba(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """`(*color, 1.0)` made 5 values from an RGBA colour (a helper written for RGB, given RGBA): `(*color[:3], 1.0)`."""
    if not (isinstance(value, cst.Tuple | cst.List) and len(value.elements) == 2 and isinstance(value.elements[0], cst.StarredElement)):
        return None
    spread = value.elements[0].value
    if isinstance(spread, cst.Subscript):
        return None  # already sliced
    return expr(f"(*{code(spread)}[:3], {code(value.elements[1].value)})")


def _resized(value: cst.BaseExpression, want: int) -> cst.BaseExpression | None:
    """The value with an alpha of 1.0 appended (want 4) or its fourth item dropped (want 3)."""
    if isinstance(value, cst.Tuple | cst.List):
        items = [e.value for e in value.elements if isinstance(e, cst.Element)]
        items = [*items, cst.Float("1.0")] if want == 4 else items[:3]
        return cst.Tuple([cst.Element(v) for v in items]) if isinstance(value, cst.Tuple) else cst.List([cst.Element(v) for v in items])
    if isinstance(value, cst.StarredElement):
        return None
    text = code(value)
    if not isinstance(value, cst.Name | cst.Attribute | cst.Subscript | cst.Call):
        text = f"({text})"  # `*a if b else c` does not parse: `*(a if b else c)` does
    return expr(f"(*{text}, 1.0)") if want == 4 else expr(f"tuple({text})[:3]")


_ENUM = re.compile(r'enum "(\w+)" not found in \(([^)]*)\)')
# Enum items renamed between versions (the value a script passes → the item that replaced it).
# (Render engine ids are the render rules' business: they depend on the target version.)
ENUM_RENAMES = {"HEMI": "SUN", "LAMP": "LIGHT", "GROUP": "COLLECTION", "DUPLIGROUP": "COLLECTION", "TEXTURED": "SOLID"}


def enum_successor(old: str, allowed: list[str]) -> str | None:
    """The item that replaced an enum value no longer accepted: a known rename or one close spelling."""
    if ENUM_RENAMES.get(old) in allowed:
        return ENUM_RENAMES[old]
    if old.startswith("BLENDER_"):
        return None
    close = difflib.get_close_matches(old, allowed, n=1, cutoff=0.75)
    return close[0] if close else None


class _Strings(cst.CSTVisitor):
    def __init__(self, value: str) -> None:
        super().__init__()
        self.value = value
        self.nodes: list[cst.SimpleString] = []

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if string_value(node) == self.value:
            self.nodes.append(node)


_ENGINE_IDS = frozenset({"BLENDER_EEVEE", "BLENDER_EEVEE_NEXT", "BLENDER_RENDER", "BLENDER_GAME"})


class _EnumValue(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        found = _ENUM.search(self.scope.error)
        allowed = re.findall(r"'(\w+)'", found.group(2)) if found else []
        self.old, self.new = (found.group(1), enum_successor(found.group(1), allowed)) if found else ("", None)
        if self.old in _ENGINE_IDS:
            self.old = ""  # the render family renames engine ids (dropping `render.engine = 'BLENDER_EEVEE'` lost EEVEE)
        strings = _Strings(self.old)
        node.visit(strings)
        # the literal on the failing statement; when the value reached it through a variable, every such literal
        self.everywhere = self.new is not None and not any(self.on_failing_line(n) for n in strings.nodes)

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        if self.new is None or string_value(original) != self.old or not (self.everywhere or self.on_failing_line(original)):
            return updated
        if self.report(
            original, f'enum item "{self.old}" is "{self.new}" in Blender {self.scope.target}', f"'{self.new}'", certain=self.everywhere
        ):
            return cst.SimpleString(original.quote + self.new + original.quote)
        return updated

    # No successor (a made-up item: a small model's `modifier.solver = "SIMPLE"`): on the failing statement, the setting is
    # left out, so the property keeps its default: an assignment of the bare literal is dropped, an operator's keyword
    # argument removed (every operator property is optional; a data API's `new(name, type)` needs its type: left alone).
    def _unknown(self, node: cst.CSTNode | None) -> bool:
        return bool(self.old) and self.new is None and string_value(node) == self.old

    def _dropped(self, node: cst.CSTNode, what: str) -> bool:
        return self.report(node, f'"{self.old}" is no item of {what} in Blender {self.scope.target}', "left at its default", certain=False)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        operator = (dotted(original.func) or "").split(".")[-3:-2] == ["ops"]
        bad = [a.keyword.value for a in original.args if a.keyword is not None and self._unknown(a.value)] if operator else []
        if bad and self.on_failing_line(original) and self._dropped(original, f"{code(original.func)}'s {bad[0]}"):
            return without_args(updated, set(bad))
        return updated

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        if len(original.body) != 1 or not isinstance(assign := original.body[0], cst.Assign) or len(assign.targets) != 1:
            return updated
        if self._unknown(assign.value) and self.on_failing_line(original) and self._dropped(original, code(assign.targets[0].target)):
            return cst.RemovalSentinel.REMOVE
        return updated


class _ZeroScale(RuleTransformer):
    """Drops `scale=(0, 0, 0)` from an operator call. The add operators document scale=(0.0, 0.0, 0.0) as their default,
    meaning "not set"; passed explicitly, the primitive's mesh is built scaled to a point (the object keeps scale 1, its
    dimensions are 0). A small model copied the whole signature from the retrieved symbols into 16 of its 30 benchmark
    scripts, and 4 of them rendered blank frames for it."""

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        if not (dotted(original.func) or "").startswith("bpy.ops."):
            return updated
        arg = kwarg(original, "scale")
        if arg is None or not isinstance(arg.value, cst.Tuple | cst.List) or len(arg.value.elements) != 3:
            return updated
        if any(number_value(e.value) != 0 for e in arg.value.elements):
            return updated
        why = "scale=(0, 0, 0) is the operator's 'not set' default; passed, it builds the mesh scaled to a point (invisible)"
        if not self.report(original, why, "drop scale=", certain=True, blocking=False):
            return updated
        return without_args(updated, {"scale"})


RULES = (
    DriftRule(
        "matrix-matmul",
        "Matrix/Vector/Quaternion products: * → @",
        "2.80",
        "2.80",
        _MatMul,
        (
            r"Element-wise multiplication: not supported between '(Matrix|Vector|Quaternion|Euler)' and '(Matrix|Vector|Quaternion|Euler)' types",
        ),
        needles=("matrix", "Matrix", "quat", "Quaternion"),
        example=("v = m * get_vector()", "v = m @ get_vector()"),
    ),
    DriftRule(
        "rgba-length",
        "3-value colours where RGBA (4 values) is required; an alpha appended to a colour that had one",
        "2.80",
        "2.80",
        _Rgba,
        (r"sequences of dimension 0 should contain (4 items, not 3|3 items, not 4|4 items, not 5)",),
        needles=lambda s: _TRIPLE.search(s) is not None,
        example=("light.color = (1, 1, 1, 1)", "light.color = (1, 1, 1)"),
    ),
    DriftRule(
        "enum-value",
        "enum items renamed or misspelt ('HEMI' → 'SUN', 'GROUP' → 'COLLECTION', 'SUBSURFACE' → 'SUBSURF'); a made-up one left at its default",
        "2.80",
        "2.80",
        _EnumValue,
        (r'enum "\w+" not found in',),
        runtime_only=True,
        example=("bpy.data.lights.new('Sky', type='HEMI')", "bpy.data.lights.new('Sky', type='SUN')"),
        leaves_out="a made-up enum item (never valid): the property keeps its default",
    ),
    DriftRule(
        "zero-scale",
        "an operator's scale=(0, 0, 0) (its 'not set' default, copied from the signature) → dropped: it collapses the mesh",
        "2.80",
        "2.80",
        _ZeroScale,
        (r"^ZeroDivisionError: float division by zero",),  # a size computed from the collapsed mesh's dimensions
        needles=("scale=",),
        example=("bpy.ops.mesh.primitive_cube_add(size=0.4, scale=(0, 0, 0))", "bpy.ops.mesh.primitive_cube_add(size=0.4)"),
    ),
)
