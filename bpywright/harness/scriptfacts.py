"""What a script's own code says about its findings: guards around old/new APIs, dead paths, its own classes and registrations."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import pyast

# Exceptions a guard around an API that may be missing catches (the first three are what bpy raises for it).
GUARD_EXCEPTIONS = {"AttributeError", "KeyError", "TypeError", "Exception", "BaseException"}
NAME_GUARD_EXCEPTIONS = {"NameError", "Exception", "BaseException"}  # what catches a name no statement binds
COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


@dataclass(frozen=True)
class Span:
    """Lines start..end (inclusive) and why they are special."""

    start: int
    end: int
    why: str
    names: frozenset[str] = frozenset()  # a guard that probes names covers only findings about them

    def holds(self, line: int) -> bool:
        """True when line lies in the span."""
        return self.start <= line <= self.end

    def covers(self, line: int, message: str) -> bool:
        """True when the span holds line and, for a name probe, the message is about a probed name."""
        return self.holds(line) and (not self.names or any(f"{q}{n}{q}" in message for n in self.names for q in "\"'`"))


@dataclass
class ScriptFacts:
    """Facts about one script that decide whether a finding proves a runtime failure."""

    guards: list[Span] = field(default_factory=list)
    unreachable: list[Span] = field(default_factory=list)
    name_guards: list[Span] = field(default_factory=list)  # where an undefined name is caught or looked up first
    classes: set[str] = field(default_factory=set)
    registered: set[str] = field(default_factory=set)
    operators: set[str] = field(default_factory=set)
    helper_results: dict[str, str] = field(default_factory=dict)  # name -> the script's own function whose result it holds
    class_aliases: dict[str, str] = field(default_factory=dict)  # `N = Nodes` at module level: N -> the script's class Nodes
    lines: list[str] = field(default_factory=list, repr=False)
    tree: ast.Module | None = field(default=None, repr=False)

    def guard_at(self, line: int, message: str = "") -> Span | None:
        """The innermost guard around line that covers a finding with this message, if any."""
        return min((s for s in self.guards if s.covers(line, message)), key=lambda s: s.end - s.start, default=None)

    def name_guard_at(self, line: int, message: str = "") -> Span | None:
        """The innermost place around line where a name the script may not bind is caught (try/except NameError) or
        looked up before use (`if "SEED" in globals():`)."""
        return min((s for s in self.name_guards if s.covers(line, message)), key=lambda s: s.end - s.start, default=None)

    def unreachable_at(self, line: int) -> Span | None:
        """Why line looks unreachable, if it does."""
        return min((s for s in self.unreachable if s.holds(line)), key=lambda s: s.end - s.start, default=None)


def _span(nodes: list[ast.stmt], why: str) -> Span | None:
    if not nodes:
        return None
    return Span(nodes[0].lineno, max(n.end_lineno or n.lineno for n in nodes), why)


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _is_version(node: ast.AST, aliases: set[str]) -> bool:
    """bpy.app.version (or a name bound to it), possibly indexed or sliced."""
    if isinstance(node, ast.Subscript):
        node = node.value
    return _dotted(node).endswith("app.version") or (isinstance(node, ast.Name) and node.id in aliases)


def _version_value(node: ast.AST, target: tuple[int, ...], aliases: set[str]) -> object:
    """The value of a version expression for the target version, or raise ValueError."""
    if _is_version(node, aliases):
        if isinstance(node, ast.Subscript):
            index = node.slice
            if isinstance(index, ast.Slice):
                bounds = [None if b is None else ast.literal_eval(b) for b in (index.lower, index.upper, index.step)]
                return target[slice(*bounds)]
            return target[ast.literal_eval(index)]
        return target
    return ast.literal_eval(node)


def _evaluate_version_test(test: ast.expr, target: tuple[int, ...], aliases: set[str]) -> bool | None:
    """True/False when test compares bpy.app.version with constants and can be decided for target; else None."""
    try:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = _evaluate_version_test(test.operand, target, aliases)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            values = [_evaluate_version_test(v, target, aliases) for v in test.values]
            if any(v is None for v in values):
                return None
            return all(values) if isinstance(test.op, ast.And) else any(values)
        if isinstance(test, ast.Compare):
            left = _version_value(test.left, target, aliases)
            for op, right_node in zip(test.ops, test.comparators, strict=True):
                right = _version_value(right_node, target, aliases)
                if not COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
    except (ValueError, TypeError, SyntaxError, IndexError, KeyError):
        return None
    return None


def _mentions_version(test: ast.expr, aliases: set[str]) -> bool:
    return any(_is_version(n, aliases) for n in ast.walk(test))


def _probed_names(test: ast.expr) -> set[str]:
    """Names a membership test looks up first: `"Specular" in bsdf.inputs`, `bsdf.inputs.get("Specular")`."""
    names = set()
    for n in ast.walk(test):
        if isinstance(n, ast.Compare) and isinstance(n.left, ast.Constant) and isinstance(n.left.value, str):
            if any(isinstance(op, ast.In | ast.NotIn) for op in n.ops):
                names.add(n.left.value)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" and n.args:
            if isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
                names.add(n.args[0].value)
    return names


def _probes_namespace(test: ast.expr) -> bool:
    """`"x" in globals()` (locals(), vars(), dir()): a test for a name the script may not bind."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("globals", "locals", "vars", "dir") and not n.args
        for n in ast.walk(test)
    )


def _tests_main(test: ast.expr) -> bool | None:
    """True for `__name__ == "__main__"`, False for `!=`, None for any other test."""
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    ):
        return isinstance(test.ops[0], ast.Eq) if isinstance(test.ops[0], ast.Eq | ast.NotEq) else None
    return None


def _probes_api(test: ast.expr) -> bool:
    """hasattr/getattr tests, `'x' in dir(o)` and `'x' in o.bl_rna.properties`: the script checks for an API."""
    for n in ast.walk(test):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("hasattr", "getattr"):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "dir":
            return True
        if isinstance(n, ast.Attribute) and n.attr in ("bl_rna", "properties", "version_string"):
            return True
    return False


def _handler_names(handler: ast.ExceptHandler) -> set[str]:
    if handler.type is None:
        return {"BaseException"}
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {_dotted(t).rsplit(".", 1)[-1] for t in types}


class _Collector(ast.NodeVisitor):
    def __init__(self, target: tuple[int, ...]):
        self.facts = ScriptFacts()
        self.target = target
        self.version_aliases: set[str] = set()
        self.defs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}  # module-level, undecorated
        self.loads: dict[str | None, set[str]] = {None: set()}  # names each module-level function mentions (None: module code)
        self.owner: str | None = None
        self.in_class = 0
        self.plain_class: list[bool] = []  # per enclosing class: only the script calls its methods (no bpy base, no metaclass)
        self.methods: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}  # methods of plain classes, by name
        self.plain_names: set[str] = set()

    def add(self, spans: list[Span] | None, nodes: list[ast.stmt], why: str) -> None:
        if spans is not None and (span := _span(nodes, why)):
            spans.append(span)

    def visit_Assign(self, node: ast.Assign) -> None:
        for t in node.targets:
            # bpy.types.Scene.my_props = PointerProperty(...): the script registers an RNA property
            if (
                isinstance(t, ast.Attribute)
                and ".types." in f".{_dotted(t.value)}."
                or (isinstance(t, ast.Attribute) and _dotted(t.value).startswith("types."))
            ):
                self.facts.registered.add(t.attr)
            if (
                isinstance(t, ast.Name)
                and t.id == "bl_idname"
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                self.facts.operators.add(node.value.value.rsplit(".", 1)[-1])
            if isinstance(t, ast.Name) and _is_version(node.value, self.version_aliases):
                self.version_aliases.add(t.id)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for t in node.targets:
            if isinstance(t, ast.Attribute) and ".types." in f".{_dotted(t.value)}.":
                self.facts.registered.add(t.attr)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _dotted(node.func)
        if (
            name in ("setattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            self.facts.registered.add(node.args[1].value)
        self.generic_visit(node)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        # ("my_prop", bpy.props.IntProperty(...)) in a table the script registers with setattr in a loop
        calls = [e for e in node.elts if isinstance(e, ast.Call) and _dotted(e.func).endswith("Property")]
        if calls:
            self.facts.registered.update(e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.facts.classes.add(node.name)
        for item in node.body:  # annotations of PropertyGroups/Operators become RNA properties
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                self.facts.registered.add(item.target.id)
        plain = not node.keywords and all(isinstance(b, ast.Name) and (b.id == "object" or b.id in self.plain_names) for b in node.bases)
        plain = plain and self.owner is None and not self.in_class
        if plain:
            self.plain_names.add(node.name)
        self.plain_class.append(plain)
        self.in_class += 1
        self.generic_visit(node)
        self.in_class -= 1
        self.plain_class.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        top = self.owner is None and not self.in_class
        if top and not node.decorator_list:
            self.defs[node.name] = node
        dunder = node.name.startswith("__") and node.name.endswith("__")
        # a plain class's method runs only where the script names it (obj.method(...)): a factory's unused finalize step
        method = self.in_class == 1 and self.plain_class and self.plain_class[-1] and not node.decorator_list and not dunder
        if method:
            self.methods.setdefault(node.name, []).append(node)
        saved, saved_owner, self.in_class = self.in_class, self.owner, 0
        if method:
            self.owner = "." + node.name
            self.loads.setdefault(self.owner, set())
            self.dead_after_jump(node)
            for stmt in node.body:
                self.visit(stmt)
        elif top:
            for expr in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:  # run at def time
                if expr is not None:
                    self.visit(expr)
            self.owner = node.name
            self.loads.setdefault(node.name, set())
            self.dead_after_jump(node)
            for stmt in node.body:
                self.visit(stmt)
        else:
            self.generic_visit(node)
        self.in_class, self.owner = saved, saved_owner

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self.loads[self.owner].add(node.id)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.loads[self.owner].add(node.attr)
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        main = _tests_main(test)
        if main is not None:  # `blender --python` runs the script as __main__
            self.add(self.facts.unreachable, node.orelse if main else node.body, "a branch for when the script is imported, not run")
        if isinstance(test, ast.Constant) and not test.value:
            self.add(self.facts.unreachable, node.body, f"inside `if {ast.unparse(test)}:`")
        elif _mentions_version(test, self.version_aliases):
            verdict = _evaluate_version_test(test, self.target, self.version_aliases)
            version = ".".join(map(str, self.target[:2]))
            if verdict is None:
                self.add(self.facts.guards, [node], "inside a bpy.app.version check")
            else:
                dead = node.orelse if verdict else node.body
                why = f"in a bpy.app.version branch that does not run on Blender {version}"
                self.add(self.facts.guards, dead, why)
                self.add(self.facts.unreachable, dead, why)
        elif _probes_api(test):  # both branches: one per API
            self.add(self.facts.guards, [node], "inside a check for the API (hasattr/getattr)")
        elif names := _probed_names(test):  # the body only, and only findings about the probed names
            if span := _span(node.body, f"inside a check that {', '.join(sorted(names))} exists"):
                self.facts.guards.append(Span(span.start, span.end, span.why, frozenset(names)))
                if _probes_namespace(test):  # `if "SEED" in globals():`: a name its harness may set
                    self.facts.name_guards.append(Span(span.start, span.end, span.why, frozenset(names)))
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        if _mentions_version(node.test, self.version_aliases):  # `"FAST" if bpy.app.version < (5, 0) else "FLOAT"`
            self.facts.guards.append(Span(node.lineno, node.end_lineno or node.lineno, "a bpy.app.version test picks the value"))
        self.generic_visit(node)

    def visit_While(self, node: ast.While) -> None:
        if isinstance(node.test, ast.Constant) and not node.test.value:
            self.add(self.facts.unreachable, node.body, f"inside `while {ast.unparse(node.test)}:`")
        self.generic_visit(node)

    def visit_Try(self, node: ast.Try | ast.TryStar) -> None:
        caught = set().union(*(_handler_names(h) for h in node.handlers)) if node.handlers else set()
        hit = sorted(caught & GUARD_EXCEPTIONS)
        if hit:
            self.add(self.facts.guards, node.body, f"inside try/except {'|'.join(hit)}")
        if caught & NAME_GUARD_EXCEPTIONS:
            self.add(self.facts.name_guards, node.body, f"inside try/except {'|'.join(sorted(caught & NAME_GUARD_EXCEPTIONS))}")
        self.generic_visit(node)

    visit_TryStar = visit_Try

    def dead_after_jump(self, node: ast.AST) -> None:
        """Statements after a return/raise/continue/break in the same block never run."""
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                for i, stmt in enumerate(block[:-1]):
                    if isinstance(stmt, ast.Return | ast.Raise | ast.Continue | ast.Break):
                        kind = type(stmt).__name__.lower()
                        self.add(self.facts.unreachable, block[i + 1 :], f"after the `{kind}` on line {stmt.lineno}")
                        break

    def generic_visit(self, node: ast.AST) -> None:
        self.dead_after_jump(node)
        super().generic_visit(node)


def rebound_before_use(tree: ast.Module, name: str, line: int) -> bool:
    """True when, after `line`, the next mention of `name` re-binds it (so the value bound on `line` is never used)."""
    events: list[tuple[int, int, bool]] = []  # (line, col, is_store); an assignment's targets count after its value
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and n.id == name and node.lineno > line:
                        store = not isinstance(node, ast.AugAssign)
                        events.append((node.end_lineno or node.lineno, 10**6, store))
        elif isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load) and node.lineno > line:
            events.append((node.lineno, node.col_offset, False))
    return bool(events) and min(events)[2]


def helper_results(tree: ast.Module) -> dict[str, str]:
    """Names bound to what one of the script's own functions or methods returns (`ramp = add_node(...)`, `a, b = build()`)."""
    defs = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call)):
            continue
        func = node.value.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name not in defs:
            continue
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            found.update({n.id: name for n in ast.walk(target) if isinstance(n, ast.Name)})
    return found


def class_aliases(tree: ast.Module, classes: set[str]) -> dict[str, str]:
    """Module-level names bound once to one of the script's own classes (`N = Nodes`): the checkers report an attribute
    the script sets on the class later (`setattr(Nodes, …)`, `Nodes.X = …`) as missing on the alias's class."""
    bound: dict[str, list[ast.expr]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    bound.setdefault(target.id, []).append(stmt.value)
    return {
        name: values[0].id
        for name, values in bound.items()
        if len(values) == 1 and isinstance(values[0], ast.Name) and values[0].id in classes and name not in classes
    }


def script_facts(source: str, target: str = "4.5") -> ScriptFacts:
    """The facts of a script (empty when it does not parse)."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return ScriptFacts()
    parts = [int(p) for p in target.split(".")[:3] if p.isdigit()]
    version = tuple(parts + [0] * (3 - len(parts)))
    collector = _Collector(version)
    try:
        collector.visit(tree)
    except RecursionError:
        return ScriptFacts()
    facts = collector.facts
    facts.tree = tree
    facts.lines = source.splitlines()
    facts.helper_results = helper_results(tree)
    facts.class_aliases = class_aliases(tree, facts.classes)
    live: set[str] = set()
    todo = list(collector.loads[None])
    while todo:  # functions and methods reachable from module code, through the functions and methods they name
        name = todo.pop()
        if name in collector.defs and name not in live:
            live.add(name)
            todo.extend(collector.loads.get(name, ()))
        if name in collector.methods and "." + name not in live:
            live.add("." + name)
            todo.extend(collector.loads.get("." + name, ()))
    for name, methods in collector.methods.items():
        if "." + name not in live:
            facts.unreachable += [
                Span(m.lineno, m.end_lineno or m.lineno, f"in the method `{name}()`, which nothing calls") for m in methods
            ]
    for name, fn in collector.defs.items():  # a module-level function nothing live names never runs
        if name not in live and name not in ("register", "unregister"):
            facts.unreachable.append(Span(fn.lineno, fn.end_lineno or fn.lineno, f"in `{name}()`, which nothing calls"))
    return facts
