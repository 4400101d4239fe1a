"""Lamps became lights in 2.80: bpy.data.lamps, bpy.types.*Lamp, 'LAMP' object types; the 'HEMI' light type is gone."""

from __future__ import annotations

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import dotted, string_value

TYPES = {
    "Lamp": "Light",
    "PointLamp": "PointLight",
    "SunLamp": "SunLight",
    "SpotLamp": "SpotLight",
    "AreaLamp": "AreaLight",
    "HemiLamp": "SunLight",
}
_RENAMED_VALUES = {"LAMP": "LIGHT", "HEMI": "SUN"}


def _is_type(node: cst.BaseExpression) -> bool:
    return (dotted(node) or "").endswith("type")


def _lamp_keys(module: cst.Module) -> int:
    """How many subscripts look an object up by the name "Lamp"."""
    count = 0

    class _Keys(cst.CSTVisitor):
        def visit_Subscript(self, node: cst.Subscript) -> None:
            nonlocal count
            key = node.slice[0].slice if len(node.slice) == 1 else None
            count += isinstance(key, cst.Index) and string_value(key.value) == "Lamp"

    module.visit(_Keys())
    return count


class _Lamps(RuleTransformer):
    def visit_Module(self, node: cst.Module) -> None:
        self.context: list[str] = []  # why a string literal here is an object/light type: "compare" or "argument"
        self.names_lamp = node.code.count("'Lamp'") + node.code.count('"Lamp"') > _lamp_keys(node)

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        owner = dotted(original.value)
        attr = original.attr.value
        new = "lights" if attr == "lamps" and owner in ("bpy.data", "D") else TYPES.get(attr) if owner == "bpy.types" else None
        if new and self.report(original, f"{owner}.{attr} is {owner}.{new} since 2.80", f"{owner}.{new}"):
            return updated.with_changes(attr=cst.Name(new))
        return updated

    def visit_Comparison(self, node: cst.Comparison) -> None:
        typed = _is_type(node.left) or any(_is_type(c.comparator) for c in node.comparisons)
        self.context.append("compare" if typed else "")

    def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
        self.context.pop()
        return updated

    def visit_Call(self, node: cst.Call) -> None:
        chain = dotted(node.func) or ""
        typed = chain.endswith(("lights.new", "lamps.new", "light_add", "lamp_add", "select_by_type"))
        self.context.append("argument" if typed else "")

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        self.context.pop()
        return updated

    def visit_Assign(self, node: cst.Assign) -> None:
        self.context.append("argument" if any(_is_type(t.target) for t in node.targets) else "")

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.BaseSmallStatement:
        self.context.pop()
        return updated

    def leave_Subscript(self, original: cst.Subscript, updated: cst.Subscript) -> cst.BaseExpression:
        key = original.slice[0].slice if len(original.slice) == 1 else None
        collection = dotted(original.value) or ""
        if not (isinstance(key, cst.Index) and string_value(key.value) == "Lamp" and collection.endswith(("objects", "lamps", "lights"))):
            return updated
        # the default scene's "Lamp" is "Light" since 2.80 (unless the script names something "Lamp" itself)
        if self.report(original, 'the default light object is named "Light" since 2.80', '["Light"]', certain=not self.names_lamp):
            return updated.with_changes(slice=[cst.SubscriptElement(cst.Index(cst.SimpleString('"Light"')))])
        return updated

    def leave_SimpleString(self, original: cst.SimpleString, updated: cst.SimpleString) -> cst.BaseExpression:
        old = string_value(original) or ""
        why = self.context[-1] if self.context else ""
        if old not in _RENAMED_VALUES or not why:
            return updated
        new = _RENAMED_VALUES[old]
        silent = why == "compare"  # a comparison with 'LAMP' is just always False: advisory
        message = f"the {'object' if old == 'LAMP' else 'light'} type '{old}' is '{new}' since 2.80"
        if self.report(original, message, f"'{new}'", blocking=not silent):
            return cst.SimpleString(original.quote + new + original.quote)
        return updated


RULES = (
    DriftRule(
        "lamps-to-lights",
        "lamps → lights (bpy.data.lamps, *Lamp types, 'LAMP', 'HEMI')",
        "2.80",
        "2.80",
        _Lamps,
        (
            r"'BlendData' object has no attribute 'lamps'",
            r'enum "(LAMP|HEMI)" not found',
            r'key "Lamp" not found',
            r"has no attribute '(Lamp|PointLamp|SunLamp|SpotLamp|AreaLamp|HemiLamp)'",
        ),
        needles=("lamp", "Lamp", "LAMP", "HEMI"),
        example=("if o.type == 'LAMP':\n    pass", "if o.type == 'LIGHT':"),
    ),
)
