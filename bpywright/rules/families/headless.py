"""Context drift in headless runs: override dicts (removed in 4.0), viewport operators, no active object, edit mode."""

from __future__ import annotations

import re

import libcst as cst

from ..base import DriftRule, RuleTransformer
from ..fragments import code, dotted, stmt, string_value, with_helper
from ..rna import rna_table
from .operators.signatures import op_name

HELPER = "_view3d_context"
HELPER_SOURCE = f'''
def {HELPER}():
    """A 3D viewport area and region for operators that need one when Blender runs headless."""
    area = next(a for a in bpy.context.screen.areas if a.type == "VIEW_3D")
    return {{"area": area, "region": next(r for r in area.regions if r.type == "WINDOW")}}
'''


_POSITIONAL = re.compile(r"bpy\.ops\.\w+\.\w+\(\s*(\{|[A-Za-z_][\w.]*(\(\))?\s*[,)])")


def _calls_viewport_ops(source: str) -> bool:
    return "bpy.ops." in source and any(f"ops.{op}(" in source for op in rna_table("4.5")["view3d_ops"])


class _Calls(cst.CSTVisitor):
    """bpy.ops calls inside one statement (not descending into nested blocks)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        if op_name(dotted(node.func)):
            self.calls.append(node)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
        return False


def ops_in(node: cst.CSTNode) -> list[cst.Call]:
    """The bpy.ops calls a statement makes."""
    finder = _Calls()
    node.visit(finder)
    return finder.calls


def _wrap(statement: cst.SimpleStatementLine, items: str) -> cst.BaseStatement:
    block = stmt(f"with {items}:\n    pass\n")
    assert isinstance(block, cst.With)
    inner = statement.with_changes(leading_lines=[])
    return block.with_changes(body=cst.IndentedBlock([inner]), leading_lines=statement.leading_lines)


class _InOverride(RuleTransformer):
    """Tracks whether the current statement already runs under `with ….temp_override(…)`."""

    def visit_Module(self, node: cst.Module) -> None:
        self.depth = 0

    def visit_With(self, node: cst.With) -> None:
        self.depth += any("temp_override" in (dotted(i.item) or "") for i in node.items)

    def leave_With(self, original: cst.With, updated: cst.With) -> cst.BaseStatement:
        self.depth -= any("temp_override" in (dotted(i.item) or "") for i in original.items)
        return updated


_CONTEXT_KEYS = {"area", "region", "window", "screen", "scene", "active_object", "object", "selected_objects", "edit_object"}


class _Dicts(cst.CSTVisitor):
    """Names bound to dicts (literals, context.copy()) or filled with context keys: old-style overrides."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        is_dict = isinstance(node.value, cst.Dict | cst.DictComp) or (dotted(node.value) or "").endswith(("copy()", "dict()"))
        for t in node.targets:
            target = t.target
            if isinstance(target, cst.Name) and is_dict:
                self.names.add(target.value)
            if isinstance(target, cst.Subscript) and len(target.slice) == 1 and isinstance(target.value, cst.Name):
                index = target.slice[0].slice
                if isinstance(index, cst.Index) and string_value(index.value) in _CONTEXT_KEYS:
                    self.names.add(target.value.value)


class _OverrideDict(_InOverride):
    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        finder = _Dicts()
        node.visit(finder)
        self.dicts = finder.names

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if len(original.body) != 1:
            return updated
        calls = [c for c in ops_in(original) if any(a.keyword is None and not _literal(a.value) for a in c.args)]
        if len(calls) != 1:
            return updated
        call = calls[0]
        override = next(a for a in call.args if a.keyword is None and not _literal(a.value))
        value = override.value
        certain = (
            isinstance(value, cst.Dict)
            or (dotted(value) or "").endswith("copy()")
            or (isinstance(value, cst.Name) and value.value in self.dicts)
        )
        fix = f"with bpy.context.temp_override(**{code(value)}): {code(call.func)}(…)"
        if not self.report(
            call, "passing a context dict to an operator was removed in 4.0: use context.temp_override()", fix, certain=certain
        ):
            return updated
        rest = [a for a in call.args if a is not override]
        if rest:
            rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        new_call = call.with_changes(args=rest)
        inner = original.deep_replace(call, new_call)
        assert isinstance(inner, cst.SimpleStatementLine)
        return _wrap(inner, f"bpy.context.temp_override(**{code(value)})")


def _literal(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.SimpleString | cst.ConcatenatedString) or (isinstance(node, cst.Name) and node.value in ("True", "False"))


class _ViewportOperator(_InOverride):
    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.needs = set(rna_table(self.scope.target)["view3d_ops"])
        self.helper_exists = any(isinstance(s, cst.FunctionDef) and s.name.value == HELPER for s in node.body)
        self.used = False

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if self.depth:
            return updated
        names = [op for c in ops_in(original) if (op := op_name(dotted(c.func))) in self.needs]
        if not names:
            return updated
        fix = f"with bpy.context.temp_override(**{HELPER}()): bpy.ops.{names[0]}(…)"
        if self.report(original, f"bpy.ops.{names[0]} needs a 3D viewport, which headless Blender only has under an override", fix):
            self.used = True
            return _wrap(updated, f"bpy.context.temp_override(**{HELPER}())")
        return updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        if not self.used or self.helper_exists:
            return updated
        return with_helper(updated, HELPER_SOURCE)


_OBJECT_BINDING = re.compile(r"\.objects(\.new\(\)|\[\]|\.get\(\))$")


def _makes_object(value: cst.BaseExpression) -> bool:
    """bpy.data.objects.new(…) (or .get / [ ]), also passed through a helper as the prompt's example does: link(….new(…))."""
    if _OBJECT_BINDING.search(dotted(value) or ""):
        return True
    return isinstance(value, cst.Call) and len(value.args) == 1 and _OBJECT_BINDING.search(dotted(value.args[0].value) or "") is not None


class _ActiveObject(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.scopes: list[str | None] = [None]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.append(None)

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.BaseStatement:
        self.scopes.pop()
        return updated

    def visit_Assign(self, node: cst.Assign) -> None:
        if _makes_object(node.value) and isinstance(node.targets[0].target, cst.Name):
            self.scopes[-1] = node.targets[0].target.value

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        name = self.scopes[-1] or self.scopes[0]
        uses = ops_in(original) or re.search(r"context\.(object|active_object)\b", code(original))
        if name is None or not uses:
            return updated
        fix = f"bpy.context.view_layer.objects.active = {name}; {name}.select_set(True)"
        if self.report(original, f"no active object here: make {name} (the object created last) active", fix, certain=False):
            lines = [stmt(f"bpy.context.view_layer.objects.active = {name}\n"), stmt(f"{name}.select_set(True)\n")]
            return cst.FlattenSentinel([*lines, updated])
        return updated


_EDIT_OPS = re.compile(r"^(mesh|uv|curve)\.(?!primitive_)")


class _EditMode(RuleTransformer):
    def _edit_op(self, statement: cst.BaseStatement) -> bool:
        calls = ops_in(statement) if isinstance(statement, cst.SimpleStatementLine) else []
        return bool(calls) and all(_EDIT_OPS.match(op_name(dotted(c.func)) or "") for c in calls)

    def _wrap_run(self, body: list[cst.BaseStatement], originals: list[cst.BaseStatement]) -> list[cst.BaseStatement] | None:
        start = next((i for i, s in enumerate(originals) if self._edit_op(s) and self.on_failing_line(s)), None)
        if start is None:
            return None
        end = start
        while end < len(body) and self._edit_op(originals[end]):
            end += 1
        fix = "bpy.ops.object.mode_set(mode='EDIT') before, mode_set(mode='OBJECT') after"
        if not self.report(originals[start], "mesh/uv/curve operators need edit mode", fix, certain=False):
            return None
        edit, back = stmt("bpy.ops.object.mode_set(mode='EDIT')\n"), stmt("bpy.ops.object.mode_set(mode='OBJECT')\n")
        return [*body[:start], edit, *body[start:end], back, *body[end:]]

    def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.BaseSuite:
        body = self._wrap_run(list(updated.body), list(original.body)) if len(updated.body) == len(original.body) else None
        return updated.with_changes(body=body) if body else updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        body = self._wrap_run(list(updated.body), list(original.body)) if len(updated.body) == len(original.body) else None
        return updated.with_changes(body=body) if body else updated


class _SpaceData(RuleTransformer):
    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        target: cst.CSTNode | None = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        target = target or (small.value.func if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) else None)
        chain = dotted(target) or ""
        if re.match(r"(bpy\.context|context|C)\.space_data\.", chain):
            if self.report(
                original,
                "context.space_data is None when Blender runs headless (no editor): viewport-only setting dropped",
                "remove the statement",
            ):
                return cst.RemovalSentinel.REMOVE
        return updated


RENDER_HELPER = "_viewport_render"
RENDER_HELPER_SOURCE = f'''
def {RENDER_HELPER}(**options):
    """bpy.ops.render.opengl needs a window: headless (blender -b), Workbench renders what the viewport shows."""
    if not bpy.app.background:
        return bpy.ops.render.opengl(**options)
    scene = bpy.context.scene
    engine = scene.render.engine
    scene.render.engine = "BLENDER_WORKBENCH"
    try:
        return bpy.ops.render.render(**{{k: v for k, v in options.items() if k in ("animation", "write_still")}})
    finally:
        scene.render.engine = engine
'''


class _OpenGLRender(RuleTransformer):
    """bpy.ops.render.opengl(…) → a helper that calls it in a window and renders with Workbench headless."""

    def visit_Module(self, node: cst.Module) -> None:
        self.helper_exists = any(isinstance(s, cst.FunctionDef) and s.name.value == RENDER_HELPER for s in node.body)
        self.used = False

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if dotted(original.func) != "bpy.ops.render.opengl":
            return updated
        keywords = all(a.keyword is not None for a in original.args)
        fix = f"{RENDER_HELPER}(…): the viewport render headless is a Workbench render"
        why = "bpy.ops.render.opengl cannot run headless (blender -b): 'Cannot use OpenGL render in background mode'"
        # it runs in a window (an add-on's operator, a script run from the UI): a finding, never proof the script fails
        if self.report(original, why, fix, certain=keywords, blocking=False):
            self.used = True
            return updated.with_changes(func=cst.Name(RENDER_HELPER))
        return updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        return with_helper(updated, RENDER_HELPER_SOURCE) if self.used and not self.helper_exists else updated


BESIDE_HELPER = "_beside_script"
BESIDE_HELPER_SOURCE = f'''
def {BESIDE_HELPER}(path):
    """A relative path the script reads from its own folder, the folder it is run from: found there wherever it runs."""
    import os

    if os.path.isabs(path) or os.path.exists(path) or "__file__" not in globals():
        return path
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), path)
'''


class _OpenBesideScript(RuleTransformer):
    """open(relative) that failed with FileNotFoundError → open(_beside_script(relative)): the file beside the script."""

    def visit_Module(self, node: cst.Module) -> None:
        self.helper_exists = any(isinstance(s, cst.FunctionDef) and s.name.value == BESIDE_HELPER for s in node.body)
        self.used = False

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        if not (isinstance(original.func, cst.Name) and original.func.value == "open" and original.args):
            return updated
        first = updated.args[0]
        if first.keyword is not None or first.star or (isinstance(first.value, cst.Call) and dotted(first.value.func) == BESIDE_HELPER):
            return updated
        why = "a relative path is opened from the folder Blender runs in, not the script's own"
        if self.report(original, why, f"open({BESIDE_HELPER}(…)): the file beside the script", certain=False):
            self.used = True
            wrapped = cst.Call(func=cst.Name(BESIDE_HELPER), args=[cst.Arg(first.value)])
            return updated.with_changes(args=[first.with_changes(value=wrapped), *updated.args[1:]])
        return updated

    def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
        return with_helper(updated, BESIDE_HELPER_SOURCE) if self.used and not self.helper_exists else updated


RULES = (
    DriftRule(
        "context-override-dict",
        "bpy.ops.x(override_dict) → with bpy.context.temp_override(**override_dict)",
        "4.0",
        "3.2",
        _OverrideDict,
        (r"1-2 args execution context is supported",),
        needles=lambda s: _POSITIONAL.search(s) is not None,
        example=("bpy.ops.object.join(ctx)", "with bpy.context.temp_override(**ctx):\n    bpy.ops.object.join()"),
    ),
    DriftRule(
        "viewport-operator",
        "viewport operators headless → run under a 3D viewport temp_override",
        "2.80",
        "3.2",
        _ViewportOperator,
        (r"Operator bpy\.ops\.\w+\.\w+\.poll\(\) (failed, context is incorrect|expected a view3d region)",),
        needles=_calls_viewport_ops,
        example=(
            "bpy.ops.view3d.snap_cursor_to_center()",
            "with bpy.context.temp_override(**_view3d_context()):\n    bpy.ops.view3d.snap_cursor_to_center()",
        ),
    ),
    DriftRule(
        "space-data-headless",
        "viewport settings through context.space_data (None headless) are dropped",
        "2.50",
        "2.50",
        _SpaceData,
        (r"'NoneType' object has no attribute",),
        needles=("space_data.",),
        example=("bpy.context.space_data.show_floor = False", "(dropped: no editor space when headless)"),
        leaves_out="viewport display settings (show_floor, shading …): headless Blender has no editor to show them",
    ),
    DriftRule(
        "active-object-missing",
        "no active object → make the object created last active",
        "2.80",
        "2.80",
        _ActiveObject,
        (r"Context missing active object", r"'NoneType' object has no attribute '\w+'"),
        runtime_only=True,
        example=(
            "bpy.ops.object.modifier_add(type='SUBSURF')",
            "bpy.context.view_layer.objects.active = obj\nobj.select_set(True)\nbpy.ops.object.modifier_add(type='SUBSURF')",
        ),
    ),
    DriftRule(
        "edit-mode-required",
        "mesh/uv/curve operators called in object mode → enter edit mode around them",
        "2.80",
        "2.80",
        _EditMode,
        (r"Operator bpy\.ops\.(mesh|uv|curve)\.\w+\.poll\(\) failed, context is incorrect",),
        runtime_only=True,
        example=(
            "bpy.ops.mesh.subdivide()",
            "bpy.ops.object.mode_set(mode='EDIT')\nbpy.ops.mesh.subdivide()\nbpy.ops.object.mode_set(mode='OBJECT')",
        ),
    ),
    DriftRule(
        "opengl-render-headless",
        "bpy.ops.render.opengl(…) headless → the same picture from the Workbench engine (the viewport render in a window)",
        "2.50",
        "2.50",
        _OpenGLRender,
        (r"Cannot use OpenGL render in background mode",),
        needles=("render.opengl(",),
        example=("bpy.ops.render.opengl(write_still=True)", "_viewport_render(write_still=True)"),
    ),
    DriftRule(
        "open-beside-script",
        "open('helper.py') of a file beside the script, run from another folder → the path found beside the script",
        "2.50",
        "2.50",
        _OpenBesideScript,
        (r"FileNotFoundError: \[Errno 2\] No such file or directory: '(?!/)",),
        runtime_only=True,
        example=("exec(open('utils.py').read())", "exec(open(_beside_script('utils.py')).read())"),
    ),
)
