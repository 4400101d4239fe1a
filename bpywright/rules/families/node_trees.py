"""Shader node drift: Principled BSDF inputs renamed or removed in 4.0; node types removed (Musgrave 4.1, Velvet 4.0)."""

from __future__ import annotations

import re

import libcst as cst

from ...versions import version_key
from ..base import DriftRule, RuleTransformer
from ..fragments import code, dotted, expr, in_place_of, number_value, string_value
from ..sockets import PRINCIPLED_RENAMED_4_0, socket_table

PRINCIPLED = "ShaderNodeBsdfPrincipled"
RENAMED_INPUTS = PRINCIPLED_RENAMED_4_0
REMOVED_INPUTS = {"Subsurface Color", "Transmission Roughness"}
NOW_COLOURS = {"Specular Tint", "Sheen Tint"}  # floats before 4.0, colours after
# Removed node type → (version it was removed in, replacement).
REMOVED_NODES = {
    "ShaderNodeTexMusgrave": ("4.1", "ShaderNodeTexNoise"),
    "ShaderNodeBsdfVelvet": ("4.0", "ShaderNodeBsdfSheen"),
    "FunctionNodeCompareFloats": ("3.3", "FunctionNodeCompare"),
    "GeometryNodeAttributeRandomize": ("3.0", "FunctionNodeRandomValue"),
}


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
        for name, certain in self._removed_inputs(small):
            why = "was removed in 4.0" if name in REMOVED_INPUTS else "is a colour since 4.0 (its default is kept)"
            if certain is not None and self.report(
                original, f'Principled BSDF input "{name}" {why}', "remove the statement", certain=certain
            ):
                return cst.RemovalSentinel.REMOVE
        return updated

    def _removed_inputs(self, small: cst.BaseSmallStatement | None) -> list[tuple[str, bool | None]]:
        out: list[tuple[str, bool | None]] = []
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Attribute):
            found = _socket_key(small.targets[0].target.value)
            if found and (found[1] in REMOVED_INPUTS or (found[1] in NOW_COLOURS and number_value(small.value) is not None)):
                out.append((found[1], self._certainty(found[0], found[1])))
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and (dotted(small.value.func) or "").endswith("links.new"):
            for arg in small.value.args:
                found = _socket_key(arg.value)
                if found and found[1] in REMOVED_INPUTS:
                    out.append((found[1], self._certainty(found[0], found[1])))
        return out


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
