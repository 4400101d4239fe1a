"""A name used and never defined, in one place: the errors that name it, and one scope analysis (libcst's) of which uses
no binding reaches. The missing-import and misspelt-name rules, the graph's "define the missing names" question and
its helper borrowing all read names through here."""

from __future__ import annotations

import re
import symtable
from collections.abc import Iterable, Iterator

import libcst as cst
from libcst.metadata import Assignment, MetadataWrapper, PositionProvider, Scope, ScopeProvider

# The runtime's NameError ("name 'x' is not defined"); the rules that explain it list NOT_DEFINED.pattern.
NOT_DEFINED = re.compile(r"name '(\w+)' is not defined")
# A linter's finding of the same (ruff "Undefined name `x`", pyright '"x" is not defined').
LINT_UNDEFINED = re.compile(r"""[Uu]ndefined name [`'"](\w+)[`'"]|"(\w+)" is not defined|[Nn]ame "(\w+)" is not defined""")
# Read by the interpreter, bound by no statement: never "missing".
IMPLICIT = frozenset({"__file__", "__name__", "__doc__", "__builtins__"})


def not_defined(error: str) -> str | None:
    """The name a NameError text names, or None when the text is not one."""
    found = NOT_DEFINED.search(error)
    return found.group(1) if found else None


def unbound_uses(scope_of: Iterable[object]) -> Iterator[tuple[Scope, cst.Name]]:
    """Each read of a plain name that no assignment, import, definition or builtin reaches, with the scope it is in.

    `scope_of` is ScopeProvider's answer for the module's nodes (a transformer's `self.metadata[ScopeProvider].values()`).
    """
    for scope in {s for s in scope_of if isinstance(s, Scope)}:
        for access in scope.accesses:
            if not access.referents and isinstance(access.node, cst.Name):
                yield scope, access.node


def bound_in(scope: Scope) -> set[str]:
    """Names bound in this scope and the scopes around it (what a use here could refer to)."""
    names: set[str] = set()
    current: Scope | None = scope
    while current is not None:
        names.update(a.name for a in current.assignments)
        parent = current.parent
        current = None if parent is current else parent
    return names


def _wrapper(script: str) -> MetadataWrapper | None:
    try:
        return MetadataWrapper(cst.parse_module(script), unsafe_skip_copy=True)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None


def undefined_names(script: str) -> list[str]:
    """Names the script reads and binds nowhere (not a builtin), in order of first use; [] when it does not parse."""
    wrapper = _wrapper(script)
    if wrapper is None or not _compiles(script):
        return []
    positions = wrapper.resolve(PositionProvider)
    captured = _captured(wrapper.module) if "match" in script else set()
    firsts: dict[str, int] = {}
    for _, name in unbound_uses(wrapper.resolve(ScopeProvider).values()):
        if name.value in captured or name.value in IMPLICIT:
            continue
        line = positions[name].start.line
        firsts[name.value] = min(line, firsts.get(name.value, line))
    return sorted(firsts, key=lambda name: (firsts[name], name))


class _Captures(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        self.names.update([node.name.value] if node.name else [])

    def visit_MatchStar(self, node: cst.MatchStar) -> None:
        self.names.update([node.name.value] if node.name else [])

    def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
        self.names.update([node.rest.value] if node.rest else [])


def _captured(module: cst.Module) -> set[str]:
    """Names a `match` pattern binds (`case [x, *rest]`): libcst's scopes do not see them as bound."""
    visitor = _Captures()
    module.visit(visitor)
    return visitor.names


def bound_anywhere(script: str) -> set[str] | None:
    """Every name some statement of the script binds, in any scope (a module's top name for `import a.b`; parameters
    are not statements); None when it does not parse."""
    wrapper = _wrapper(script)
    if wrapper is None or not _compiles(script):
        return None
    return {
        a.name.split(".")[0]
        for scope in {s for s in wrapper.resolve(ScopeProvider).values() if isinstance(s, Scope)}
        for a in scope.assignments
        if isinstance(a, Assignment) and not isinstance(a.node, cst.Param)
    }


def _compiles(script: str) -> bool:
    """True when Python's own parser and scope pass accept the script (libcst parses some that they reject)."""
    try:
        symtable.symtable(script, "script.py", "exec")
    except (SyntaxError, ValueError):
        return False
    return True
