"""Reading and building small libcst fragments for rules: dotted chains, literals, arguments, which names hold objects."""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

CONTEXTS = ("bpy.context", "context", "C")
_EMPTY = cst.Module(body=[])


def code(node: cst.CSTNode) -> str:
    """Source text of a node."""
    return _EMPTY.code_for_node(node)


def expr(text: str) -> cst.BaseExpression:
    """Parse one expression."""
    return cst.parse_expression(text)


def stmt(text: str) -> cst.BaseStatement:
    """Parse one statement."""
    return cst.parse_statement(text)


def in_place_of(replaced: cst.SimpleStatementLine, *items: str | cst.BaseStatement) -> cst.FlattenSentinel[cst.BaseStatement]:
    """Statements (source texts or nodes) in place of one: the first keeps its leading comments and blank lines."""
    statements = [stmt(item) if isinstance(item, str) else item for item in items]
    statements = [s.with_changes(leading_lines=replaced.leading_lines if i == 0 else ()) for i, s in enumerate(statements)]
    return cst.FlattenSentinel(statements)


def lone_value(line: cst.SimpleStatementLine) -> tuple[cst.BaseExpression, str | None] | None:
    """(value, the name it is bound to) of a line holding only `value` or `NAME = value`; None for anything else."""
    if len(line.body) != 1:
        return None
    small = line.body[0]
    if isinstance(small, cst.Expr):
        return small.value, None
    if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
        return small.value, small.targets[0].target.value
    return None


def dotted(node: cst.CSTNode | None) -> str | None:
    """'bpy.context.scene.objects' for attribute chains; subscripts read '[]' and calls '()'; None otherwise."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    if isinstance(node, cst.Subscript):
        base = dotted(node.value)
        return None if base is None else f"{base}[]"
    if isinstance(node, cst.Call):
        base = dotted(node.func)
        return None if base is None else f"{base}()"
    return None


def last_name(chain: str | None) -> str:
    """The last identifier of a dotted chain ('scenes' for 'bpy.data.scenes[]')."""
    if not chain:
        return ""
    return re.sub(r"(\[\]|\(\))+$", "", chain).rsplit(".", 1)[-1]


def string_value(node: cst.CSTNode | None) -> str | None:
    """The value of a plain string literal."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def number_value(node: cst.CSTNode | None) -> float | None:
    """The value of a numeric literal (with an optional sign)."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = number_value(node.expression)
        return None if inner is None else -inner
    if isinstance(node, cst.Integer | cst.Float):
        return float(node.evaluated_value)
    return None


def number(value: float) -> cst.BaseExpression:
    """A numeric literal, integral values without a fraction."""
    text = repr(int(value)) if float(value).is_integer() else repr(round(value, 6))
    return expr(text)


def scaled(node: cst.BaseExpression, factor: float) -> cst.BaseExpression:
    """`node * factor`, folded when node is a literal."""
    value = number_value(node)
    if value is not None:
        return number(value * factor)
    if factor == 0.5:
        return cst.BinaryOperation(_paren(node), cst.Divide(), cst.Integer("2"))
    return cst.BinaryOperation(number(factor), cst.Multiply(), _paren(node))


def _paren(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, cst.BinaryOperation | cst.BooleanOperation | cst.IfExp | cst.Lambda):
        return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return node


def kwarg(call: cst.Call, name: str) -> cst.Arg | None:
    """The keyword argument `name=` of a call."""
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def without_args(call: cst.Call, drop: set[str]) -> cst.Call:
    """The call without the named keyword arguments (commas tidied)."""
    args = [a for a in call.args if a.keyword is None or a.keyword.value not in drop]
    return call.with_changes(args=_tidy(args))


def _tidy(args: list[cst.Arg]) -> list[cst.Arg]:
    if args and args[-1].comma is not cst.MaybeSentinel.DEFAULT:
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return args


def keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    """`name=value` as a call argument (no spaces around '=')."""
    tight = cst.SimpleWhitespace("")
    return cst.Arg(value, keyword=cst.Name(name), equal=cst.AssignEqual(whitespace_before=tight, whitespace_after=tight))


def renamed_kwarg(arg: cst.Arg, name: str, value: cst.BaseExpression | None = None) -> cst.Arg:
    """The same keyword argument under a new name (and optionally a new value)."""
    changes: dict = {"keyword": cst.Name(name)}
    if arg.keyword is None:
        tight = cst.SimpleWhitespace("")
        changes["equal"] = cst.AssignEqual(whitespace_before=tight, whitespace_after=tight)
    if value is not None:
        changes["value"] = value
    return arg.with_changes(**changes)


def context_of(chain: str | None) -> str | None:
    """'bpy.context' for 'bpy.context.scene' (also 'context', 'C'); None when not a context chain."""
    for ctx in CONTEXTS:
        if chain is not None and chain.startswith(ctx + "."):
            return ctx
    return None


_SCENE_NAME = re.compile(r"^(scene|scn|sce|sc)$|^(scene|scn)_|_(scene|scn)$")


def is_scene(chain: str | None) -> bool:
    """True when a chain clearly denotes a Scene ('bpy.context.scene', 'scene', 'bpy.data.scenes[]', 'my_scene')."""
    if chain is None:
        return False
    if chain in {f"{c}.scene" for c in CONTEXTS} or chain.endswith("scenes[]") or chain.endswith(".scene"):
        return True
    return "." not in chain and "[" not in chain and bool(_SCENE_NAME.search(chain.lower()))


_OBJECT_NAME = re.compile(r"^(obj|ob|object|active_obj|active_object)$|^(obj|ob)_|_(obj|ob|object)$")
_NOT_OBJECT_NAME = re.compile(r"^(v|vert|vertex|e|edge|f|face|p|poly|polygon|bone|point|pt|loop|node|strip|seq|key|kp|bm\w*)$")
OBJECT_SOURCES = re.compile(
    r"(^|\.)(context\.object|context\.active_object|context\.edit_object|objects\.active)$|"
    r"\.objects(\[\]|\.new\(\)|\.get\(\))$|(selected_objects|selected_editable_objects|visible_objects)\[\]$"
)
OBJECT_COLLECTIONS = re.compile(r"(^|\.)(objects|all_objects|selected_objects|selected_editable_objects|visible_objects)$")


def object_names(module: cst.Module) -> set[str]:
    """Names the script binds to Objects: from bpy.data.objects, context.object, loops over object collections."""
    finder = _ObjectNames()
    module.visit(finder)
    return finder.names


def is_object(node: cst.CSTNode, names: set[str]) -> bool:
    """True when an expression surely is an Object (a known name or an object-producing chain)."""
    chain = dotted(node)
    if chain is None:
        return False
    if chain.isidentifier():
        return chain in names or bool(_OBJECT_NAME.search(chain.lower()))
    return bool(OBJECT_SOURCES.search(chain))


def is_not_object(node: cst.CSTNode) -> bool:
    """True when an expression clearly is something else that has `select`/`hide` (vertices, edges, bones, bmesh)."""
    chain = dotted(node) or ""
    return bool(_NOT_OBJECT_NAME.match(last_name(chain).lower())) or bool(
        re.search(r"(vertices|edges|polygons|faces|verts|bones|points|strips|nodes|loops)(\[\])?$", chain)
    )


class _ObjectNames(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        chain = dotted(node.value)
        if chain is not None and OBJECT_SOURCES.search(chain):
            self.names.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))

    def visit_For(self, node: cst.For) -> None:
        chain = dotted(node.iter)
        if isinstance(node.target, cst.Name) and chain is not None and OBJECT_COLLECTIONS.search(chain):
            self.names.add(node.target.value)


def imports_end(body: Sequence[cst.CSTNode]) -> int:
    """Index after the leading docstring, imports and `from __future__` lines of a module body."""
    at = 0
    for i, statement in enumerate(body):
        if isinstance(statement, cst.SimpleStatementLine) and all(isinstance(s, cst.Import | cst.ImportFrom) for s in statement.body):
            at = i + 1
        elif (
            i == 0
            and isinstance(statement, cst.SimpleStatementLine)
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
        ):
            at = 1
        else:
            break
    return at


def with_helper(updated: cst.Module, source: str) -> cst.Module:
    """The module with a helper function's definition put after its imports."""
    blank = [cst.EmptyLine(), cst.EmptyLine()]
    helper = [s.with_changes(leading_lines=blank) for s in cst.parse_module(source).body]
    body = list(updated.body)
    at = imports_end(body)
    spaced = (
        [*blank[: 2 - sum(1 for line in body[at].leading_lines[:2] if line.comment is None)], *body[at].leading_lines]
        if at < len(body)
        else []
    )
    rest = [body[at].with_changes(leading_lines=spaced), *body[at + 1 :]] if at < len(body) else []
    return updated.with_changes(body=[*body[:at], *helper, *rest])
