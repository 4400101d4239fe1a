"""A modifier or constraint of a type Blender has never had: `obj.modifiers.new("Connect", type='CONNECT')` (a small model's
syringe, "connect plunger to needle") raises TypeError "ObjectModifiers.new(): … enum "CONNECT" not found in (…)", and
the LLM's heal rounds gave back the same script three times.

A type spelt close to a real one is the enum rule's business (`SUBSURFACE` → `SUBSURF`). With no such spelling there is
nothing to rename it to, and a modifier or constraint only changes the object it is added to: the object stays as it was
built. So, only at the statement a run failed on with that error, the `.new(...)` is left out together with the simple
statements after it that set up what it would have made: those that use the name it was bound to (until that name is
bound again) or that look it up by its name (`modifiers["Connect"]`). When the name is used anywhere else (an `if`, a
loop, another function), nothing is guessed."""

from __future__ import annotations

import re

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import lone_value, string_value
from .literals import enum_successor

_NEW_TYPE = re.compile(r'Object(Modifiers|Constraints)\.new\(\): error with (?:keyword )?argument.*?enum "(\w+)" not found in \(([^)]*)\)')


def _new_call(line: cst.SimpleStatementLine, holder: str) -> tuple[cst.Call, str | None] | None:
    """(the `X.<holder>.new(...)` call, the name it is bound to) for `X.holder.new(…)` alone or `NAME = X.holder.new(…)`."""
    found = lone_value(line)
    value = found[0] if found else None
    if not (isinstance(value, cst.Call) and isinstance(func := value.func, cst.Attribute) and func.attr.value == "new"):
        return None
    if not (isinstance(func.value, cst.Attribute) and func.value.attr.value == holder):
        return None
    return value, found[1] if found else None


def _given_name(call: cst.Call) -> str | None:
    """The name string given to `.new(name, type)`."""
    arg = next((a for a in call.args if a.keyword is not None and a.keyword.value == "name"), None)
    if arg is None and call.args and call.args[0].keyword is None:
        arg = call.args[0]
    return string_value(arg.value) if arg is not None else None


class _Uses(cst.CSTVisitor):
    """Where one name is read or bound, and whether `HOLDER["NAME"]` is looked up."""

    def __init__(self, var: str | None, holder: str, given: str | None) -> None:
        super().__init__()
        self.var, self.holder, self.given = var, holder, given
        self.reads = 0
        self.binds = False
        self.looked_up = False

    def visit_Name(self, node: cst.Name) -> None:
        if self.var is not None and node.value == self.var:
            self.reads += 1

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if isinstance(node.target, cst.Name) and node.target.value == self.var:
            self.binds = True

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if isinstance(node.value, cst.Attribute) and node.value.attr.value == self.holder and len(node.slice) == 1:
            index = node.slice[0].slice
            if self.given is not None and isinstance(index, cst.Index) and string_value(index.value) == self.given:
                self.looked_up = True


class _Names(cst.CSTVisitor):
    def __init__(self, var: str) -> None:
        super().__init__()
        self.var = var
        self.found: list[cst.Name] = []

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.var:
            self.found.append(node)


class _Lines(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[cst.SimpleStatementLine] = []

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self.lines.append(node)


class _MadeUpType(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.drop: set[int] = set()  # id() of the original statements left out
        found = _NEW_TYPE.search(self.scope.error)
        if found is None or enum_successor(found.group(2), re.findall(r"'(\w+)'", found.group(3))) is not None:
            return
        holder = found.group(1).lower()  # modifiers | constraints
        finder = _Lines()
        node.visit(finder)
        lines = finder.lines
        hit = next(((i, made) for i, line in enumerate(lines) if self.on_failing_line(line) and (made := _new_call(line, holder))), None)
        if hit is None:
            return
        at, (call, var) = hit
        given = _given_name(call)
        dropped, until = [lines[at]], None
        for line in lines[at + 1 :]:
            uses = _Uses(var, holder, given)
            line.visit(uses)
            if uses.binds:
                until = self.span(line).start.line  # the name holds something else from here on
                break
            if uses.reads or uses.looked_up:
                dropped.append(line)
        if var is not None:
            names = _Names(var)
            node.visit(names)
            start = self.span(lines[at]).start.line
            spans = [self.span(line) for line in dropped]
            for name in names.found:
                where = self.span(name).start.line
                if start <= where < (until or 10**9) and not any(r.start.line <= where <= r.end.line for r in spans):
                    return  # read where a statement cannot simply be left out (a condition, a loop's header, …)
        kind = holder[:-1]
        message = f"Blender has no {kind} of type '{found.group(2)}'"
        if self.report(lines[at], message, f"the {kind} left out ({len(dropped)} statement(s))", certain=False):
            self.drop = {id(line) for line in dropped}

    def leave_SimpleStatementLine(
        self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.RemovalSentinel:
        return cst.RemovalSentinel.REMOVE if id(original) in self.drop else updated


RULES = (
    DriftRule(
        "made-up-modifier",
        "a modifier or constraint of a type Blender never had (modifiers.new(type='CONNECT')) → left out, with its setup",
        "2.80",
        "2.80",
        _MadeUpType,
        (r'Object(?:Modifiers|Constraints)\.new\(\): error with (?:keyword )?argument.*enum "\w+" not found in',),
        runtime_only=True,
        example=("link = obj.modifiers.new('Connect', type='CONNECT')", "(dropped, with the lines that set it up)"),
        leaves_out="a modifier or constraint of a type Blender never had, with the lines that set it up",
    ),
)
