"""A renamed helper: a run failed with "module 'utils' has no attribute 'rainbowLights'" (or "cannot import name
'rainbowLights' from 'utils'") where the project's own module utils defines rainbow_lights: the helper was renamed
between camelCase and snake_case and the script calling it was not updated.

Only with that runtime evidence, only at the failing statement, and only when the module (read by the project healer,
passed as FixScope.module_names) defines exactly one name that normalises the same (case and underscores ignored)."""

from __future__ import annotations

import re

import libcst as cst

from ...base import DriftRule, RuleTransformer

NO_ATTRIBUTE = re.compile(r"module '([\w.]+)' has no attribute '(\w+)'")
CANNOT_IMPORT = re.compile(r"cannot import name '(\w+)' from '([\w.]+)'")


def normalised(name: str) -> str:
    """A name with case and underscores ignored: rainbowLights, rainbow_lights and RainbowLights read the same."""
    return name.replace("_", "").lower()


def missing_name(error: str) -> tuple[str, str] | None:
    """(module, name) of an AttributeError/ImportError for a name a module lacks, else None."""
    found = NO_ATTRIBUTE.search(error)
    if found:
        return found.group(1), found.group(2)
    found = CANNOT_IMPORT.search(error)
    return (found.group(2), found.group(1)) if found else None


def renamed_to(name: str, defined: tuple[str, ...]) -> str | None:
    """The one defined name that normalises like `name` (and is not it), else None."""
    same = {d for d in defined if d != name and normalised(d) == normalised(name)}
    return same.pop() if len(same) == 1 else None


class _RenamedHelper(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        missing = missing_name(self.scope.error)
        self.old = missing[1] if missing else None
        self.new = renamed_to(self.old, self.scope.module_names) if self.old else None

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.Attribute:
        if self.new and original.attr.value == self.old and self.on_failing_line(original):
            if self.report(original, f"the project's module defines {self.new}, not {self.old}", self.new, certain=False):
                return updated.with_changes(attr=cst.Name(self.new))
        return updated

    def leave_ImportAlias(self, original: cst.ImportAlias, updated: cst.ImportAlias) -> cst.ImportAlias:
        if self.new and isinstance(original.name, cst.Name) and original.name.value == self.old and self.on_failing_line(original):
            if self.report(
                original, f"the project's module defines {self.new}, not {self.old}", f"{self.new} as {self.old}", certain=False
            ):
                # Imported under the old name, so that every later use in the file keeps working.
                alias = updated.asname or cst.AsName(cst.Name(self.old))
                return updated.with_changes(name=cst.Name(self.new), asname=alias)
        return updated


RULES = (
    DriftRule(
        "renamed-helper",
        "a helper the project's module defines under another case (rainbowLights → rainbow_lights) → renamed at the call",
        "2.50",
        "2.50",
        _RenamedHelper,
        (NO_ATTRIBUTE.pattern, CANNOT_IMPORT.pattern),
        runtime_only=True,
        example=("lights.rainbowLights(3)", "lights.rainbow_lights(3)"),
    ),
)
