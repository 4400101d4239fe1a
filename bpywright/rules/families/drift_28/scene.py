"""Blender 2.80 drift: scene object collections, selection, the active object, scene.update, cursor, layers, handlers."""

from __future__ import annotations

import re

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import code, context_of, dotted, expr, is_not_object, is_object, is_scene, object_names, stmt

_LINK = re.compile(r"\.objects\.(link|unlink|remove)$")


def _view_layer(receiver: str) -> str:
    """The view layer to use instead of a scene: the context's when the scene is the context's."""
    ctx = context_of(receiver)
    return f"{ctx}.view_layer" if ctx and receiver == f"{ctx}.scene" else "bpy.context.view_layer"


class _ObjectsLink(RuleTransformer):
    def _receiver(self, call: cst.Call) -> tuple[str, bool] | None:
        chain = dotted(call.func)
        if chain is None or not _LINK.search(chain) or not isinstance(call.func, cst.Attribute):
            return None
        objects = call.func.value
        receiver = dotted(objects.value) if isinstance(objects, cst.Attribute) else None
        if receiver is None or "collection" in receiver:
            return None
        return receiver, is_scene(receiver) or receiver.endswith("view_layer")

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> cst.BaseStatement:
        only = original.body[0] if len(original.body) == 1 else None
        call = only.value if isinstance(only, cst.Expr) and isinstance(only.value, cst.Call) else None
        _, dot, method = (dotted(call.func) or "").rpartition(".") if call is not None else ("", "", "")
        if call is None or not dot or method not in ("unlink", "remove") or len(call.args) != 1:
            return updated
        found = self._receiver(call)
        if found is None:
            return updated
        obj = code(call.args[0].value)
        if method == "remove":  # never a method of scene.objects: the object is deleted
            fix = f"bpy.data.objects.remove({obj}, do_unlink=True)"
            if self.report(call, f"{found[0]}.objects has no remove(): delete the object from bpy.data", fix, certain=found[1]):
                return updated.with_changes(body=[cst.Expr(expr(fix))])
            return updated
        fix = f"for _coll in list({obj}.users_collection): _coll.objects.unlink({obj})"
        if self.report(call, "scene.objects.unlink() was removed in 2.80: objects live in collections", fix, certain=found[1]):
            new = stmt(f"for _coll in list({obj}.users_collection):\n    _coll.objects.unlink({obj})\n")
            return new.with_changes(leading_lines=original.leading_lines)
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        found = self._receiver(original)
        if found is None or not (dotted(original.func) or "").endswith(".link"):
            return updated
        receiver, certain = found
        ctx = context_of(receiver)
        base = f"{ctx}.collection" if ctx and receiver in (f"{ctx}.scene", f"{ctx}.view_layer") else f"{receiver}.collection"
        fix = f"{base}.objects.link({', '.join(code(a.value) for a in original.args)})"
        if self.report(original, f"{receiver}.objects.link() was removed in 2.80: link objects into a collection", fix, certain=certain):
            return updated.with_changes(func=expr(f"{base}.objects.link"))
        return updated


class _Select(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.names = object_names(node)
        self.targets: set[int] = set()

    def _kind(self, receiver: cst.BaseExpression) -> bool | None:
        """True: surely an Object; False: maybe; None: surely not (vertices, operators …)."""
        chain = dotted(receiver) or ""
        if chain.startswith("bpy.ops") or is_not_object(receiver):
            return None
        return is_object(receiver, self.names)

    def visit_Assign(self, node: cst.Assign) -> None:
        self.targets.update(id(t.target) for t in node.targets)

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.BaseSmallStatement:
        target = original.targets[0].target if len(original.targets) == 1 else None
        if not (isinstance(target, cst.Attribute) and target.attr.value == "select"):
            return updated
        kind = self._kind(target.value)
        receiver = code(target.value)
        fix = f"{receiver}.select_set({code(original.value)})"
        if kind is not None and self.report(original, "Object.select was replaced by select_set() in 2.80", fix, certain=kind):
            new_target = updated.targets[0].target
            assert isinstance(new_target, cst.Attribute)
            call = cst.Call(cst.Attribute(new_target.value, cst.Name("select_set")), [cst.Arg(updated.value)])
            return cst.Expr(call)
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if original.attr.value != "select" or id(original) in self.targets:
            return updated
        kind = self._kind(original.value)
        fix = f"{code(original.value)}.select_get()"
        if kind is not None and self.report(original, "Object.select was replaced by select_get() in 2.80", fix, certain=kind):
            return cst.Call(cst.Attribute(updated.value, cst.Name("select_get")))
        return updated


class _ActiveObject(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        objects = original.value
        if original.attr.value != "active" or not (isinstance(objects, cst.Attribute) and objects.attr.value == "objects"):
            return updated
        receiver = dotted(objects.value)
        if receiver is None or "view_layer" in receiver or receiver in ("bpy.data", "D"):
            return updated
        new = f"{_view_layer(receiver)}.objects.active"
        if self.report(original, f"{receiver}.objects.active moved to the view layer in 2.80", new, certain=is_scene(receiver)):
            return expr(new)
        return updated


class _ActiveObjectAssigned(RuleTransformer):
    """`bpy.context.active_object = obj` (or `bpy.context.object.active_object = obj`, seen with a small model): the active
    object is read-only on the context; it is set on the view layer."""

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        if len(updated.targets) != 1 or not isinstance(target := updated.targets[0].target, cst.Attribute):
            return updated
        if target.attr.value != "active_object":
            return updated
        new = "bpy.context.view_layer.objects.active"
        if self.report(original, "the active object is read-only on the context; it is set on the view layer", new):
            return updated.with_changes(targets=[updated.targets[0].with_changes(target=expr(new))])
        return updated


class _SceneUpdate(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "update" and not original.args):
            return updated
        receiver = dotted(func.value)
        certain = is_scene(receiver)
        if receiver is None or not (certain or "'Scene'" in self.scope.error):
            return updated
        new = f"{_view_layer(receiver)}.update()"
        if self.report(original, "Scene.update() was removed in 2.80: update the view layer", new, certain=certain):
            return expr(new)
        return updated


class _CursorLocation(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if original.attr.value != "cursor_location":
            return updated
        receiver = dotted(original.value) or ""
        if "space" in receiver.lower() or "uv" in receiver.lower():
            return updated
        fix = f"{code(original.value)}.cursor.location"
        if self.report(original, "scene.cursor_location became scene.cursor.location in 2.80", fix, certain=is_scene(receiver)):
            return cst.Attribute(cst.Attribute(updated.value, cst.Name("cursor")), cst.Name("location"))
        return updated


def _bools(node: cst.BaseExpression) -> bool:
    """True for True/False, sequences of them, `[False] * 20` and comprehensions of comparisons."""
    if isinstance(node, cst.Name):
        return node.value in ("True", "False")
    if isinstance(node, cst.List | cst.Tuple):
        return bool(node.elements) and all(_bools(e.value) for e in node.elements)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply | cst.Add):
        return _bools(node.left) or _bools(node.right)
    if isinstance(node, cst.ListComp | cst.GeneratorExp):
        return isinstance(node.elt, cst.Comparison) or _bools(node.elt)
    return False


class _Layers(RuleTransformer):
    def _layer_target(self, target: cst.BaseExpression) -> cst.Attribute | None:
        node = target.value if isinstance(target, cst.Subscript) else target
        return node if isinstance(node, cst.Attribute) and node.attr.value == "layers" else None

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        if len(original.body) != 1:
            return updated
        small = original.body[0]
        if isinstance(small, cst.Assign | cst.AugAssign):
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            layer = self._layer_target(targets[0]) if len(targets) == 1 else None
            receiver = dotted(layer.value) if layer is not None else None
            if layer is None or receiver is None or "grease" in receiver or "gpencil" in receiver:
                return updated
            certain = _bools(small.value) or is_scene(receiver) or is_object(layer.value, set())
            if self.report(
                original, "the 20 scene layers were removed in 2.80 (objects live in collections)", "remove the statement", certain=certain
            ):
                return cst.RemovalSentinel.REMOVE
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            chain = dotted(small.value.func) or ""
            if chain in ("bpy.ops.object.move_to_layer", "bpy.ops.view3d.layers") and self.report(
                original, f"{chain} was removed in 2.80", "remove the call"
            ):
                return cst.RemovalSentinel.REMOVE
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        chain = dotted(original.func) or ""
        if chain == "bpy.ops.object.select_by_layer":
            new = "bpy.ops.object.select_all(action='SELECT')"
            if self.report(original, "select_by_layer was removed in 2.80 (no layers)", new):
                return expr(new)
        if chain.startswith("bpy.ops.") and any(a.keyword is not None and a.keyword.value == "layers" for a in original.args):
            if self.report(original, f'{chain}(layers=…): the "layers" parameter was removed in 2.80', "drop layers=…"):
                args = [a for a in updated.args if a.keyword is None or a.keyword.value != "layers"]
                if args:
                    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                return updated.with_changes(args=args)
        return updated


class _RenderLayers(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        chain = dotted(original) or ""
        if chain.endswith(".render.layers.active") and is_scene(chain.removesuffix(".render.layers.active")):
            new = _view_layer(chain.removesuffix(".render.layers.active"))
            if self.report(original, "the active render layer is the view layer since 2.80", new):
                return expr(new)
            return updated
        render = original.value
        if original.attr.value != "layers" or not (isinstance(render, cst.Attribute) and render.attr.value == "render"):
            return updated
        scene = dotted(render.value)
        if scene is None or not is_scene(scene):
            return updated
        if self.report(original, "render layers became view layers in 2.80", f"{scene}.view_layers"):
            return cst.Attribute(cst.ensure_type(updated.value, cst.Attribute).value, cst.Name("view_layers"))
        return updated

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        chain = dotted(original.value) or ""
        index = original.slice[0].slice if len(original.slice) == 1 else None
        if chain.endswith("render.layers") and isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
            if index.value.evaluated_value == "RenderLayer" and self.report(
                original, 'the default "RenderLayer" is "ViewLayer" since 2.80', "'ViewLayer'"
            ):
                return updated.with_changes(slice=[cst.SubscriptElement(cst.Index(cst.SimpleString("'ViewLayer'")))])
        return updated


_HANDLERS = {"scene_update_pre": "depsgraph_update_pre", "scene_update_post": "depsgraph_update_post"}


class _Handlers(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        new = _HANDLERS.get(original.attr.value)
        if new and (dotted(original.value) or "").endswith("handlers"):
            if self.report(original, f"bpy.app.handlers.{original.attr.value} became {new} in 2.80", f"bpy.app.handlers.{new}"):
                return updated.with_changes(attr=cst.Name(new))
        return updated


RULES = (
    DriftRule(
        "scene-objects-link",
        "scene.objects.link/unlink → collection.objects; scene.objects.remove(obj) → bpy.data.objects.remove(obj, do_unlink=True)",
        "2.80",
        "2.80",
        _ObjectsLink,
        (r'bpy_prop_collection: attribute "(link|unlink|remove)" not found',),
        needles=("objects.link", "objects.unlink", "objects.remove"),
        example=("bpy.context.scene.objects.link(obj)", "bpy.context.collection.objects.link(obj)"),
    ),
    DriftRule(
        "object-select",
        "obj.select → select_set()/select_get()",
        "2.80",
        "2.80",
        _Select,
        (r"'Object' object has no attribute 'select'",),
        needles=lambda s: re.search(r"\.select\b", s) is not None,
        example=("obj.select = True", "obj.select_set(True)"),
    ),
    DriftRule(
        "scene-objects-active",
        "scene.objects.active → view_layer.objects.active",
        "2.80",
        "2.80",
        _ActiveObject,
        (r'bpy_prop_collection: attribute "active" not found',),
        needles=("objects.active",),
        example=("bpy.context.scene.objects.active = obj", "bpy.context.view_layer.objects.active = obj"),
    ),
    DriftRule(
        "active-object-assigned",
        "context.active_object = obj → view_layer.objects.active = obj (read-only on the context)",
        "2.80",
        "2.80",
        _ActiveObjectAssigned,
        (r"object has no attribute 'active_object'", r"active_object.{0,40}read-only"),
        needles=("active_object",),
        example=("bpy.context.active_object = cap", "bpy.context.view_layer.objects.active = cap"),
    ),
    DriftRule(
        "scene-update",
        "scene.update() → view_layer.update()",
        "2.80",
        "2.80",
        _SceneUpdate,
        (r"'Scene' object has no attribute 'update'",),
        needles=(".update()",),
        example=("bpy.context.scene.update()", "bpy.context.view_layer.update()"),
    ),
    DriftRule(
        "cursor-location",
        "scene.cursor_location → scene.cursor.location",
        "2.80",
        "2.80",
        _CursorLocation,
        (r"'Scene' object has no attribute 'cursor_location'",),
        needles=("cursor_location",),
        example=("scene.cursor_location = (1, 2, 3)", "scene.cursor.location = (1, 2, 3)"),
    ),
    DriftRule(
        "layers-removed",
        "scene/object layers and select_by_layer → collections",
        "2.80",
        "2.80",
        _Layers,
        (
            r"'(Object|Scene)' object has no attribute 'layers'",
            r'keyword "layers" unrecognized',
            r'bpy\.ops\.(object\.select_by_layer|object\.move_to_layer|view3d\.layers)" error, could not be found',
        ),
        needles=("layers",),
        example=("bpy.ops.object.select_by_layer(layers=3)", "bpy.ops.object.select_all(action='SELECT')"),
        leaves_out="which of the 20 layers an object was on or shown: 2.80 has no layers (select_by_layer selects every object, the scene's own)",
    ),
    DriftRule(
        "render-layers",
        "scene.render.layers → scene.view_layers",
        "2.80",
        "2.80",
        _RenderLayers,
        (r"'RenderSettings' object has no attribute 'layers'",),
        needles=("render.layers",),
        example=('scene.render.layers["RenderLayer"].use_pass_z = True', "scene.view_layers['ViewLayer'].use_pass_z = True"),
    ),
    DriftRule(
        "handlers-renamed",
        "scene_update_pre/post → depsgraph_update_pre/post",
        "2.80",
        "2.80",
        _Handlers,
        (r"'bpy\.app\.handlers' object has no attribute 'scene_update_(pre|post)'",),
        needles=("scene_update_",),
        example=("bpy.app.handlers.scene_update_post.append(f)", "bpy.app.handlers.depsgraph_update_post.append(f)"),
    ),
)
