"""Blocking means "would raise if the line runs": demote findings the script's code or the stubs' class tree do not prove.

A checker's attribute error proves a failure only when no class the value could be has the attribute: an
attribute reached through a base class (`Node.color_ramp`), one of the script's own classes (or a name bound to one:
`N = Nodes`, a namespace of node type names the script fills at run time) or properties it registers, a class's
`bl_rna` (its RNA Struct, which the stubs type BlenderRNA), or a receiver the checker cannot type (`tuple[Unknown, ...]`, Unknown) is advisory. What bpy accepts and returns
(numpy arrays for vector properties, mathutils operators, the node class behind `nodes.new(str)`) is stub truth:
typings/overlays, measured in Blender, not a case here.
Findings inside a guard that tests for the API (hasattr, try/except AttributeError, a bpy.app.version branch
that does not run on the target) or on a path that never runs (a helper nothing calls, code after `return`)
are advisory too, undefined names included (a generator's unused `sample_genome()` helper never raises).
A value the script's own helper returns is typed from one of the helper's return paths: an attribute some stub
class has is not proved missing there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from .diagnostics import Diagnostic
from .members import MemberIndex, member_index
from .scriptfacts import ScriptFacts, rebound_before_use, script_facts

UNDEFINED = {"F821", "F822", "reportUndefinedVariable", "name-defined"}
ATTRIBUTE_PATTERNS = (
    re.compile(r'^Cannot (?:access|assign to|delete) attribute "(?P<attr>[^"]+)" for class "(?P<cls>.+?)"(?= Attribute| \w|$)'),
    re.compile(r'^"(?P<attr>[^"]+)" is not a known attribute of module "(?P<module>[^"]+)"'),
    re.compile(r'^Item "(?P<cls>.+?)" of ".+" has no attribute "(?P<attr>[^"]+)"'),
    re.compile(r'^Module "(?P<module>[^"]+)" has no attribute "(?P<attr>[^"]+)"'),
    re.compile(r'^"(?P<cls>.+?)" has no attribute "(?P<attr>[^"]+)"'),
    re.compile(r'^(?P<cls>\w+) has no property "(?P<attr>[^"]+)"'),
)
API_UNKNOWN = re.compile(r'^"(?P<attr>[^"]+)" is not in Blender [\d.]+ \((?P<path>[^)]*)\)')
ASSIGNED_CLASS = re.compile(r'^Cannot assign to attribute "[^"]+" for class "([^"]+)"')
OP_RESULT = re.compile(r"yet (?P<name>\w+) is used as an object")
RECEIVER_BEFORE = re.compile(r"(?P<name>[A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\.\s*$")  # `ramp.` / `nodes["x"].` before the attribute
RECEIVER_AT = re.compile(r"(?P<name>[A-Za-z_]\w*)")


def receiver_class(text: str) -> str:
    """The class name in a checker's receiver type: `type[Scene]` -> Scene, `Foo*` -> Foo, `tuple[X, ...]` -> tuple."""
    text = text.strip()
    while text.startswith("type[") and text.endswith("]"):
        text = text[5:-1]
    text = text.rstrip("*")
    return text.split("[", 1)[0].rsplit(".", 1)[-1]


def attribute_subject(message: str) -> tuple[str, str | None, str | None] | None:
    """(attribute, receiver type, module) of an unknown-attribute message, or None."""
    for pattern in ATTRIBUTE_PATTERNS:
        m = pattern.match(message)
        if m:
            groups = m.groupdict()
            return groups["attr"], groups.get("cls"), groups.get("module")
    return None


def _api_check_reason(diag: Diagnostic, facts: ScriptFacts, index: MemberIndex | None) -> str | None:
    """api-check judges names by the docs' symbol index: a name the script registers or the stubs declare is not proved missing."""
    m = API_UNKNOWN.match(diag.message)
    if m is None:
        return None
    attr = m["attr"]
    if attr in facts.registered or attr in facts.classes:
        return f'the script defines "{attr}" itself'
    if index is not None and index.is_stub_class(attr):
        return f'"{attr}" is a class Blender registers (the stubs declare it; the docs index does not)'
    if index is not None and index.anywhere(attr):
        return f'a stub class declares "{attr}"; the value reached here may be of that class'
    return None


def _operator_result_reason(diag: Diagnostic, facts: ScriptFacts) -> str | None:
    """`x = bpy.ops...._add()` fails only where x is then used as an object, not when x is re-bound first."""
    m = OP_RESULT.search(diag.message)
    if m is None or facts.tree is None:
        return None
    if rebound_before_use(facts.tree, m["name"], diag.line):
        return f"{m['name']} is bound again before it is used"
    return None


def receiver_name(diag: Diagnostic, facts: ScriptFacts) -> str | None:
    """The name an attribute finding's receiver starts from: pyright points at the attribute, mypy at the expression."""
    if not 0 < diag.line <= len(facts.lines):
        return None
    text = facts.lines[diag.line - 1]
    if diag.tool == "pyright":
        m = RECEIVER_BEFORE.search(text[: max(diag.col - 1, 0)])
    else:
        m = RECEIVER_AT.match(text, max(diag.col - 1, 0))
    return m["name"] if m else None


def _helper_result_reason(diag: Diagnostic, facts: ScriptFacts, index: MemberIndex, attr: str, cls: str) -> str | None:
    """A value returned by the script's own helper is typed by the checker from one of its return paths (a union it
    reports member by member): it proves nothing where some stub class has the attribute."""
    name = receiver_name(diag, facts)
    helper = facts.helper_results.get(name or "")
    if helper is None or not index.anywhere(attr):
        return None
    return f'{name} holds what the script\'s own {helper}() returns, typed {cls} from one of its paths; other classes have "{attr}"'


def why_not_proved(diag: Diagnostic, facts: ScriptFacts, index: MemberIndex | None) -> str | None:
    """Why an unknown-attribute finding does not prove a runtime failure, or None when it does."""
    if diag.tool == "rules":
        reason = _api_check_reason(diag, facts, index) or _operator_result_reason(diag, facts)
        if reason is not None:
            return reason
    subject = attribute_subject(diag.message)
    if subject is None:
        return None
    attr, cls_text, module = subject
    if " is not assignable" in diag.message:  # a value's type, not a missing attribute (checkers.py: proved wrong)
        owner = ASSIGNED_CLASS.match(diag.message)
        cls = receiver_class(owner.group(1)) if owner else None
        if cls in facts.classes:
            return f'"{cls}" is the script\'s own class: Python does not check the types of its attributes'
        if cls is not None and index is not None and not index.knows(cls):
            return f'"{cls}" is not a Blender class'
        return None
    if attr in facts.registered:
        return f'the script registers "{attr}" itself'
    if module is not None:
        if attr in facts.operators:
            return f'"{attr}" is an operator the script registers'
        return f'"{attr}" is a class the script defines (registered into bpy.types)' if attr in facts.classes else None
    if cls_text is None:
        return None
    cls = receiver_class(cls_text)
    if cls in facts.classes:
        return f'"{cls}" is the script\'s own class'
    if cls in facts.class_aliases:
        return f'"{cls}" stands for the script\'s own class {facts.class_aliases[cls]}, whose attributes the script may set at run time'
    if index is None:
        return None
    if cls == "BlenderRNA" and index.on_some_subclass("Struct", attr):  # `Cls.bl_rna` is the class's RNA Struct
        return f'bl_rna is the class\'s RNA definition (a Struct, which has "{attr}"); the stubs type it BlenderRNA'
    if index.knows(cls):
        if index.on_some_subclass(cls, attr):
            return f'"{attr}" exists on a subclass of {cls}; the value may be one'
        return _helper_result_reason(diag, facts, index, attr, cls)
    if "Unknown" in cls_text or "Any" in re.split(r"\W+", cls_text):
        return f"the checker does not know the value's type ({cls_text})" if index.anywhere(attr) else None
    if cls == "tuple" and index.anywhere(attr):  # helpers that return one node on some paths and several on others
        return f'the checker saw a tuple ({cls_text}) where the script may hold a single item with "{attr}"'
    return None


def refine(diagnostics: Iterable[Diagnostic], source: str, version: str = "4.5", stubs: Path | None = None) -> list[Diagnostic]:
    """Demote blocking findings that the script or the stubs' class tree show are not proved failures (in place)."""
    diags = list(diagnostics)
    if not any(d.severity == "blocking" and d.tool != "syntax" for d in diags):
        return diags
    facts = script_facts(source, version)
    index = member_index(stubs) if stubs is not None else None
    for d in diags:
        if d.severity != "blocking" or d.tool == "syntax":
            continue
        if d.code in UNDEFINED:  # a name the script never binds raises only where its line runs
            dead = facts.unreachable_at(d.line)
            caught = facts.name_guard_at(d.line, d.message)
            if dead is not None:
                d.severity = "advisory"
                d.message += f" (advisory: this path never runs: {dead.why})"
            elif caught is not None:
                d.severity = "advisory"
                d.message += f" (advisory: a latent undefined name, never raised: {caught.why})"
            continue
        reason = why_not_proved(d, facts, index)
        if reason is None and (guard := facts.guard_at(d.line, d.message)) is not None:
            reason = guard.why
        if reason is None and (dead := facts.unreachable_at(d.line)) is not None:
            reason = f"this path never runs: {dead.why}"
        if reason is not None:
            d.severity = "advisory"
            d.message += f" (advisory: {reason})"
    return diags
