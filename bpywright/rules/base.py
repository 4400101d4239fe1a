"""DriftRule: one API change between Blender versions, with its detector/autofix (a libcst transformer) and the errors it explains."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import ClassVar

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider
from libcst.metadata.base_provider import ProviderT

from ..versions import version_key


@dataclass(frozen=True)
class RuleHit:
    """One place where a rule found the old form (and, when fixing, replaced it)."""

    rule: str
    line: int
    col: int
    message: str
    fix: str
    certain: bool = True
    blocking: bool = True


@dataclass(frozen=True)
class FixScope:
    """What a fixer may touch: sure sites anywhere, and guesses on the lines a failure points at."""

    target: str = "4.5"
    lines: frozenset[int] = frozenset()
    error: str = ""
    module_names: tuple[str, ...] = ()  # what the project's module named by the error defines (for a renamed helper)


class RuleTransformer(cst.CSTTransformer):
    """Base of every rule's transformer: finds the old form, records a RuleHit, rewrites it when allowed."""

    METADATA_DEPENDENCIES: ClassVar[Collection[ProviderT]] = (PositionProvider,)  # a rule may ask for more

    def __init__(self, rule: DriftRule, scope: FixScope):
        super().__init__()
        self.rule = rule
        self.scope = scope
        self.hits: list[RuleHit] = []

    def span(self, node: cst.CSTNode) -> CodeRange:
        """Where a node of the original module sits (1-based lines)."""
        return self.get_metadata(PositionProvider, node)

    def on_failing_line(self, node: cst.CSTNode) -> bool:
        """True when the node overlaps the lines the runtime failure points at."""
        r = self.span(node)
        return any(line in self.scope.lines for line in range(r.start.line, r.end.line + 1))

    def report(self, node: cst.CSTNode, message: str, fix: str, *, certain: bool = True, blocking: bool = True) -> bool:
        """Record a hit; True when the change should be made (sure, or a guess on the failing line)."""
        if not (certain or self.on_failing_line(node)):
            return False
        r = self.span(node)
        self.hits.append(RuleHit(self.rule.id, r.start.line, r.start.column + 1, message, fix, certain, blocking))
        return True


FAMILIES_PACKAGE = "bpywright.rules.families"


def family_of(module: str) -> str:
    """The family a rule module belongs to: `bpywright.rules.families.values.intdiv` → "values"."""
    prefix = FAMILIES_PACKAGE + "."
    if not module.startswith(prefix):
        raise ValueError(f"{module} is not under {FAMILIES_PACKAGE}: a drift rule lives in its family's module")
    return module[len(prefix) :].split(".")[0]


@dataclass(frozen=True)
class DriftRule:
    """An API change: where the old form fails, what replaces it, how to find and fix it, which errors it explains.

    Its family is not stated here: it is where the rule lives (`rules/families/<family>.py` or `<family>/…`).
    """

    id: str
    title: str
    fails_from: str
    new_since: str
    transformer: type[RuleTransformer]
    explains: tuple[str, ...] = ()
    fails_until: str | None = None
    needles: tuple[str, ...] | Callable[[str], bool] = ()
    runtime_only: bool = False
    example: tuple[str, str] = ("", "")  # (old form, what the rule makes of it), shown by `bpywright rules list`
    # What the fixed script no longer does that the old one meant to ("": nothing, the same effect in the new API). No
    # rule leaves out a render, a file write, an export or a save: only what the target Blender no longer has.
    leaves_out: str = ""
    _patterns: tuple[re.Pattern[str], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_patterns", tuple(re.compile(p) for p in self.explains))

    @property
    def family(self) -> str:
        """The family the rule belongs to: the package or module under `rules/families/` its transformer lives in."""
        return family_of(self.transformer.__module__)

    def applies(self, target: str) -> bool:
        """True when the old form fails in the target version."""
        key = version_key(target)
        return version_key(self.fails_from) <= key and (self.fails_until is None or key < version_key(self.fails_until))

    def explains_error(self, text: str) -> bool:
        """True when a runtime error text ('Type: message') is one this rule's old form produces."""
        return any(p.search(text) for p in self._patterns)

    def may_fire(self, source: str, scope: FixScope) -> bool:
        """Cheap pre-check: with runtime evidence always; otherwise only when the source can hold the old form."""
        if scope.error or scope.lines:
            return True
        if self.runtime_only:
            return False
        if callable(self.needles):
            return self.needles(source)
        return not self.needles or any(n in source for n in self.needles)

    def run(self, module: cst.Module, scope: FixScope, wrapper: MetadataWrapper | None = None) -> tuple[cst.Module, list[RuleHit]]:
        """Apply the rule's transformer: the rewritten module and the hits (pass a wrapper to share metadata)."""
        transformer = self.transformer(self, scope)
        new = (wrapper or MetadataWrapper(module, unsafe_skip_copy=True)).visit(transformer)
        return new, transformer.hits


class _Statements(cst.CSTVisitor):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, line: int):
        super().__init__()
        self.line = line
        self.best: tuple[int, int] | None = None

    def _consider(self, start: int, end: int) -> None:
        if start <= self.line <= end and (self.best is None or end - start <= self.best[1] - self.best[0]):
            self.best = (start, end)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        r = self.get_metadata(PositionProvider, node)
        self._consider(r.start.line, r.end.line)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseCompoundStatement) and isinstance(node.body, cst.IndentedBlock):
            start = self.get_metadata(PositionProvider, node).start.line
            body = self.get_metadata(PositionProvider, node.body.body[0]).start.line if node.body.body else start + 1
            self._consider(start, max(start, body - 1))
        return super().on_visit(node)


def statement_lines(module: cst.Module, line: int | None) -> frozenset[int]:
    """The lines of the (innermost) statement that `line` belongs to: a failure's whole statement."""
    if line is None:
        return frozenset()
    finder = _Statements(line)
    MetadataWrapper(module).visit(finder)
    start, end = finder.best or (line, line)
    return frozenset(range(start, end + 1))
