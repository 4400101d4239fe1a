"""A misspelt name: a run failed with NameError on a name the script never binds, and the script binds one close to it
(`LEAD_THICKNESS` where `LID_THICKNESS` is defined, `matrial` for `material`). Small models write this often.

Only with that runtime evidence (the NameError names the name), and only when exactly one bound name is close enough:
every unbound use of the misspelt name is renamed. A name the missing-import rule knows (math, Vector, C …) is its own."""

from __future__ import annotations

import difflib

import libcst as cst
from libcst.metadata import PositionProvider, ScopeProvider

from ...base import DriftRule, RuleTransformer
from ...unbound import NOT_DEFINED, bound_in, not_defined, unbound_uses
from .missing_import import CONSOLE, IMPORTS

CUTOFF = 0.8  # difflib ratio a bound name must reach (LEAD_THICKNESS → LID_THICKNESS is 0.89; width → height is 0.36)
MIN_LENGTH = 4  # shorter names are too easily close to another by chance


def closest(name: str, bound: set[str]) -> str | None:
    """The one bound name close to `name`, or None when none is, or two are about as close."""
    if len(name) < MIN_LENGTH:
        return None
    scored = sorted(((difflib.SequenceMatcher(None, name, b).ratio(), b) for b in bound if b != name), reverse=True)
    scored = [(r, b) for r, b in scored if r >= CUTOFF]
    if not scored or (len(scored) > 1 and scored[1][0] >= scored[0][0] - 0.05):
        return None
    return scored[0][1]


class _MisspeltName(RuleTransformer):
    METADATA_DEPENDENCIES = (PositionProvider, ScopeProvider)

    def visit_Module(self, node: cst.Module) -> None:
        self.renames: dict[cst.Name, str] = {}
        wrong = not_defined(self.scope.error)
        if wrong is None or wrong in IMPORTS or wrong in CONSOLE:
            return
        for scope, name in unbound_uses(self.metadata[ScopeProvider].values()):
            if name.value != wrong:
                continue
            right = closest(wrong, bound_in(scope))
            if right is not None and self.report(name, f'"{wrong}" is never defined; "{right}" is', f"use {right}"):
                self.renames[name] = right

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        right = self.renames.get(original)
        return updated.with_changes(value=right) if right else updated


RULES = (
    DriftRule(
        "misspelt-name",
        "a name the script never defines, close to one it does (NameError) → the defined name",
        "2.50",
        "2.50",
        _MisspeltName,
        (NOT_DEFINED.pattern,),
        runtime_only=True,
        example=("mat = bpy.data.materials.new(material_nme)", "mat = bpy.data.materials.new(material_name)"),
    ),
)
