"""The RNA facts drift rules check against (struct properties, operator parameters, colour lengths), per Blender version."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

from .tables import closest_table, probe_table

# Runs inside Blender (bpy module): dumps what the rules need to tell old API from new.
GENERATOR = r"""
import bpy, json, sys
UI = ("_PT_", "_MT_", "_HT_", "_UL_", "_OT_", "_GT_", "_GGT_", "_AST_")
out = {"blender_version": bpy.app.version_string, "structs": {}, "bases": {}, "ops": {}}
types = sorted(n for n in dir(bpy.types) if not n.startswith("_"))
out["menus"] = [n for n in types if "_MT_" in n]
color = {}
for name in types:
    rna = getattr(getattr(bpy.types, name), "bl_rna", None)
    if rna is None or name.startswith("Theme") or any(u in name for u in UI):
        continue
    props = [p for p in rna.properties if p.identifier != "rna_type"]
    names = {p.identifier for p in props} | {f.identifier for f in rna.functions}
    base = rna.base.identifier if rna.base is not None else None
    if base is not None and base in types:
        out["bases"][name] = base
        inherited = getattr(bpy.types, base).bl_rna
        names -= {p.identifier for p in inherited.properties} | {f.identifier for f in inherited.functions}
    out["structs"][name] = sorted(names)
    for p in props:
        if p.type == "FLOAT" and p.subtype in ("COLOR", "COLOR_GAMMA") and p.array_length in (3, 4):
            color.setdefault(p.identifier, set()).add(p.array_length)
out["color_lengths"] = {k: sorted(v) for k, v in color.items()}
for cat in dir(bpy.ops):
    if cat.startswith("_"):
        continue
    for name in dir(getattr(bpy.ops, cat)):
        if name.startswith("_"):
            continue
        try:
            rna = getattr(getattr(bpy.ops, cat), name).get_rna_type()
        except Exception:
            continue
        out["ops"][cat + "." + name] = [p.identifier for p in rna.properties if p.identifier != "rna_type"]
out["handlers"] = sorted(h for h in dir(bpy.app.handlers) if not h.startswith("_"))

def view3d():
    area = next(a for a in bpy.context.screen.areas if a.type == "VIEW_3D")
    return {"area": area, "region": next(r for r in area.regions if r.type == "WINDOW")}

# Operators whose poll fails headless (object or edit mode, active cube) but passes with a 3D viewport override.
needs_view3d = set()
POLL_CRASHES = {"anim.slot_channels_move_to_new_action"}  # its poll segfaults Blender 5.0.1 headless
for mode in ("OBJECT", "EDIT"):
    bpy.ops.wm.read_factory_settings(use_empty=False)
    if mode == "EDIT":
        bpy.ops.object.mode_set(mode="EDIT")
    for op in out["ops"]:
        cat, name = op.split(".")
        if op in POLL_CRASHES:
            continue
        fn = getattr(getattr(bpy.ops, cat), name)
        try:
            if fn.poll():
                continue
            with bpy.context.temp_override(**view3d()):
                if fn.poll():
                    needs_view3d.add(op)
        except Exception:
            pass
out["view3d_ops"] = sorted(needs_view3d)

# Node input sockets by name -> set of socket types, to know which names are always colours.
sockets = {}
for tree_type in ("ShaderNodeTree", "GeometryNodeTree", "CompositorNodeTree"):
    tree = bpy.data.node_groups.new("probe", tree_type)
    for attr in dir(bpy.types):
        cls = getattr(bpy.types, attr)
        if not (isinstance(cls, type) and issubclass(cls, bpy.types.Node)):
            continue
        try:
            node = tree.nodes.new(getattr(cls, "bl_idname", attr))
        except RuntimeError:
            continue
        for s in node.inputs:
            sockets.setdefault(s.name, set()).add(s.type)
        tree.nodes.remove(node)
out["rgba_sockets"] = sorted(n for n, types in sockets.items() if types == {"RGBA"})
json.dump(out, open(sys.argv[-1], "w"), separators=(",", ":"), sort_keys=True)
"""


def generate_rna_table(out: Path, python: str = sys.executable) -> dict:
    """Probe the bpy module of `python`; write and return the table (about a minute)."""
    return probe_table("RNA", GENERATOR, out, python, timeout=900)


@functools.cache
def rna_table(version: str = "4.5") -> dict:
    """The committed table closest to `version` (the newest one not newer; else the oldest)."""
    return closest_table("rna", version)


@functools.cache
def struct_names(version: str, struct: str) -> frozenset[str]:
    """The property and function names of an RNA struct ('Mesh'), inherited ones included; empty when unknown."""
    table = rna_table(version)
    names: set[str] = set()
    while struct in table["structs"]:
        names.update(table["structs"][struct])
        struct = table["bases"].get(struct, "")
    return frozenset(names)


def is_struct(version: str, name: str) -> bool:
    """True when `name` is an RNA struct of that version (the type names Blender's errors quote)."""
    return name in rna_table(version)["structs"]


@functools.cache
def all_names(version: str = "4.5") -> frozenset[str]:
    """Every property and function name of every RNA struct: a name outside it exists on no bpy type."""
    return frozenset(n for names in rna_table(version)["structs"].values() for n in names)


def operator_params(version: str, op: str) -> list[str] | None:
    """The keyword parameters of `bpy.ops.<op>` ('mesh.primitive_cube_add'), or None when no such operator."""
    return rna_table(version)["ops"].get(op)
