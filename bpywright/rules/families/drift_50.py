"""Blender 5.0 / 5.1 / 5.2 drift, both ways: what 4.5 code breaks on 5.x, and what 5.x code breaks on 4.x.

Every rule here was confirmed on the real runtimes (bpy 4.2.23, 4.5.15, 5.0.1, 5.2.3): the old form fails on the
versions the rule names and the fix passes there (tests/rules/test_drift_50.py runs both through the harness).
"""

from __future__ import annotations

import re

import libcst as cst

from ...versions import version_key
from ..base import DriftRule, RuleTransformer
from ..fragments import code, dotted, expr, imports_end, stmt, string_value
from ..sockets import socket_table
from .node_trees import _NodeNames


def _before(target: str, version: str) -> bool:
    return version_key(target) < version_key(version)


class _CyclesObjectFlags(RuleTransformer):
    """obj.cycles.is_shadow_catcher / is_holdout → obj.is_shadow_catcher / is_holdout (Object since 3.0, Cycles' copy gone in 5.0)."""

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        owner = original.value
        if original.attr.value not in ("is_shadow_catcher", "is_holdout") or not (
            isinstance(owner, cst.Attribute) and owner.attr.value == "cycles"
        ):
            return updated
        new = f"{code(owner.value)}.{original.attr.value}"
        if self.report(original, f"Cycles' {original.attr.value} moved to the object (3.0) and the old one was removed in 5.0", new):
            return expr(new)
        return updated


class _GreasePencilData(RuleTransformer):
    """bpy.data.grease_pencils_v3 → bpy.data.grease_pencils (Grease Pencil v3 took the name in 5.0)."""

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if original.attr.value != "grease_pencils_v3" or dotted(original.value) not in ("bpy.data", "D"):
            return updated
        if self.report(
            original, "bpy.data.grease_pencils_v3 is bpy.data.grease_pencils since 5.0", f"{code(original.value)}.grease_pencils"
        ):
            return updated.with_changes(attr=cst.Name("grease_pencils"))
        return updated


_STRIPS = {"sequences": "strips", "sequences_all": "strips_all"}
_SEQUENCES = {new: old for old, new in _STRIPS.items()}


class _VseStrips(RuleTransformer):
    """sequence_editor.sequences(_all) ↔ strips(_all): strips since 4.4, sequences gone in 5.0."""

    TABLE = _STRIPS

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        new = self.TABLE.get(original.attr.value)
        if new is None:
            return updated
        certain = (dotted(original.value) or "").endswith("sequence_editor")
        if self.report(
            original,
            f'SequenceEditor.{original.attr.value} is "{new}" in Blender {self.scope.target}',
            f"{code(original.value)}.{new}",
            certain=certain,
        ):
            return updated.with_changes(attr=cst.Name(new))
        return updated


class _VseSequences(_VseStrips):
    TABLE = _SEQUENCES


class _BooleanSolver(RuleTransformer):
    """The Boolean modifier's 'FAST' solver is 'FLOAT' from 5.0 (and 'FLOAT' is unknown before)."""

    OLD, NEW = "FAST", "FLOAT"

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        target = original.targets[0].target if len(original.targets) == 1 else None
        if not (isinstance(target, cst.Attribute) and target.attr.value == "solver" and string_value(original.value) == self.OLD):
            return updated
        quote = original.value.quote if isinstance(original.value, cst.SimpleString) else "'"
        if self.report(
            original,
            f"Boolean solver '{self.OLD}' is '{self.NEW}' in Blender {self.scope.target}",
            f"{code(target)} = {quote}{self.NEW}{quote}",
        ):
            return updated.with_changes(value=cst.SimpleString(f"{quote}{self.NEW}{quote}"))
        return updated


# An expression that is a modifier itself (`ob.modifiers.new(…)`, `ob.modifiers["Boolean"]`), not something reached
# through one (`ob.modifiers["GeometryNodes"].node_group.nodes["Mesh Boolean"]`: a node, whose solver 'FLOAT' is valid).
_IS_MODIFIER = re.compile(r"\.modifiers(\.new\(.*\)|\.get\(.*\)|\[[^\]]*\])$", re.S)


class _BooleanSolverBack(_BooleanSolver):
    """'FLOAT' is also the Mesh Boolean geometry node's solver in 4.x (measured on 4.5: EXACT, FLOAT, MANIFOLD), so only a
    receiver that surely is a modifier is a sure finding; any other is fixed where a run fails on it."""

    OLD, NEW = "FLOAT", "FAST"

    def visit_Module(self, node: cst.Module) -> None:
        self.modifiers: set[str] = set()
        transformer = self

        class _Modifiers(cst.CSTVisitor):
            def visit_Assign(self, node: cst.Assign) -> None:
                for t in node.targets:
                    if isinstance(t.target, cst.Name):
                        if _IS_MODIFIER.search(code(node.value) or ""):
                            transformer.modifiers.add(t.target.value)
                        else:
                            transformer.modifiers.discard(t.target.value)

        node.visit(_Modifiers())

    def report(self, node: cst.CSTNode, message: str, fix: str, *, certain: bool = True, blocking: bool = True) -> bool:
        target = node.targets[0].target if isinstance(node, cst.Assign) else None
        receiver = code(target.value) if isinstance(target, cst.Attribute) else ""
        certain = certain and (receiver in self.modifiers or _IS_MODIFIER.search(receiver) is not None)
        return super().report(node, message, fix, certain=certain, blocking=blocking)


def _socket_subscript(node: cst.Subscript) -> tuple[cst.BaseExpression, str, str] | None:
    """(node expression, 'inputs'|'outputs', name) of `X.inputs['Name']`."""
    sockets = node.value
    if not (isinstance(sockets, cst.Attribute) and sockets.attr.value in ("inputs", "outputs") and len(node.slice) == 1):
        return None
    index = node.slice[0].slice
    name = string_value(index.value) if isinstance(index, cst.Index) else None
    return (sockets.value, sockets.attr.value, name) if name else None


class _FactorBack(RuleTransformer):
    """5.0 renamed "Fac" sockets "Factor" (the identifier stays "Fac"): a 5.x script's inputs['Factor'] fails on 4.x nodes."""

    def visit_Module(self, node: cst.Module) -> None:
        self.table = socket_table(self.scope.target)
        finder = _NodeNames(self.table)
        node.visit(finder)
        self.types = finder.types

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        found = _socket_subscript(original)
        if found is None or found[2] != "Factor":
            return updated
        node_expr, side, _ = found
        kind = self.types.get(node_expr.value) if isinstance(node_expr, cst.Name) else None
        sockets = self.table["nodes"].get(kind or "", {}).get(side)
        if sockets is not None and ("Factor" in sockets or "Fac" not in sockets):
            return updated  # this node has a "Factor" socket in the target version (e.g. the Mix node)
        certain = sockets is not None
        if self.report(original, 'socket "Factor" is "Fac" before Blender 5.0', f"{code(original.value)}['Fac']", certain=certain):
            return updated.with_changes(slice=[cst.SubscriptElement(cst.Index(cst.SimpleString("'Fac'")))])
        return updated


# Legacy colour nodes removed in 5.0 → (replacement, mode), and their socket names → the replacement's.
LEGACY_COLOR_NODES = {
    "ShaderNodeSeparateRGB": ("ShaderNodeSeparateColor", "RGB"),
    "ShaderNodeCombineRGB": ("ShaderNodeCombineColor", "RGB"),
    "ShaderNodeSeparateHSV": ("ShaderNodeSeparateColor", "HSV"),
    "ShaderNodeCombineHSV": ("ShaderNodeCombineColor", "HSV"),
}
COLOR_SOCKETS = {"R": "Red", "G": "Green", "B": "Blue", "H": "Red", "S": "Green", "V": "Blue", "Image": "Color"}


class _LegacyColorNodes(RuleTransformer):
    """Separate/Combine RGB/HSV nodes (removed in 5.0) → Separate/Combine Color with the mode set, sockets renamed."""

    def visit_Module(self, node: cst.Module) -> None:
        self.legacy: set[str] = set()  # names bound to a legacy colour node

    def _new_call(self, value: cst.BaseExpression) -> str | None:
        if isinstance(value, cst.Call) and (dotted(value.func) or "").endswith("nodes.new") and value.args:
            kind = string_value(value.args[0].value)
            return kind if kind in LEGACY_COLOR_NODES else None
        return None

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name)):
            return updated
        name = small.targets[0].target.value
        kind = self._new_call(small.value)
        if kind is None:
            self.legacy.discard(name)  # re-bound to something else
            return updated
        self.legacy.add(name)
        if LEGACY_COLOR_NODES[kind][1] != "HSV":
            return updated
        # the HSV flavour needs its mode set on the new node
        return cst.FlattenSentinel([updated, stmt(f"{name}.mode = 'HSV'\n")])

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        entry = LEGACY_COLOR_NODES.get(string_value(original) or "")
        if entry is None:
            return updated
        old = string_value(original)
        if self.report(original, f"node type {old} was removed in 5.0: {entry[0]} (mode '{entry[1]}')", f"'{entry[0]}'"):
            return cst.SimpleString(repr(entry[0]))
        return updated

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        found = _socket_subscript(original)
        if found is None or not isinstance(found[0], cst.Name) or found[0].value not in self.legacy or found[2] not in COLOR_SOCKETS:
            return updated
        new = COLOR_SOCKETS[found[2]]
        if self.report(
            original, f'socket "{found[2]}" of the legacy colour node is "{new}" on its replacement', f"{code(original.value)}['{new}']"
        ):
            return updated.with_changes(slice=[cst.SubscriptElement(cst.Index(cst.SimpleString(repr(new))))])
        return updated


CHANNELBAG_IMPORT = "from bpy_extras import anim_utils"


class _ActionFcurves(RuleTransformer):
    """X.animation_data.action.fcurves → the action slot's channelbag fcurves (layered actions; Action.fcurves gone in 5.0)."""

    def visit_Module(self, node: cst.Module) -> None:
        self.changed = False

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        action = original.value
        if original.attr.value != "fcurves" or not (isinstance(action, cst.Attribute) and action.attr.value == "action"):
            return updated
        data = action.value
        if not (isinstance(data, cst.Attribute) and data.attr.value == "animation_data"):
            return updated
        owner = code(data)
        new = f"anim_utils.action_get_channelbag_for_slot({owner}.action, {owner}.action_slot).fcurves"
        if self.report(original, "Action.fcurves was removed in 5.0: F-curves live in the action slot's channelbag", new):
            self.changed = True
            return expr(new)
        return updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        if not self.changed or CHANNELBAG_IMPORT in original.code:
            return updated
        body = list(updated.body)
        at = imports_end(body)
        return updated.with_changes(body=[*body[:at], stmt(CHANNELBAG_IMPORT + "\n"), *body[at:]])


def _nodes_modifier(value: cst.BaseExpression) -> bool:
    """`X.modifiers.new(name, "NODES")` / `type="NODES"`: a Geometry Nodes modifier."""
    if not (isinstance(value, cst.Call) and (dotted(value.func) or "").endswith("modifiers.new")):
        return False
    kinds = [a.value for a in value.args if (a.keyword is not None and a.keyword.value == "type")] or [
        a.value for a in value.args[1:2] if a.keyword is None
    ]
    return any(string_value(k) == "NODES" for k in kinds)


class _Modifiers(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                (self.names.add if _nodes_modifier(node.value) else self.names.discard)(t.target.value)


class _GeometryNodesInputs(RuleTransformer):
    """5.2: a Geometry Nodes modifier's inputs are modifier.properties.inputs.<identifier>.value, no longer modifier[identifier]."""

    def visit_Module(self, node: cst.Module) -> None:
        finder = _Modifiers()
        node.visit(finder)
        self.modifiers = finder.names

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        if len(original.slice) != 1 or not isinstance(original.slice[0].slice, cst.Index) or not isinstance(original.value, cst.Name):
            return updated
        certain = original.value.value in self.modifiers
        if not (
            certain or "id properties not supported for this type" in self.scope.error or "doesn't support IDProperties" in self.scope.error
        ):
            return updated
        key = code(original.slice[0].slice.value)
        new = f"getattr({original.value.value}.properties.inputs, {key}).value"
        if self.report(
            original, "Geometry Nodes modifier inputs are modifier.properties.inputs.<identifier>.value in 5.2", new, certain=certain
        ):
            return expr(new)
        return updated


class _GeometryNodesIdProps(RuleTransformer):
    """Before 5.2: getattr(modifier.properties.inputs, identifier).value is modifier[identifier] (a 5.2 script on 5.0/4.x)."""

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        call = original.value
        if original.attr.value != "value" or not (isinstance(call, cst.Call) and dotted(call.func) == "getattr" and len(call.args) == 2):
            return updated
        inputs = call.args[0].value
        if not (
            isinstance(inputs, cst.Attribute)
            and inputs.attr.value == "inputs"
            and isinstance(inputs.value, cst.Attribute)
            and inputs.value.attr.value == "properties"
        ):
            return updated
        new = f"{code(inputs.value.value)}[{code(call.args[1].value)}]"
        if self.report(original, f"modifier.properties.inputs arrived in 5.2: modifier[identifier] in Blender {self.scope.target}", new):
            return expr(new)
        return updated


# Standard-library modules Python 3.12/3.13 removed (Blender 5.1+ runs Python 3.13) → what replaces them.
REMOVED_STDLIB = {
    "imp": "importlib",
    "distutils": "setuptools / shutil / sysconfig",
    "imghdr": "reading the file header (or PIL)",
    "asyncore": "asyncio",
    "asynchat": "asyncio",
    "smtpd": "aiosmtpd",
    "cgi": "urllib.parse / email.message",
    "cgitb": "traceback",
    "pipes": "shlex.quote",
    "telnetlib": "a third-party telnet library",
    "crypt": "hashlib",
    "audioop": "numpy",
    "aifc": "soundfile",
    "sndhdr": "soundfile",
    "sunau": "soundfile",
    "uu": "base64",
    "xdrlib": "struct",
    "nntplib": "a third-party NNTP library",
    "mailcap": "mimetypes",
    "chunk": "struct",
    "spwd": "pwd",
    "nis": "a third-party NIS library",
    "ossaudiodev": "a sound library",
    "msilib": "nothing",
}


class _PythonModules(RuleTransformer):
    """`import imp` (and other modules Python 3.12/3.13 removed) fail on Blender 5.1+; imp's reload is importlib's."""

    def _name(self, node: cst.CSTNode) -> str:
        return (dotted(node) or "").split(".")[0]

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        names = list(updated.names)
        for i, alias in enumerate(original.names):
            top = self._name(alias.name)
            if top not in REMOVED_STDLIB:
                continue
            fixable = top == "imp" and dotted(alias.name) == "imp"
            fix = "import importlib as imp" if fixable else f"use {REMOVED_STDLIB[top]}"
            if self.report(original, f"module {top} was removed from Python (Blender 5.1+ runs Python 3.13)", fix) and fixable:
                names[i] = alias.with_changes(name=cst.Name("importlib"), asname=alias.asname or cst.AsName(name=cst.Name("imp")))
        return updated.with_changes(names=names)

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom) -> cst.ImportFrom:
        top = self._name(original.module) if original.module is not None else ""
        if top not in REMOVED_STDLIB:
            return updated
        imported = (
            {a.name.value for a in original.names if isinstance(a.name, cst.Name)}
            if not isinstance(original.names, cst.ImportStar)
            else set()
        )
        fixable = dotted(original.module) == "imp" and imported and imported <= {"reload", "import_module"}
        fix = f"from importlib import {', '.join(sorted(imported))}" if fixable else f"use {REMOVED_STDLIB[top]}"
        if self.report(original, f"module {top} was removed from Python (Blender 5.1+ runs Python 3.13)", fix) and fixable:
            return updated.with_changes(module=cst.Name("importlib"))
        return updated


# 5.0 removals with no mechanical fix: the finding says what replaces them.
REMOVED_50 = {
    "bgl": "the bgl module was removed in 5.0: draw with the gpu module",
    "bindcode": "Image.bindcode was removed with bgl in 5.0: use gpu.texture.from_image(image)",
    "collada_export": "Collada was removed in 5.0: export with bpy.ops.wm.usd_export / wm.obj_export / export_scene.gltf",
    "collada_import": "Collada was removed in 5.0: import USD, OBJ or glTF instead",
    "CompositorNodeComposite": "the Composite node was removed in 5.0: the compositor node group's Group Output is the result",
    "node_tree": "Scene.node_tree was removed in 5.0: the compositor is a node group, "
    "scene.compositing_node_group = bpy.data.node_groups.new('Compositor', 'CompositorNodeTree')",
}


class _Removed50(RuleTransformer):
    """Findings (no rewrite) for 5.0 removals that need a person or the LLM: bgl, Collada, the scene compositor tree."""

    def leave_Import(self, original: cst.Import, updated: cst.Import) -> cst.Import:
        if any(dotted(a.name) == "bgl" for a in original.names):
            self.report(original, REMOVED_50["bgl"], "import gpu")
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        attr, chain = original.attr.value, dotted(original.value) or ""
        if attr in ("collada_export", "collada_import") and chain.endswith("ops.wm"):
            self.report(original, REMOVED_50[attr], "bpy.ops.wm.usd_export" if attr.endswith("export") else "bpy.ops.wm.usd_import")
        elif attr == "node_tree" and (
            "'Scene' object has no attribute 'node_tree'" in self.scope.error or chain.endswith(("scene", "scenes[]"))
        ):
            self.report(
                original, REMOVED_50[attr], f"{code(original.value)}.compositing_node_group", certain=chain.endswith(("scene", "scenes[]"))
            )
        elif attr == "bindcode" and "image" in chain.lower():
            self.report(original, REMOVED_50[attr], "gpu.texture.from_image(image)")
        return updated

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        if string_value(original) == "CompositorNodeComposite":
            self.report(original, REMOVED_50["CompositorNodeComposite"], "'NodeGroupOutput'")
        return updated


RULES = (
    DriftRule(
        "cycles-object-flags",
        "obj.cycles.is_shadow_catcher/is_holdout → obj.is_shadow_catcher/is_holdout (5.0)",
        "5.0",
        "3.0",
        _CyclesObjectFlags,
        (r"'CyclesObjectSettings' object has no attribute '(is_shadow_catcher|is_holdout)'",),
        needles=("is_shadow_catcher", "is_holdout"),
        example=("floor.cycles.is_shadow_catcher = True", "floor.is_shadow_catcher = True"),
    ),
    DriftRule(
        "grease-pencil-v3-data",
        "bpy.data.grease_pencils_v3 → bpy.data.grease_pencils (5.0)",
        "5.0",
        "5.0",
        _GreasePencilData,
        (r"'BlendData' object has no attribute 'grease_pencils_v3'",),
        needles=("grease_pencils_v3",),
        example=('gp = bpy.data.grease_pencils_v3.new("Sketch")', 'gp = bpy.data.grease_pencils.new("Sketch")'),
    ),
    DriftRule(
        "vse-strips",
        "sequence_editor.sequences(_all) → strips(_all) (4.4; sequences removed in 5.0)",
        "5.0",
        "4.4",
        _VseStrips,
        (r"'SequenceEditor' object has no attribute 'sequences(_all)?'",),
        needles=("sequences",),
        example=("strips = scene.sequence_editor.sequences_all", "strips = scene.sequence_editor.strips_all"),
    ),
    DriftRule(
        "vse-sequences",
        "sequence_editor.strips(_all) → sequences(_all) before 4.4 (a newer script on an older Blender)",
        "2.80",
        "2.80",
        _VseSequences,
        (r"'SequenceEditor' object has no attribute 'strips(_all)?'",),
        fails_until="4.4",
        needles=("strips",),
        example=("strips = scene.sequence_editor.strips_all", "strips = scene.sequence_editor.sequences_all"),
    ),
    DriftRule(
        "boolean-solver-float",
        "Boolean solver 'FAST' → 'FLOAT' (5.0)",
        "5.0",
        "5.0",
        _BooleanSolver,
        (r'enum "FAST" not found in \(\'FLOAT\'',),
        needles=("FAST",),
        example=("cut.solver = 'FAST'", "cut.solver = 'FLOAT'"),
    ),
    DriftRule(
        "boolean-solver-fast",
        "Boolean solver 'FLOAT' → 'FAST' before 5.0 (a 5.x script on 4.x)",
        "2.91",
        "2.91",
        _BooleanSolverBack,
        (r'enum "FLOAT" not found in \(\'FAST\'',),
        fails_until="5.0",
        needles=("FLOAT",),
        example=("cut.solver = 'FLOAT'", "cut.solver = 'FAST'"),
    ),
    DriftRule(
        "socket-factor-fac",
        'socket "Factor" → "Fac" before 5.0 (a 5.x script on 4.x)',
        "2.80",
        "2.80",
        _FactorBack,
        (r'key "Factor" not found',),
        fails_until="5.0",
        needles=("Factor",),
        example=("mix.inputs['Factor'].default_value = 0.25", "mix.inputs['Fac'].default_value = 0.25"),
    ),
    DriftRule(
        "legacy-color-nodes",
        "Separate/Combine RGB/HSV nodes → Separate/Combine Color (removed in 5.0)",
        "5.0",
        "3.3",
        _LegacyColorNodes,
        (r"Node type ShaderNode(Separate|Combine)(RGB|HSV) undefined",),
        needles=tuple(LEGACY_COLOR_NODES),
        example=("join = nodes.new('ShaderNodeCombineRGB')", "join = nodes.new('ShaderNodeCombineColor')"),
    ),
    DriftRule(
        "action-fcurves",
        "action.fcurves → the slot's channelbag fcurves (layered actions, 5.0)",
        "5.0",
        "4.4",
        _ActionFcurves,
        (r"'Action' object has no attribute 'fcurves'",),
        needles=(".fcurves",),
        example=(
            "curves = obj.animation_data.action.fcurves",
            "anim_utils.action_get_channelbag_for_slot(obj.animation_data.action, obj.animation_data.action_slot).fcurves",
        ),
    ),
    DriftRule(
        "gn-modifier-inputs",
        "modifier[identifier] → modifier.properties.inputs.<identifier>.value (Geometry Nodes, 5.2)",
        "5.2",
        "5.2",
        _GeometryNodesInputs,
        (r"id properties not supported for this type", r"doesn't support IDProperties"),
        needles=("NODES", "["),
        example=("modifier[size.identifier] = 0.4", "getattr(modifier.properties.inputs, size.identifier).value = 0.4"),
    ),
    DriftRule(
        "gn-modifier-idprops",
        "modifier.properties.inputs.<identifier>.value → modifier[identifier] before 5.2",
        "2.92",
        "2.92",
        _GeometryNodesIdProps,
        (r"'NodesModifier' object has no attribute 'properties'",),
        fails_until="5.2",
        needles=(".properties.inputs",),
        example=("getattr(modifier.properties.inputs, size.identifier).value = 0.4", "modifier[size.identifier] = 0.4"),
    ),
    DriftRule(
        "python-313-modules",
        "stdlib modules removed by Python 3.12/3.13 (imp → importlib) on Blender 5.1+",
        "5.1",
        "2.80",
        _PythonModules,
        (rf"No module named '({'|'.join(REMOVED_STDLIB)})'",),
        needles=tuple(REMOVED_STDLIB),
        example=("import imp", "import importlib as imp"),
    ),
    DriftRule(
        "removed-in-5",
        "5.0 removals that need rewriting by hand: bgl, Collada, Scene.node_tree, the Composite node",
        "5.0",
        "5.0",
        _Removed50,
        (
            r"No module named 'bgl'",
            r"'Scene' object has no attribute 'node_tree'",
            r"collada_(ex|im)port",
            r"Node type CompositorNodeComposite undefined",
            r"'Image' object has no attribute 'bindcode'",
        ),
        needles=("bgl", "collada_", "node_tree", "CompositorNodeComposite", "bindcode"),
        example=("import bgl", "(reported, not rewritten: port it to the gpu module)"),
    ),
)
