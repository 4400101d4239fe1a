"""Shader node drift: Principled BSDF inputs renamed or removed in 4.0; node types removed (Musgrave 4.1, Velvet 4.0)."""

from __future__ import annotations

import re

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ...versions import version_key
from ..base import DriftRule, RuleTransformer
from ..fragments import code, dotted, expr, in_place_of, number_value, stmt, string_value
from ..sockets import PRINCIPLED_RENAMED_4_0, REMOVED_NODES, socket_table

PRINCIPLED = "ShaderNodeBsdfPrincipled"
RENAMED_INPUTS = PRINCIPLED_RENAMED_4_0
REMOVED_INPUTS = {"Subsurface Color", "Transmission Roughness"}
NOW_COLOURS = {"Specular Tint", "Sheen Tint"}  # floats before 4.0, colours after


def _node_type(value: cst.BaseExpression | None, table: dict) -> str | None:
    """The node type an expression creates or looks up (nodes.new('T'), nodes['Default Name'], nodes.get(...))."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.args:
        arg = string_value(value.args[0].value)
        if value.func.attr.value == "new" and (dotted(value.func) or "").endswith("nodes.new"):
            return arg
        if value.func.attr.value == "get" and (dotted(value.func) or "").endswith("nodes.get"):
            return table["default_names"].get(arg or "")
    if isinstance(value, cst.Subscript) and (dotted(value.value) or "").endswith("nodes") and len(value.slice) == 1:
        index = value.slice[0].slice
        return table["default_names"].get(string_value(index.value) or "") if isinstance(index, cst.Index) else None
    return None


class _NodeNames(cst.CSTVisitor):
    def __init__(self, table: dict) -> None:
        super().__init__()
        self.table = table
        self.types: dict[str, str | None] = {}

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                kind = _node_type(node.value, self.table)
                # a name bound to different node types (or to something else, too) is unknown
                self.types[t.target.value] = kind if self.types.get(t.target.value, kind) == kind else None


def _socket_key(node: cst.CSTNode) -> tuple[cst.BaseExpression, str, cst.SimpleString] | None:
    """(node expression, socket name, the string literal) for `X.inputs['Name']` and `X.inputs.get('Name')`."""
    if (
        isinstance(node, cst.Subscript)
        and isinstance(node.value, cst.Attribute)
        and node.value.attr.value == "inputs"
        and len(node.slice) == 1
    ):
        index = node.slice[0].slice
        if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString) and string_value(index.value):
            return node.value.value, string_value(index.value) or "", index.value
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get" and node.args:
        inputs = node.func.value
        first = node.args[0].value
        if (
            isinstance(inputs, cst.Attribute)
            and inputs.attr.value == "inputs"
            and isinstance(first, cst.SimpleString)
            and string_value(first)
        ):
            return inputs.value, string_value(first) or "", first
    return None


class _Principled(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.table = socket_table("4.5")
        finder = _NodeNames(self.table)
        node.visit(finder)
        self.types = finder.types
        self.sets_strength = "Emission Strength" in node.code
        others = [v["inputs"] for k, v in self.table["nodes"].items() if k != PRINCIPLED]
        self.elsewhere = {name for inputs in others for name in inputs}

    def _certainty(self, node_expr: cst.BaseExpression, name: str) -> bool | None:
        """True: surely a Principled BSDF's old input; False: maybe; None: surely not."""
        kind = self.types.get(node_expr.value) if isinstance(node_expr, cst.Name) else _node_type(node_expr, self.table)
        if kind is not None and kind != PRINCIPLED:
            return None
        return kind == PRINCIPLED or name not in self.elsewhere

    def _rename(self, original: cst.CSTNode, updated: cst.Subscript | cst.Call) -> cst.Subscript | cst.Call:
        found = _socket_key(original)
        if found is None or found[1] not in RENAMED_INPUTS:
            return updated
        node_expr, name, _ = found
        certain = self._certainty(node_expr, name)
        new = RENAMED_INPUTS[name]
        if certain is not None and self.report(
            original, f'Principled BSDF input "{name}" is "{new}" since 4.0', f'use "{new}"', certain=certain
        ):
            quoted = cst.SimpleString(repr(new))
            if isinstance(updated, cst.Subscript):
                return updated.with_changes(slice=[cst.SubscriptElement(cst.Index(quoted))])
            assert isinstance(updated, cst.Call)
            return updated.with_changes(args=[updated.args[0].with_changes(value=quoted), *updated.args[1:]])
        return updated

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        return self._rename(original, updated)

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        return self._rename(original, updated)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        colour = self._tint(original, small)
        if colour is not None:
            return colour
        for name, certain in self._removed_inputs(small):
            if certain is not None and self.report(
                original, f'Principled BSDF input "{name}" was removed in 4.0', "remove the statement", certain=certain
            ):
                return cst.RemovalSentinel.REMOVE
        emission = self._emission(original, small)
        return cst.FlattenSentinel([updated, stmt(emission)]) if emission else updated

    def _assigned(self, small: cst.BaseSmallStatement | None) -> tuple[cst.BaseExpression, str, cst.BaseExpression] | None:
        """(node expression, input name, value) of `X.inputs['Name'].default_value = value`."""
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Attribute):
            target = small.targets[0].target
            found = _socket_key(target.value) if target.attr.value == "default_value" else None
            if found:
                return found[0], found[1], small.value
        return None

    def _tint(self, original: cst.SimpleStatementLine, small: cst.BaseSmallStatement | None) -> cst.BaseStatement | None:
        """A float Specular/Sheen Tint (white to the base colour) → the colour 4.0 takes, mixed as Blender's 4.0 file
        conversion does: 1 - t + t * base colour."""
        found = self._assigned(small)
        if found is None or found[1] not in NOW_COLOURS or isinstance(found[2], cst.Tuple | cst.List):
            return None
        node_expr, name, value = found
        certain = self._certainty(node_expr, name)
        literal = number_value(value) is not None
        if certain is None or not (literal or self.on_failing_line(original)):
            return None
        node, t = code(node_expr), code(value)
        mixed = f"[1.0 - {t} + {t} * c for c in {node}.inputs['Base Color'].default_value[:3]] + [1.0]"
        if self.report(
            original, f'Principled BSDF input "{name}" is a colour since 4.0 (a float tint before)', mixed, certain=certain and literal
        ):
            return stmt(f"{node}.inputs[{name!r}].default_value = {mixed}\n").with_changes(leading_lines=original.leading_lines)
        return None

    def _emission(self, original: cst.SimpleStatementLine, small: cst.BaseSmallStatement | None) -> str | None:
        """Emission Strength is 0 by default since 4.0 (1 before): set where the script gives the old Emission a colour."""
        found = self._assigned(small)
        if (
            found is None
            or found[1] != "Emission"
            or self.sets_strength
            or isinstance(found[2], cst.Tuple | cst.List)
            and all(number_value(e.value) == 0 for e in found[2].elements[:3])
        ):
            return None
        certain = self._certainty(found[0], found[1])
        line = f"{code(found[0])}.inputs['Emission Strength'].default_value = 1.0\n"
        if certain is not None and self.report(
            original, "Emission Strength is 0 by default since 4.0 (1.0 before)", line.strip(), certain=certain
        ):
            return line
        return None

    def _removed_inputs(self, small: cst.BaseSmallStatement | None) -> list[tuple[str, bool | None]]:
        out: list[tuple[str, bool | None]] = []
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Attribute):
            found = _socket_key(small.targets[0].target.value)
            if found and found[1] in REMOVED_INPUTS:
                out.append((found[1], self._certainty(found[0], found[1])))
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and (dotted(small.value.func) or "").endswith("links.new"):
            for arg in small.value.args:
                found = _socket_key(arg.value)
                if found and found[1] in REMOVED_INPUTS:
                    out.append((found[1], self._certainty(found[0], found[1])))
        return out


# The Principled BSDF's inputs by index before 4.0 (scripts wrote `bsdf.inputs[7]` for Roughness): 2.80-2.90; 2.91 put
# Emission Strength after Emission; 3.0 put Subsurface IOR and Subsurface Anisotropy after Subsurface Color.
_LAYOUT_280 = (
    "Base Color", "Subsurface", "Subsurface Radius", "Subsurface Color", "Metallic", "Specular", "Specular Tint",
    "Roughness", "Anisotropic", "Anisotropic Rotation", "Sheen", "Sheen Tint", "Clearcoat", "Clearcoat Roughness", "IOR",
    "Transmission", "Transmission Roughness", "Emission", "Alpha", "Normal", "Clearcoat Normal", "Tangent",
)  # fmt: skip
_LAYOUT_291 = (*_LAYOUT_280[:18], "Emission Strength", *_LAYOUT_280[18:])
_LAYOUT_300 = (*_LAYOUT_291[:4], "Subsurface IOR", "Subsurface Anisotropy", *_LAYOUT_291[4:])
OLD_LAYOUTS = {"2.91": _LAYOUT_291, "2.80": _LAYOUT_280, "3.0": _LAYOUT_300}  # a tie goes to the first
_VECTORS = {"Base Color", "Subsurface Radius", "Subsurface Color", "Emission", "Normal", "Clearcoat Normal", "Tangent"}
# 4.0's order (as bpy 4.5 lists it), and its inputs that take a colour or vector.
LAYOUT_4 = (
    "Base Color", "Metallic", "Roughness", "IOR", "Alpha", "Normal", "Weight", "Diffuse Roughness", "Subsurface Weight",
    "Subsurface Radius", "Subsurface Scale", "Subsurface IOR", "Subsurface Anisotropy", "Specular IOR Level",
    "Specular Tint", "Anisotropic", "Anisotropic Rotation", "Tangent", "Transmission Weight", "Coat Weight",
    "Coat Roughness", "Coat IOR", "Coat Tint", "Coat Normal", "Sheen Weight", "Sheen Roughness", "Sheen Tint",
    "Emission Color", "Emission Strength", "Thin Film Thickness", "Thin Film IOR",
)  # fmt: skip
VECTORS_4 = {
    "Base Color",
    "Normal",
    "Subsurface Radius",
    "Specular Tint",
    "Tangent",
    "Coat Tint",
    "Coat Normal",
    "Sheen Tint",
    "Emission Color",
}


def _index_access(node: cst.CSTNode) -> tuple[cst.BaseExpression, int] | None:
    """(node expression, N) for `X.inputs[N]` with an integer literal N."""
    if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and node.value.attr.value == "inputs":
        index = node.slice[0].slice if len(node.slice) == 1 else None
        if isinstance(index, cst.Index) and isinstance(index.value, cst.Integer):
            return node.value.value, int(index.value.evaluated_value)
    return None


def _kind_of(value: cst.BaseExpression) -> str | None:
    """'vector' for a tuple/list literal, 'float' for a number, None when the literal does not say."""
    if isinstance(value, cst.Tuple | cst.List):
        return "vector"
    return "float" if number_value(value) is not None else None


class _IndexedUses(cst.CSTVisitor):
    """Every `X.inputs[N].default_value = literal` (N, what the literal is) and every `X.inputs[N]` of a Principled BSDF."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, types: dict[str, str | None], table: dict) -> None:
        super().__init__()
        self.types, self.table = types, table
        self.uses: list[tuple[int, str | None, int]] = []  # (index, literal kind, line)

    def principled(self, node_expr: cst.BaseExpression) -> bool:
        kind = self.types.get(node_expr.value) if isinstance(node_expr, cst.Name) else _node_type(node_expr, self.table)
        return kind == PRINCIPLED

    def visit_Assign(self, node: cst.Assign) -> None:
        target = node.targets[0].target if len(node.targets) == 1 else None
        if isinstance(target, cst.Attribute) and target.attr.value == "default_value":
            found = _index_access(target.value)
            if found and self.principled(found[0]):
                line = self.get_metadata(PositionProvider, node).start.line
                self.uses.append((found[1], _kind_of(node.value), line))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        found = _index_access(node)
        if found and self.principled(found[0]):
            self.uses.append((found[1], None, self.get_metadata(PositionProvider, node).start.line))


def old_layout(uses: list[tuple[int, str | None, int]]) -> tuple[str, ...]:
    """The pre-4.0 input order the literals agree with best (a mismatch costs more than a match gains)."""

    def score(layout: tuple[str, ...]) -> int:
        total = 0
        for index, kind, _ in uses:
            if index >= len(layout):
                total -= 5
            elif kind is not None:
                total += 1 if (layout[index] in _VECTORS) == (kind == "vector") else -5
        return total

    return max(OLD_LAYOUTS.values(), key=score)


class _PrincipledIndex(RuleTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def visit_Module(self, node: cst.Module) -> None:
        self.table = socket_table("4.5")
        finder = _NodeNames(self.table)
        node.visit(finder)
        uses = _IndexedUses(finder.types, self.table)
        MetadataWrapper(node, unsafe_skip_copy=True).visit(uses)
        self.principled = uses.principled
        # The file writes the old order: a failure on one of these lines, or a literal of the wrong kind for 4.x's input.
        wrong_now = any(
            kind is not None and (i >= len(LAYOUT_4) or (kind == "vector") != (LAYOUT_4[i] in VECTORS_4)) for i, kind, _ in uses.uses
        )
        failed = bool(self.scope.error) and any(line in self.scope.lines for _, _, line in uses.uses)
        self.layout = old_layout(uses.uses) if uses.uses and (failed or wrong_now) else None

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        found = _index_access(original)
        if self.layout is None or found is None or not self.principled(found[0]) or found[1] >= len(self.layout):
            return updated
        name = self.layout[found[1]]
        if self.report(original, f"Principled BSDF input {found[1]} was {name!r} before 4.0 (4.0 reordered them)", repr(name)):
            return updated.with_changes(slice=[cst.SubscriptElement(cst.Index(cst.SimpleString(repr(name))))])
        return updated


class _RemovedNodes(RuleTransformer):
    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        entry = REMOVED_NODES.get(string_value(original) or "")
        if entry is None or version_key(self.scope.target) < version_key(entry[0]):
            return updated
        old = string_value(original)
        if self.report(original, f"node type {old} was removed in {entry[0]}", f"'{entry[1]}'"):
            return cst.SimpleString(repr(entry[1]))
        return updated


_TREE_SOURCE = re.compile(r"(node_groups\.new\(\)|node_groups\[\]|node_groups\.get\(\)|\.node_tree|\.node_group)$")


class _Trees(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        if _TREE_SOURCE.search(dotted(node.value) or ""):
            self.names.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))


class _TreeInterface(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        trees = _Trees()
        node.visit(trees)
        self.trees = trees.names

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        sockets = func.value if isinstance(func, cst.Attribute) and func.attr.value == "new" else None
        if not (isinstance(sockets, cst.Attribute) and sockets.attr.value in ("inputs", "outputs")):
            return updated
        tree = dotted(sockets.value) or ""
        certain = tree in self.trees or bool(_TREE_SOURCE.search(tree))
        if not (certain or "NodeTree' object has no attribute" in self.scope.error):
            return updated
        args = {a.keyword.value if a.keyword else ("type", "name")[i]: a.value for i, a in enumerate(original.args[:2])}
        if set(args) != {"type", "name"}:
            return updated
        side = "INPUT" if sockets.attr.value == "inputs" else "OUTPUT"
        new = f"{code(sockets.value)}.interface.new_socket(name={code(args['name'])}, in_out='{side}', socket_type={code(args['type'])})"
        if self.report(original, f"node group {sockets.attr.value}.new() became interface.new_socket() in 4.0", new, certain=certain):
            return expr(new)
        return updated


_OLD = "|".join(sorted(RENAMED_INPUTS) + sorted(REMOVED_INPUTS))
_SOCKET_PARAMS = ("name", "description", "in_out", "socket_type", "parent")


class _NewSocketArgs(RuleTransformer):
    """interface.new_socket(name, *, description, in_out, socket_type, parent): small models pass the socket type by
    position (where description goes) and a socket's settings (min_value, default_value …) as keywords. The call is
    rebuilt with keywords; the settings are set on the new socket after it."""

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if len(updated.body) != 1:
            return updated
        small = updated.body[0]
        call = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
        if not (isinstance(call, cst.Call) and isinstance(f := call.func, cst.Attribute) and f.attr.value == "new_socket"):
            return updated
        if not (isinstance(f.value, cst.Attribute) and f.value.attr.value == "interface"):
            return updated
        if isinstance(small, cst.Assign) and (len(small.targets) != 1 or not isinstance(small.targets[0].target, cst.Name)):
            return updated
        if any(a.star for a in call.args):
            return updated
        positional = [a.value for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        extras = {k: v for k, v in keywords.items() if k not in _SOCKET_PARAMS}
        if len(positional) <= 1 and not extras:
            return updated  # already name + keywords
        strings = {i: string_value(v) for i, v in enumerate(positional)}
        found = {
            "name": keywords.get("name", positional[0] if positional else None),
            "socket_type": keywords.get("socket_type")
            or next((positional[i] for i, v in strings.items() if i and (v or "").startswith("NodeSocket")), None),
            "in_out": keywords.get("in_out") or next((positional[i] for i, v in strings.items() if i and v in ("INPUT", "OUTPUT")), None),
            "parent": keywords.get("parent"),
        }
        described = keywords.get("description")
        if isinstance(described, (cst.SimpleString, cst.ConcatenatedString)) and not (string_value(described) or "").startswith(
            "NodeSocket"
        ):
            found["description"] = described
        elif (string_value(described) or "").startswith("NodeSocket") and found["socket_type"] is None:
            found["socket_type"] = described
        elif described is not None:
            extras = {"default_value": described, **extras}  # a number given as the description: the default it meant
        if found["name"] is None or found["socket_type"] is None:
            return updated
        found["in_out"] = found["in_out"] or cst.SimpleString("'INPUT'")
        args = ", ".join(f"{k}={code(v)}" for k in _SOCKET_PARAMS if (v := found.get(k)) is not None)
        receiver = code(f.value)
        var = (
            small.targets[0].target.value if isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Name) else "_socket"
        )
        settings = [f"{var}.{k} = {code(v)}\n" for k, v in extras.items()]
        fix = f"{receiver}.new_socket({args})"
        if not self.report(original, "new_socket() takes the name, then keywords only (socket settings go on the socket)", fix):
            return updated
        assign = f"{var} = {fix}\n" if isinstance(small, cst.Assign) or settings else f"{fix}\n"
        return in_place_of(updated, assign, *settings)


RULES = (
    DriftRule(
        "principled-input-index",
        "Principled BSDF inputs by index (inputs[7]) in the pre-4.0 order → by their name (then renamed for 4.0)",
        "4.0",
        "4.0",
        _PrincipledIndex,
        (
            r"sequence expected at dimension 1, not 'float'",
            r"expected a float type, not tuple",
            r"bpy_prop_collection\[index\]: index \d+ out of range",
        ),
        needles=("inputs[",),
        example=(
            'bsdf = mat.node_tree.nodes["Principled BSDF"]\nbsdf.inputs[5].default_value = 0.3',
            "bsdf.inputs['Specular'].default_value = 0.3",
        ),
    ),
    DriftRule(
        "principled-sockets",
        "Principled BSDF inputs renamed/removed in 4.0 (Specular → Specular IOR Level …)",
        "4.0",
        "4.0",
        _Principled,
        (
            rf'key "({_OLD})" not found',
            r"'NoneType' object has no attribute 'default_value'",
            r"sequence expected at dimension 1, not 'float'",
        ),
        needles=(*RENAMED_INPUTS, *REMOVED_INPUTS, *NOW_COLOURS),
        example=('bsdf.inputs["Specular"].default_value = 0.3', "bsdf.inputs['Specular IOR Level'].default_value = 0.3"),
        leaves_out="the value of a Principled BSDF input 4.0 removed (Subsurface Color, Transmission Roughness)",
    ),
    DriftRule(
        "node-group-interface",
        "node group inputs/outputs.new() → interface.new_socket() (4.0)",
        "4.0",
        "4.0",
        _TreeInterface,
        (r"NodeTree' object has no attribute '(inputs|outputs)'",),
        needles=("inputs.new", "outputs.new"),
        example=(
            "group.inputs.new('NodeSocketFloat', \"Height\")",
            "group.interface.new_socket(name=\"Height\", in_out='INPUT', socket_type='NodeSocketFloat')",
        ),
    ),
    DriftRule(
        "new-socket-args",
        "interface.new_socket(name, 'NodeSocketFloat', min_value=…) → keywords, settings set on the socket",
        "4.0",
        "4.0",
        _NewSocketArgs,
        (r"new_socket\(\): (?:required parameter \"\w+\" to be a keyword argument|was called with invalid keyword)",),
        needles=("new_socket(",),
        example=(
            "s = ng.interface.new_socket('Size', 'NodeSocketFloat', 'INPUT')",
            "s = ng.interface.new_socket(name='Size', in_out='INPUT', socket_type='NodeSocketFloat')",
        ),
    ),
    DriftRule(
        "node-type-removed",
        "removed node types (Musgrave → Noise, Velvet → Sheen …)",
        "3.0",
        "3.0",
        _RemovedNodes,
        (r"Node type \w+ undefined",),
        needles=tuple(REMOVED_NODES),
        example=('tex = nt.nodes.new("ShaderNodeTexMusgrave")', "tex = nt.nodes.new('ShaderNodeTexNoise')"),
    ),
)
