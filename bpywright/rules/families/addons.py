"""Add-on drift (2.80): register_module removed, INFO_MT_* menus renamed, properties must be annotations."""

from __future__ import annotations

import re

import libcst as cst

from ..base import DriftRule, RuleTransformer
from ..fragments import code, dotted, stmt
from ..rna import rna_table

MENUS = {
    "INFO_MT_file_import": "TOPBAR_MT_file_import",
    "INFO_MT_file_export": "TOPBAR_MT_file_export",
    "INFO_MT_file": "TOPBAR_MT_file",
    "INFO_MT_help": "TOPBAR_MT_help",
    "INFO_MT_render": "TOPBAR_MT_render",
    "INFO_MT_add": "VIEW3D_MT_add",
    "INFO_MT_mesh_add": "VIEW3D_MT_mesh_add",
    "INFO_MT_curve_add": "VIEW3D_MT_curve_add",
    "INFO_MT_surface_add": "VIEW3D_MT_surface_add",
    "INFO_MT_armature_add": "VIEW3D_MT_armature_add",
    "INFO_MT_metaball_add": "VIEW3D_MT_metaball_add",
    "INFO_MT_camera_add": "VIEW3D_MT_camera_add",
    "VIEW3D_MT_object_specials": "VIEW3D_MT_object_context_menu",
    "VIEW3D_MT_edit_mesh_specials": "VIEW3D_MT_edit_mesh_context_menu",
    "INFO_MT_edit_armature_add": "TOPBAR_MT_edit_armature_add",
    "INFO_MT_edit_curve_add": "TOPBAR_MT_edit_curve_add",
}
_BPY_TYPES = {
    "Operator",
    "Panel",
    "Menu",
    "PropertyGroup",
    "AddonPreferences",
    "UIList",
    "Header",
    "Macro",
    "Gizmo",
    "GizmoGroup",
    "KeyingSetInfo",
}


def _registrable(node: cst.ClassDef, known: set[str]) -> bool:
    """True for classes deriving from bpy.types.* (directly, by an imported name, or via another such class)."""
    for base in node.bases:
        chain = dotted(base.value) or ""
        if chain.startswith("bpy.types.") or chain in _BPY_TYPES or chain in known:
            return True
    return False


def registrable_classes(module: cst.Module) -> list[str]:
    """Top-level classes that register with bpy.utils.register_class, in definition order."""
    names: list[str] = []
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and _registrable(statement, set(names)):
            names.append(statement.name.value)
    return names


class _RegisterModule(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.classes = registrable_classes(node)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine):
        small = original.body[0] if len(original.body) == 1 else None
        chain = dotted(small.value.func) if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) else None
        found = re.fullmatch(r"bpy\.utils\.(un)?register_module", chain or "")
        if found is None:
            return updated
        undo = bool(found.group(1))
        names = ", ".join(self.classes) + ("," if len(self.classes) == 1 else "")
        loop = f"for _cls in {'reversed' if undo else ''}(({names})):\n    bpy.utils.{'un' if undo else ''}register_class(_cls)\n"
        if not self.report(
            original, f"{chain} was removed in 2.80: register each class", loop.replace("\n   ", "") if self.classes else "remove"
        ):
            return updated
        return stmt(loop).with_changes(leading_lines=original.leading_lines) if self.classes else cst.RemovalSentinel.REMOVE


class _Menus(RuleTransformer):
    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        old = original.attr.value
        new = MENUS.get(old)
        menus = rna_table(self.scope.target)["menus"]
        if new is None or old in menus or new not in menus or dotted(original.value) not in ("bpy.types", "types"):
            return updated
        if self.report(original, f"menu {old} is {new} since 2.80", f"bpy.types.{new}"):
            return updated.with_changes(attr=cst.Name(new))
        return updated


_PROPERTY = re.compile(r"^(bpy\.props\.|props\.)?(Bool|Int|Float|String|Enum|Pointer|Collection|FloatVector|IntVector|BoolVector)Property$")


class _Annotations(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.known: set[str] = set()
        self.depth = 0

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if _registrable(node, self.known):
            self.known.add(node.name.value)
            self.depth += 1

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.BaseStatement:
        if original.name.value in self.known:
            self.depth -= 1
        return updated

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign):
        target = original.targets[0].target if len(original.targets) == 1 else None
        call = original.value
        if not (self.depth and isinstance(target, cst.Name) and isinstance(call, cst.Call) and _PROPERTY.match(dotted(call.func) or "")):
            return updated
        fix = f"{target.value}: {code(call)}"
        if self.report(original, f"class properties are annotations since 2.80 ({target.value}: …Property(…))", fix):
            return cst.AnnAssign(target=updated.targets[0].target, annotation=cst.Annotation(updated.value), value=None)
        return updated


RULES = (
    DriftRule(
        "register-module",
        "bpy.utils.register_module → register_class for each class",
        "2.80",
        "2.80",
        _RegisterModule,
        (r"module 'bpy\.utils' has no attribute '(un)?register_module'",),
        needles=("register_module",),
        example=("bpy.utils.register_module(__name__)", "for _cls in (MyProps, OBJECT_OT_hello):\n    bpy.utils.register_class(_cls)"),
    ),
    DriftRule(
        "menu-renamed",
        "INFO_MT_* / *_specials menus renamed (TOPBAR_MT_*, VIEW3D_MT_*_context_menu)",
        "2.80",
        "2.80",
        _Menus,
        (r"has no attribute '(INFO_MT_\w+|VIEW3D_MT_\w+_specials)'",),
        needles=("_MT_",),
        example=("bpy.types.INFO_MT_mesh_add.append(menu)", "bpy.types.VIEW3D_MT_mesh_add.append(menu)"),
    ),
    DriftRule(
        "props-annotations",
        "class-level bpy.props assignments → annotations",
        "2.80",
        "2.80",
        _Annotations,
        (r"_PropertyDeferred",),
        needles=("Property(",),
        example=("    size = bpy.props.FloatProperty(default=1.0)", "    size: bpy.props.FloatProperty(default=1.0)"),
    ),
)
