"""Runs inside Blender: dump bpy.types/bpy.ops RNA and mathutils/bmesh/bpy.* module members to out/symbols.json.

Loaded by path through the harness, never imported by the package: standard library + bpy only,
and Python 3.10-compatible so that older Blender executables (Debian's 3.4) can run it.
Anything that raises while being inspected is skipped and listed under "errors".
"""

import importlib
import inspect
import json
import os
import time

import bpy

SCHEMA_VERSION = 1
DOC_CHARS = 1500
OUT_PATH = os.path.join("out", "symbols.json")
# Python modules walked with dir() + __doc__ (bpy.types and bpy.ops are walked through RNA instead).
PY_MODULES = (
    "mathutils",
    "mathutils.geometry",
    "mathutils.noise",
    "mathutils.bvhtree",
    "mathutils.kdtree",
    "mathutils.interpolate",
    "bmesh",
    "bmesh.ops",
    "bmesh.types",
    "bmesh.utils",
    "bmesh.geometry",
    "bpy.props",
    "bpy.utils",
    "bpy.path",
    "bpy.app",
    "bpy.app.handlers",
    "bpy.app.timers",
    "bpy.msgbus",
)
# Registered UI/operator classes in bpy.types (VIEW3D_PT_…, MESH_OT_…) are not API: operators come from bpy.ops.
SKIPPED_BASES = ("Panel", "Menu", "Header", "Operator", "Macro", "Gizmo", "GizmoGroup")
PLAIN_TYPES = (bool, int, float, str, tuple)


class EnumTable:
    """Enum item lists stored once and referenced by index (the icon enum alone repeats on hundreds of parameters)."""

    def __init__(self):
        self.index = {}
        self.items = []

    def add(self, items):
        """Index of this list of (identifier, name, description) items."""
        key = tuple(items)
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append([list(item) for item in key])
        return self.index[key]


def short_float(value):
    """RNA floats are single precision: keep 7 significant digits (0.1, not 0.10000000149011612)."""
    return float(f"{value:.7g}")


def plain(value):
    """A JSON-friendly copy of an RNA default (numbers rounded, arrays flattened to lists)."""
    if isinstance(value, float):
        return short_float(value)
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    try:
        return [plain(v) for v in value]
    except TypeError:
        return repr(value)


def prop_record(prop, enums):
    """One RNA property (or function parameter): type, default, enum items, pointer target, flags."""
    rec = {"id": prop.identifier, "name": prop.name, "description": prop.description, "type": prop.type}
    if prop.subtype not in ("NONE", ""):
        rec["subtype"] = prop.subtype
    if prop.is_readonly:
        rec["readonly"] = True
    kind = prop.type
    if kind in ("BOOLEAN", "INT", "FLOAT"):
        if prop.array_length:
            dims = [d for d in getattr(prop, "array_dimensions", ()) if d]
            rec["array"] = dims if len(dims) > 1 else [prop.array_length]
            rec["default"] = plain(prop.default_array)
        else:
            rec["default"] = plain(prop.default)
        if kind != "BOOLEAN":
            rec["min"], rec["max"] = plain(prop.hard_min), plain(prop.hard_max)
    elif kind == "STRING":
        rec["default"] = prop.default
    elif kind == "ENUM":
        rec["enum"] = enums.add((i.identifier, i.name, i.description) for i in prop.enum_items)
        if prop.is_enum_flag:
            rec["flag"] = True
            rec["default"] = sorted(prop.default_flag)
        else:
            rec["default"] = prop.default
    elif kind in ("POINTER", "COLLECTION"):
        if prop.fixed_type is not None:
            rec["fixed_type"] = prop.fixed_type.identifier
        srna = getattr(prop, "srna", None)
        if kind == "COLLECTION" and srna is not None:
            rec["srna"] = srna.identifier
    return rec


def func_record(func, enums):
    """One RNA function with its parameters (required, optional with default, outputs)."""
    rec = {"id": func.identifier, "description": func.description, "params": []}
    if not func.use_self:
        rec["static"] = True
    if func.is_registered:
        rec["registered"] = True  # a callback a Python subclass implements (Operator.execute, Panel.draw)
    for param in func.parameters:
        p = prop_record(param, enums)
        if param.is_required:
            p["required"] = True
        if param.is_output:
            p["output"] = True
        rec["params"].append(p)
    return rec


def doc_of(value):
    """The first DOC_CHARS of a docstring, or ''."""
    doc = getattr(value, "__doc__", None)
    return doc[:DOC_CHARS] if isinstance(doc, str) else ""


def signature_of(value):
    """inspect.signature as text where Python knows it (Python-defined functions), else None."""
    try:
        return str(inspect.signature(value))
    except (TypeError, ValueError):
        return None


def member_record(owner, name, value, errors):
    """A Python-level member: class, function/method, attribute (descriptor) or data value."""
    rec = {"id": name}
    if isinstance(value, type):
        rec["kind"] = "class"
        rec["doc"] = doc_of(value)
        rec["members"] = class_members(value, errors)
    elif isinstance(value, (staticmethod, classmethod)):
        rec["kind"] = "function"
        rec["doc"] = doc_of(value)
        rec["signature"] = signature_of(value.__func__)
    elif isinstance(value, property) or type(value).__name__ in ("getset_descriptor", "member_descriptor"):
        rec["kind"] = "attribute"
        rec["doc"] = doc_of(value)
    elif callable(value):
        rec["kind"] = "function"
        rec["doc"] = doc_of(value)
        rec["signature"] = signature_of(value)
    else:
        rec["kind"] = "data"
        # a module's data has no docstring of its own; struct-sequence fields (bpy.app.version) document on the type
        rec["doc"] = "" if inspect.ismodule(owner) else doc_of(getattr(type(owner), name, None))
        if isinstance(value, PLAIN_TYPES):
            rec["value"] = repr(value)[:120]
    return rec


def class_members(cls, errors, skip=()):
    """Public members a class adds over `object` (and over `skip`), read statically."""
    base_names = set(dir(object)) | set(skip)
    members = []
    for name in dir(cls):
        if name.startswith("_") or name in base_names:
            continue
        try:
            value = inspect.getattr_static(cls, name)
            members.append(member_record(cls, name, value, errors))
        except Exception as err:
            errors.append([f"{cls.__name__}.{name}", repr(err)])
    return members


def struct_record(name, cls, enums, errors):
    """One bpy.types struct: the RNA properties/functions it adds over its base, plus Python-defined members."""
    rna = cls.bl_rna
    base = rna.base
    base_props = {p.identifier: p for p in base.properties} if base is not None else {}
    base_funcs = set(base.functions.keys()) if base is not None else set()
    rec = {"id": name, "name": rna.name, "description": rna.description, "base": base.identifier if base is not None else None}
    rec["properties"] = []
    for prop in rna.properties:
        inherited = base_props.get(prop.identifier)
        same = inherited is not None and (inherited.description, inherited.type) == (prop.description, prop.type)
        if prop.identifier == "rna_type" or same:
            continue  # documented on the base struct
        try:
            rec["properties"].append(prop_record(prop, enums))
        except Exception as err:
            errors.append([f"bpy.types.{name}.{prop.identifier}", repr(err)])
    rec["functions"] = []
    for func in rna.functions:
        if func.identifier in base_funcs:
            continue
        try:
            rec["functions"].append(func_record(func, enums))
        except Exception as err:
            errors.append([f"bpy.types.{name}.{func.identifier}", repr(err)])
    py_base = getattr(bpy.types, base.identifier, None) if base is not None else bpy.types.bpy_struct
    rna_names = set(rna.properties.keys()) | set(rna.functions.keys())
    rec["members"] = class_members(cls, errors, skip=rna_names | set(dir(py_base)))
    return rec


def is_registered_ui(cls):
    """Registered panels, menus, operators, gizmos: Python classes built on a UI base, not API of their own."""
    for base_name in SKIPPED_BASES:
        base = getattr(bpy.types, base_name, None)
        if base is not None and cls is not base and issubclass(cls, base):
            return True
    return False


def probe_types(enums, errors):
    """Every bpy.types struct (RNA) and the plain Python classes there (bpy_struct, bpy_prop_collection)."""
    structs, classes = [], []
    for name in dir(bpy.types):
        if name.startswith("_"):
            continue
        try:
            cls = getattr(bpy.types, name)
            if getattr(cls, "bl_rna", None) is not None:
                if not is_registered_ui(cls):
                    structs.append(struct_record(name, cls, enums, errors))
            elif isinstance(cls, type):
                classes.append(member_record(bpy.types, name, cls, errors))
        except Exception as err:
            errors.append(["bpy.types." + name, repr(err)])
    return structs, classes


def probe_operators(enums, errors):
    """Every bpy.ops operator: description and properties (its keyword arguments)."""
    operators = []
    for mod_name in dir(bpy.ops):
        if mod_name.startswith("_"):
            continue
        try:
            op_names = [n for n in dir(getattr(bpy.ops, mod_name)) if not n.startswith("_")]
        except Exception as err:
            errors.append(["bpy.ops." + mod_name, repr(err)])
            continue
        for op_name in op_names:
            try:
                rna = getattr(getattr(bpy.ops, mod_name), op_name).get_rna_type()
                props = [prop_record(p, enums) for p in rna.properties if p.identifier != "rna_type"]
                operators.append(
                    {
                        "module": mod_name,
                        "id": op_name,
                        "idname": rna.identifier,
                        "name": rna.name,
                        "description": rna.description,
                        "properties": props,
                    }
                )
            except Exception as err:
                errors.append([f"bpy.ops.{mod_name}.{op_name}", repr(err)])
    return operators


def resolve(dotted):
    """A module (or module attribute such as bpy.app.handlers) by dotted name; None when unavailable."""
    parts = dotted.split(".")
    try:
        obj = importlib.import_module(parts[0])
        for part in parts[1:]:
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return None
    return obj


def probe_modules(errors):
    """Members of mathutils, bmesh and the bpy.* Python modules, from dir() and __doc__."""
    modules = []
    for dotted in PY_MODULES:
        mod = resolve(dotted)
        if mod is None:
            continue
        members = []
        for name in dir(mod):
            if name.startswith("_"):
                continue
            try:
                value = getattr(mod, name)
                if inspect.ismodule(value) or f"{dotted}.{name}" in PY_MODULES:
                    continue
                members.append(member_record(mod, name, value, errors))
            except Exception as err:
                errors.append([f"{dotted}.{name}", repr(err)])
        modules.append({"id": dotted, "doc": doc_of(mod) if inspect.ismodule(mod) else "", "members": members})
    return modules


def probe_context(errors):
    """Names bpy.context offers: the RNA of bpy.types.Context plus screen-context members (active_object, …)."""
    try:
        return sorted(n for n in dir(bpy.context) if not n.startswith("_") and n not in ("bl_rna", "rna_type"))
    except Exception as err:
        errors.append(["bpy.context", repr(err)])
        return []


def main():
    """Probe everything and write out/symbols.json."""
    timings = {}
    enums, errors = EnumTable(), []
    t = time.perf_counter()
    structs, classes = probe_types(enums, errors)
    timings["types"] = time.perf_counter() - t
    t = time.perf_counter()
    operators = probe_operators(enums, errors)
    timings["operators"] = time.perf_counter() - t
    t = time.perf_counter()
    modules = probe_modules(errors)
    context = probe_context(errors)
    timings["modules"] = time.perf_counter() - t
    data = {
        "schema_version": SCHEMA_VERSION,
        "blender_version": bpy.app.version_string,
        "version": list(bpy.app.version),
        "structs": structs,
        "classes": classes,
        "operators": operators,
        "modules": modules,
        "context": context,
        "enums": enums.items,
        "errors": errors,
        "timings": timings,
    }
    os.makedirs("out", exist_ok=True)
    tmp = OUT_PATH + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, separators=(",", ":"))
    os.replace(tmp, OUT_PATH)
    print(f"probe: {len(structs)} structs, {len(operators)} operators, {len(modules)} modules, {len(errors)} errors")


if __name__ == "__main__":
    main()
