"""The drift rule pack: every rule by family, selection by target version, detection as diagnostics, fixing source."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import warnings
from collections.abc import Sequence

import libcst as cst
from libcst.metadata import MetadataWrapper

from ..harness.diagnostics import Diagnostic
from .base import DriftRule, FixScope, RuleHit
from .families import addons, attributes, bmesh, drift_50, headless, materials, node_trees, render
from .families.drift_28 import lights, scene
from .families.imports import keywords, missing_import, misspelt, renamed
from .families.operators import linktwice, opresult, signatures
from .families.values import camera, datablocks, intdiv, literals, madeup, parenting, pydata, slots

# The order rules apply in; a family's modules stay together. Each rule's family is where it lives (DriftRule.family).
MODULES = (
    scene,
    lights,
    drift_50,  # before attributes: its generic "missing property" rule would drop what these move
    materials,  # before attributes too: a texture slot's settings go into the node tree, not away
    attributes,
    literals,
    intdiv,
    madeup,
    camera,
    pydata,
    slots,
    datablocks,
    parenting,
    signatures,
    opresult,
    linktwice,
    bmesh,
    node_trees,
    render,
    headless,
    missing_import,
    misspelt,
    keywords,
    renamed,
    addons,
)
ALL_RULES: tuple[DriftRule, ...] = tuple(rule for module in MODULES for rule in module.RULES)
FAMILIES: dict[str, tuple[DriftRule, ...]] = {
    family: tuple(rule for rule in ALL_RULES if rule.family == family) for family in dict.fromkeys(rule.family for rule in ALL_RULES)
}
BY_ID: dict[str, DriftRule] = {rule.id: rule for rule in ALL_RULES}


@functools.cache
def rules_for(target: str = "4.5") -> tuple[DriftRule, ...]:
    """The rules whose old form fails in the target version, in pack order."""
    return tuple(rule for rule in ALL_RULES if rule.applies(target))


def parse(source: str) -> cst.Module | None:
    """The CST of a script, or None when it does not parse."""
    try:
        return cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError, ValueError):
        return None


def detect(source: str, target: str = "4.5") -> list[RuleHit]:
    """Sure findings of every rule for the target version, by line."""
    module = parse(source)
    if module is None:
        return []
    hits: list[RuleHit] = []
    scope = FixScope(target)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    for rule in rules_for(target):
        if not rule.may_fire(source, scope):
            continue
        try:
            hits.extend(h for h in rule.run(module, scope, wrapper)[1] if h.certain)
        except Exception as exc:  # noqa: BLE001 - a faulty rule must not break lint
            warnings.warn(f"drift rule {rule.id} skipped: {type(exc).__name__}: {exc}", RuntimeWarning, stacklevel=2)
    return sorted(hits, key=lambda h: (h.line, h.col))


def fix_all(source: str, target: str = "4.5") -> tuple[str, list[RuleHit]]:
    """Every sure fix of every rule for the target version (no runtime evidence needed)."""
    return apply_rules(source, [(rule, FixScope(target)) for rule in rules_for(target)])


def drift_check(source: str, version: str = "4.5") -> list[Diagnostic]:
    """The lint rule: each sure drift finding as a `rules` diagnostic with the concrete fix."""
    return [
        Diagnostic(
            tool="rules",
            code=h.rule,
            severity="blocking" if h.blocking else "advisory",
            line=h.line,
            col=h.col,
            message=h.message,
            fix=h.fix,
        )
        for h in detect(source, version)
    ]


def line_map(old: str, new: str) -> dict[int, int]:
    """Old line number → new line number for lines two versions of a script share unchanged."""
    matcher = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    mapping: dict[int, int] = {}
    for a, b, size in matcher.get_matching_blocks():
        mapping.update({a + i + 1: b + i + 1 for i in range(size)})
    return mapping


def map_line(line: int, mapping: dict[int, int]) -> int:
    """A line through a line map; a rewritten line keeps its distance to the nearest unchanged line above."""
    if line in mapping:
        return mapping[line]
    before = max((a for a in mapping if a < line), default=0)
    return mapping.get(before, 0) + (line - before)


def remap(lines: frozenset[int], old: str, new: str) -> frozenset[int]:
    """The same lines after an edit."""
    if old == new or not lines:
        return lines
    mapping = line_map(old, new)
    return frozenset(map_line(line, mapping) for line in lines)


def apply_rules(source: str, plan: Sequence[tuple[DriftRule, FixScope]]) -> tuple[str, list[RuleHit]]:
    """Apply rules in order, each on the previous one's output and with its own scope (lines of `source`).

    Returns the new source and the hits, with line numbers of `source`.
    """
    module = parse(source)
    if module is None:
        return source, []
    hits: list[RuleHit] = []
    text = source
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    for rule, scope in plan:
        if not rule.may_fire(text, scope):
            continue
        if text != source and scope.lines:
            scope = dataclasses.replace(scope, lines=remap(scope.lines, source, text))
        try:
            new_module, found = rule.run(module, scope, wrapper)
            if not found:
                continue
            new_text = new_module.code
            if new_text != text:
                compile(new_text, "<healed>", "exec")
        except Exception as exc:  # noqa: BLE001 - one faulty rule must not stop the others; say so
            warnings.warn(f"drift rule {rule.id} skipped: {type(exc).__name__}: {exc}", RuntimeWarning, stacklevel=2)
            continue
        if text != source:
            back = {b: a for a, b in line_map(source, text).items()}
            found = [dataclasses.replace(h, line=map_line(h.line, back)) for h in found]
        hits.extend(found)
        if new_text != text:
            module = parse(new_text) or module
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
            text = new_text
    return text, hits
