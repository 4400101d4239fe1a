"""Operator and function-call drift: renamed operators, changed keywords (size/radius/diameter, view_align …), to_mesh."""

from __future__ import annotations

import re

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import code, dotted, expr, keyword_arg, kwarg, number_value, renamed_kwarg, scaled, string_value, without_args
from ...rna import operator_params

RENAMED_OPS = {
    "object.lamp_add": "object.light_add",
    "object.select_name": "object.select_pattern",
    "import_scene.obj": "wm.obj_import",
    "export_scene.obj": "wm.obj_export",
    "import_mesh.stl": "wm.stl_import",
    "export_mesh.stl": "wm.stl_export",
    "import_mesh.ply": "wm.ply_import",
    "export_mesh.ply": "wm.ply_export",
    "group.create": "collection.create",
    "object.group_link": "object.collection_link",
    "group.objects_remove": "collection.objects_remove",
    "group.objects_add_active": "collection.objects_add_active",
    "object.gpencil_add": "object.grease_pencil_add",
    "scene.render_layer_add": "scene.view_layer_add",
    "import_image.to_plane": "image.import_as_mesh_planes",
}
# Keyword renames that keep the value (the IO operators' 4.0 names, select_name's pattern).
SAME_VALUE = {
    "constraint_orientation": "orient_type",
    "name": "pattern",
    "use_selection": "export_selected_objects",
    "use_materials": "export_materials",
    "use_normals": "export_normals",
    "use_uvs": "export_uv",
    "use_triangles": "export_triangulated_mesh",
    "use_mesh_modifiers": "apply_modifiers",
    "use_smooth_groups": "export_smooth_groups",
    "use_ascii": "ascii_format",
    "ascii": "ascii_format",
    "use_vertex_groups": "export_vertex_groups",
    "export_selected": "use_selection",
}
_AXES = {"X": "X", "Y": "Y", "Z": "Z", "-X": "NEGATIVE_X", "-Y": "NEGATIVE_Y", "-Z": "NEGATIVE_Z"}
_SIZES = ("size", "radius", "radius1", "major_radius")
_HALF_SIZE = ("mesh.primitive_cube_add", "mesh.primitive_plane_add", "mesh.primitive_grid_add", "mesh.primitive_monkey_add")


def op_name(chain: str | None) -> str | None:
    """'mesh.primitive_cube_add' for 'bpy.ops.mesh.primitive_cube_add'; also macro names 'TRANSFORM_OT_translate'."""
    if chain and chain.startswith("bpy.ops.") and chain.count(".") == 3:
        return chain.removeprefix("bpy.ops.")
    found = re.fullmatch(r"([A-Z]+)_OT_(\w+)", chain or "")
    return f"{found.group(1).lower()}.{found.group(2)}" if found else None


def convert_keyword(op: str, arg: cst.Arg, params: list[str], present: set[str]) -> list[cst.Arg]:
    """The 4.x form of a keyword the operator no longer takes: a renamed/converted keyword, or nothing (dropped)."""
    name = arg.keyword.value if arg.keyword else ""
    value = arg.value

    def new(kw: str, val: cst.BaseExpression | None = None) -> list[cst.Arg]:
        return [renamed_kwarg(arg, kw, val)] if kw in params and kw not in present else []

    if name in ("size", "radius", "diameter"):
        to = next((p for p in _SIZES if p in params), None)
        if to is None:
            return []
        factor = {"diameter": 0.5 if to != "size" else 1.0, "radius": 2.0 if to == "size" and op in _HALF_SIZE else 1.0}.get(name, 1.0)
        return new(to, scaled(value, factor) if factor != 1.0 else None)
    if name == "view_align":
        flag = value.value if isinstance(value, cst.Name) else None
        align = {"True": "'VIEW'", "False": "'WORLD'"}.get(flag or "", f"'VIEW' if {code(value)} else 'WORLD'")
        return new("align", expr(align))
    if name == "proportional":
        mode = string_value(value)
        out = new("use_proportional_edit", expr("False" if mode == "DISABLED" else "True" if mode else f"{code(value)} != 'DISABLED'"))
        extra = {"CONNECTED": "use_proportional_connected", "PROJECTED": "use_proportional_projected"}.get(mode or "")
        return out + ([keyword_arg(extra, expr("True"))] if extra and extra in params else [])
    if name == "axis" and isinstance(value, cst.Tuple | cst.List):
        nums = [number_value(e.value) for e in value.elements]
        if len(nums) == 3 and sum(1 for n in nums if n) == 1:
            return new("orient_axis", expr(repr("XYZ"[next(i for i, n in enumerate(nums) if n)])))
        return []
    if name == "vertex_only":  # bevel: vertex_only=True became affect='VERTICES' (2.90)
        flag = value.value if isinstance(value, cst.Name) else None
        return new("affect", expr({"True": "'VERTICES'", "False": "'EDGES'"}.get(flag or "", f"'VERTICES' if {code(value)} else 'EDGES'")))
    if name in ("axis_forward", "axis_up") and string_value(value) in _AXES:
        return new("forward_axis" if name == "axis_forward" else "up_axis", expr(repr(_AXES[string_value(value) or ""])))
    if name in SAME_VALUE:
        return new(SAME_VALUE[name])
    return []


class _OperatorKeywords(RuleTransformer):
    def _fixed_args(self, op: str, args: list[cst.Arg], original: cst.CSTNode) -> list[cst.Arg] | None:
        params = operator_params(self.scope.target, op)
        if params is None:
            return None
        present = {a.keyword.value for a in args if a.keyword}
        out: list[cst.Arg] = []
        changed = False
        for arg in args:
            name = arg.keyword.value if arg.keyword else None
            if name is None or name in params:
                out.append(self._macro(name, arg, original) if name else arg)
                changed |= out[-1] is not arg
                continue
            replacement = convert_keyword(op, arg, params, present)
            fix = ", ".join(code(a).rstrip(", ") for a in replacement) or f"drop {name}=…"
            if self.report(original, f'bpy.ops.{op}() has no parameter "{name}" in Blender {self.scope.target}', fix):
                out.extend(replacement)
                present.update(a.keyword.value for a in replacement if a.keyword)
                changed = True
            else:
                out.append(arg)
        if out and out[-1].comma is not cst.MaybeSentinel.DEFAULT:
            out[-1] = out[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return out if changed else None

    def _macro(self, name: str, arg: cst.Arg, where: cst.CSTNode) -> cst.Arg:
        """Keywords inside a macro's per-operator dict (extrude_region_move(TRANSFORM_OT_translate={...}))."""
        sub = op_name(name)
        if sub is None or not isinstance(arg.value, cst.Dict) or operator_params(self.scope.target, sub) is None:
            return arg
        as_args = [
            cst.Arg(e.value, keyword=cst.Name(k))
            for e in arg.value.elements
            if isinstance(e, cst.DictElement) and (k := string_value(e.key) or "").isidentifier()
        ]
        fixed = self._fixed_args(sub, as_args, where)
        if fixed is None or len(as_args) != len(arg.value.elements):
            return arg
        elements = [cst.DictElement(cst.SimpleString(repr(a.keyword.value)), a.value) for a in fixed if a.keyword]
        return arg.with_changes(value=cst.Dict(elements))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        op = op_name(dotted(original.func))
        if op is None or op.split(".")[0].isupper():
            return updated
        fixed = self._fixed_args(op, list(updated.args), original)
        return updated if fixed is None else updated.with_changes(args=fixed)


class _OperatorRenamed(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        op = op_name(dotted(original))
        new = RENAMED_OPS.get(op or "")
        if (
            op is None
            or new is None
            or operator_params(self.scope.target, op) is not None
            or operator_params(self.scope.target, new) is None
        ):
            return updated
        if self.report(original, f"bpy.ops.{op} is bpy.ops.{new} in Blender {self.scope.target}", f"bpy.ops.{new}"):
            return expr(f"bpy.ops.{new}")
        return updated


_INVALID_KW = re.compile(r"(\w+)\(\): was called with invalid keyword argument\(s\) \(([^)]*)\)")
_MUST_KW = re.compile(r"\.(\w+)\(\): required parameter \"(\w+)\" to be a keyword argument")


class _FunctionKeywords(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        bad = _INVALID_KW.search(self.scope.error)
        self.drop = (bad.group(1), {k.strip() for k in bad.group(2).split(",")}) if bad else None
        must = _MUST_KW.search(self.scope.error)
        self.keyword = (must.group(1), must.group(2)) if must else None

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = original.func.attr.value if isinstance(original.func, cst.Attribute) else None
        if name is None:
            return updated
        if self.drop and name == self.drop[0].rsplit(".", 1)[-1] and any(kwarg(original, k) for k in self.drop[1]):
            if self.report(original, f"{name}() no longer takes {', '.join(sorted(self.drop[1]))}", "drop the keyword(s)", certain=False):
                return without_args(updated, self.drop[1])
        positional = [a for a in updated.args if a.keyword is None and a.star == ""]
        if self.keyword and name == self.keyword[0] and positional and kwarg(updated, self.keyword[1]) is None:
            last = positional[-1]
            fix = f"{self.keyword[1]}={code(last.value)}"
            if self.report(original, f"{name}(): {self.keyword[1]} must be passed by keyword", fix, certain=False):
                return updated.with_changes(args=[renamed_kwarg(a, self.keyword[1]) if a is last else a for a in updated.args])
        return updated


class _ToMesh(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = original.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "to_mesh"):
            return updated
        positional = [a for a in original.args if a.keyword is None]
        modifiers = kwarg(original, "apply_modifiers") or (positional[1] if len(positional) >= 2 else None)
        if len(positional) < 2 and kwarg(original, "scene") is None:
            return updated
        obj = code(func.value)
        applied = modifiers is not None and not (isinstance(modifiers.value, cst.Name) and modifiers.value.value == "False")
        source = f"{obj}.evaluated_get(bpy.context.evaluated_depsgraph_get())" if applied else obj
        new = f"bpy.data.meshes.new_from_object({source})"
        if self.report(original, "Object.to_mesh(scene, apply_modifiers, settings) changed in 2.80", new):
            return expr(new)
        return updated


# Default names Blender gives a new modifier where the type's title-case is not it (modifiers["Subdivision"] finds SUBSURF's).
_MODIFIER_NAMES = {"SUBSURF": "Subdivision", "WEIGHTED_NORMAL": "WeightedNormal", "SIMPLE_DEFORM": "SimpleDeform"}
_OBJECT_OPS = {"modifier_add": "modifiers", "constraint_add": "constraints"}
_NO_OBJECT_OP = re.compile(r"'Object' object has no attribute '(modifier_add|constraint_add)'")


class _ObjectOperatorCall(RuleTransformer):
    """obj.modifier_add(type=T) (the operator's name called on an object) → obj.modifiers.new(name=…, type=T)."""

    def visit_Module(self, node: cst.Module) -> None:
        found = _NO_OBJECT_OP.search(self.scope.error)
        self.method = found.group(1) if found else None

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if self.method is None or not (isinstance(func, cst.Attribute) and func.attr.value == self.method):
            return updated
        if (dotted(func.value) or "").startswith("bpy.ops"):
            return updated  # the operator itself
        type_arg = kwarg(updated, "type") or (updated.args[0] if len(updated.args) == 1 and updated.args[0].keyword is None else None)
        if type_arg is None:
            return updated
        collection = _OBJECT_OPS[self.method]
        owner = code(func.value)
        kind = string_value(type_arg.value)
        args = f"type={code(type_arg.value)}"
        if collection == "modifiers":
            name = _MODIFIER_NAMES.get(kind or "", (kind or "Modifier").replace("_", " ").title())
            args = f"name={name!r}, {args}"
        fix = f"{owner}.{collection}.new({args})"
        if not self.report(original, f"{self.method} is an operator (bpy.ops.object.{self.method}), not a method of Object", fix):
            return updated
        return expr(fix)


# Default modifier names a later Blender changed: old name → (version it changed in, new name).
RENAMED_MODIFIER_NAMES = {"Subsurf": ("2.90", "Subdivision")}
_MODIFIER_NAME_ERROR = re.compile(r'key "(\w+)" not found|[Mm]odifier ["\'](\w+)["\'] not found')


class _ModifierDefaultName(RuleTransformer):
    """modifiers["Subsurf"] (the name modifier_add gave before 2.90) → modifiers["Subdivision"], where a run failed on it."""

    def visit_Module(self, node: cst.Module) -> None:
        found = _MODIFIER_NAME_ERROR.search(self.scope.error)
        self.old = (found.group(1) or found.group(2)) if found else None

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        old = string_value(original)
        entry = RENAMED_MODIFIER_NAMES.get(old or "")
        if old is None or entry is None or old != self.old:
            return updated
        quote = original.value[0]
        why = f'a new {old} modifier is named "{entry[1]}" since Blender {entry[0]}'
        if self.report(original, why, f"{quote}{entry[1]}{quote}", certain=False):
            return updated.with_changes(value=f"{quote}{entry[1]}{quote}")
        return updated


RULES = (
    DriftRule(
        "object-operator-call",
        "obj.modifier_add(type=T) / obj.constraint_add(type=T) → obj.modifiers.new(name, type=T) / obj.constraints.new(type=T)",
        "2.50",
        "2.50",
        _ObjectOperatorCall,
        (r"'Object' object has no attribute '(modifier_add|constraint_add)'",),
        runtime_only=True,
        example=('box.modifier_add(type="BOOLEAN")', "box.modifiers.new(name='Boolean', type=\"BOOLEAN\")"),
    ),
    DriftRule(
        "operator-renamed",
        "renamed operators (lamp_add → light_add, import_scene.obj → wm.obj_import …)",
        "2.80",
        "2.80",
        _OperatorRenamed,
        (r'Calling operator "bpy\.ops\.[\w.]+" error, could not be found',),
        needles=tuple(RENAMED_OPS),
        example=("bpy.ops.object.lamp_add(type='POINT')", "bpy.ops.object.light_add(type='POINT')"),
    ),
    DriftRule(
        "operator-keywords",
        "changed operator keywords (size/radius/diameter, view_align, proportional …)",
        "2.80",
        "2.80",
        _OperatorKeywords,
        (r'keyword "\w+" unrecognized',),
        needles=("bpy.ops",),
        example=("bpy.ops.mesh.bevel(offset=0.1, vertex_only=True)", "bpy.ops.mesh.bevel(offset=0.1, affect='VERTICES')"),
        leaves_out="operator keywords 2.80+ removed with nothing in their place (view_align, constraint_orientation …)",
    ),
    DriftRule(
        "function-keywords",
        "removed or keyword-only arguments of API functions",
        "2.80",
        "2.80",
        _FunctionKeywords,
        (r"was called with invalid keyword argument", r"to be a keyword argument"),
        runtime_only=True,
        example=('me.uv_layers.new("UV")', 'me.uv_layers.new(name="UV")'),
        leaves_out="API function keywords the target Blender removed with nothing in their place",
    ),
    DriftRule(
        "object-to-mesh",
        "Object.to_mesh(scene, …) → bpy.data.meshes.new_from_object(evaluated object)",
        "2.80",
        "2.80",
        _ToMesh,
        (r"Object\.to_mesh\(\): (takes at most|was called with)",),
        needles=("to_mesh(",),
        example=(
            "me = ob.to_mesh(bpy.context.scene, True, 'PREVIEW')",
            "me = bpy.data.meshes.new_from_object(ob.evaluated_get(bpy.context.evaluated_depsgraph_get()))",
        ),
    ),
    DriftRule(
        "modifier-default-name",
        'a modifier found by the default name Blender used to give it (modifiers["Subsurf"] → modifiers["Subdivision"])',
        "2.90",
        "2.90",
        _ModifierDefaultName,
        (r'key "Subsurf" not found', r"[Mm]odifier [\"']Subsurf[\"'] not found"),
        runtime_only=True,
        example=('bpy.context.object.modifiers["Subsurf"].levels = 4', 'bpy.context.object.modifiers["Subdivision"].levels = 4'),
    ),
)
