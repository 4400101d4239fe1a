"""Normalise/merge pass: probe JSON + inventory + recipe usage lines → one Symbol per fully qualified name."""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterable, Iterator

from .. import pyast
from .inventory import InventoryEntry
from .symbols import Kind, Symbol

ENUM_SHOWN = 10  # enum items spelled out in a type string; all of them are in Symbol.enum_items
DESCRIPTION_CHARS = 600
EXTREME = 1e30
EXAMPLE_CHARS = 120
GENERIC_WORDS = {"data", "obj", "new", "item", "self", "ob"}  # receiver names that say nothing about their type
COLLECTION_API = re.compile(r"\((\w+)\)$")  # 'Collection of Modifier (ObjectModifiers)' → ObjectModifiers
SWIZZLE = re.compile(r"[xyzw]{2,4}")  # mathutils.Vector.xzy … (hundreds of generated attributes)
DIRECTIVE = re.compile(r"^\s*(?:\S+\s+)?(?:\.\. \w+:: )?[\w.]*?(\w+)\((.*)\)\s*$")
ROLE_KIND: dict[str, Kind] = {
    "py:module": "module",
    "py:class": "class",
    "py:exception": "class",
    "py:data": "data",
    "py:attribute": "property",
    "py:function": "function",
    "py:method": "function",
    "py:classmethod": "function",
    "py:staticmethod": "function",
}


def number(value: float | int) -> str:
    """A bound as the docs write it: 0, 1, 0.5, inf."""
    if isinstance(value, float) and abs(value) >= EXTREME:
        return "inf" if value > 0 else "-inf"
    if isinstance(value, int) and abs(value) >= 2**31 - 1:
        return "inf" if value > 0 else "-inf"
    return f"{value:g}" if isinstance(value, float) else str(value)


def enum_ids(rec: dict, enums: list) -> list[str]:
    """Identifiers of an enum property's items."""
    return [item[0] for item in enums[rec["enum"]]] if "enum" in rec else []


def type_string(rec: dict, enums: list) -> str:
    """'float array[3]', 'int in [0, 6]', 'enum in ['A', 'B']', 'pointer to Material', 'Collection of Modifier (ObjectModifiers)'."""
    kind = rec["type"]
    if kind in ("POINTER", "COLLECTION"):
        target = rec.get("fixed_type", "bpy_struct")
        if kind == "POINTER":
            return f"pointer to {target}"
        return f"Collection of {target}" + (f" ({rec['srna']})" if rec.get("srna") else "")
    if kind == "ENUM":
        ids = enum_ids(rec, enums)
        shown = ", ".join(repr(i) for i in ids[:ENUM_SHOWN]) + (f", … ({len(ids)} items)" if len(ids) > ENUM_SHOWN else "")
        return f"enum {'set ' if rec.get('flag') else ''}in [{shown}]"
    text = {"BOOLEAN": "boolean", "INT": "int", "FLOAT": "float", "STRING": "string"}.get(kind, kind.lower())
    if "array" in rec:
        text += " array" + "".join(f"[{n}]" for n in rec["array"])
    low, high = number(rec.get("min", 0)), number(rec.get("max", 0))
    if "min" in rec and not (low == "-inf" and high == "inf"):
        text += f" in [{low}, {high}]"
    return text


def nested(flat: list, dims: list[int]) -> tuple:
    """A flat default array shaped as nested tuples (matrices)."""
    if len(dims) <= 1 or len(flat) != dims[0] * dims[1]:
        return tuple(flat)
    return tuple(tuple(flat[i * dims[1] : (i + 1) * dims[1]]) for i in range(dims[0]))


def default_string(rec: dict) -> str | None:
    """The default as Python source: 2.0, (0.0, 0.0, 0.0), 'WORLD', {'X'}; None for pointers and collections."""
    if rec["type"] in ("POINTER", "COLLECTION"):
        return None
    value = rec.get("default")
    if rec.get("flag"):
        return "{" + ", ".join(repr(v) for v in value) + "}" if value else "set()"
    if isinstance(value, list):
        return repr(nested(value, rec.get("array", [])))
    return None if value is None else repr(value)


def params_signature(params: list[dict]) -> str:
    """'(name, type, size=2.0)' from RNA parameters (outputs excluded)."""
    parts = []
    for p in params:
        if p.get("output"):
            continue
        parts.append(p["id"] if p.get("required") else f"{p['id']}={default_string(p) or 'None'}")
    return "(" + ", ".join(parts) + ")"


def params_text(params: list[dict], enums: list) -> str:
    """Parameter and return lines appended to a description (what a model needs to call it right)."""
    lines = {p["id"]: f"{p['id']} ({type_string(p, enums)})" + (f": {p['description']}" if p["description"] else "") for p in params}
    inputs = [lines[p["id"]] for p in params if not p.get("output")]
    outputs = [lines[p["id"]] for p in params if p.get("output")]
    text = ("\nParameters: " + "; ".join(inputs)) if inputs else ""
    return text + (("\nReturns: " + "; ".join(outputs)) if outputs else "")


def parse_doc(doc: str, name: str) -> tuple[str | None, str, str | None]:
    """(signature, description, type) from a reST docstring ('.. function:: f(a, b)', ':type: float', ':rtype: Vector')."""
    lines = inspect.cleandoc(doc or "").splitlines()
    signature = None
    if lines and (match := DIRECTIVE.match(lines[0])) and match[1] == name:
        signature = f"({match[2]})"
        lines = lines[1:]
    prose: list[str] = []
    fields: dict[str, str] = {}
    for line in lines:
        stripped = line.strip()
        if field := re.match(r"(:r?type:|->)\s*(.+)$", stripped):
            fields.setdefault(field[1], field[2])
        elif not fields and not stripped.startswith((":", ".. ")):
            prose.append(stripped)
        else:
            fields.setdefault("end", "")
    description = re.sub(r"\s+", " ", " ".join(prose)).strip()[:DESCRIPTION_CHARS]
    # an attribute documents ':type:'; a function ':rtype:' (its ':type:' lines belong to arguments) or '-> dict(…)'
    found = fields.get(":rtype:") or fields.get("->") or (fields.get(":type:") if signature is None and ":arg" not in (doc or "") else None)
    return signature, description, re.sub(r":class:`~?([^`]+)`", r"\1", found).strip() if found else None


class SymbolTable:
    """Symbols by name while the passes fill them in (first definition of a name wins)."""

    def __init__(self, version: str):
        self.version = version
        self.by_name: dict[str, Symbol] = {}
        self.namespaces: set[str] = set()

    def add(self, name: str, kind: Kind, role: str, parent: str | None, **fields) -> Symbol | None:
        """Add one introspected symbol; a repeated name keeps the first."""
        if name in self.by_name:
            return None
        fields["description"] = (fields.get("description") or "").strip()
        sym = Symbol(name=name, kind=kind, role=role, parent=parent, blender_version=self.version, sources=["introspect"], **fields)
        self.by_name[name] = sym
        return sym

    def add_property(self, owner: str, rec: dict, enums: list) -> None:
        """An RNA property of a struct."""
        self.add(
            f"{owner}.{rec['id']}",
            "property",
            "py:attribute",
            owner,
            type=type_string(rec, enums),
            description=rec["description"],
            enum_items=enum_ids(rec, enums),
            readonly=bool(rec.get("readonly")),
            default=default_string(rec),
        )

    def add_function(self, owner: str, rec: dict, enums: list) -> None:
        """An RNA function of a struct (a method; static ones are classmethods)."""
        params = rec["params"]
        outputs = [type_string(p, enums) for p in params if p.get("output")]
        enum_params = [p for p in params if p["type"] == "ENUM" and not p.get("output")]
        self.add(
            f"{owner}.{rec['id']}",
            "function",
            "py:classmethod" if rec.get("static") else "py:method",
            owner,
            signature=params_signature(params),
            type=", ".join(outputs) or None,
            description=rec["description"] + params_text(params, enums),
            enum_items=enum_ids(enum_params[0], enums) if len(enum_params) == 1 else [],
        )

    def add_member(self, owner: str, rec: dict, in_class: bool) -> None:
        """A Python-level member of a module or (in_class) of a class, recursively."""
        name = f"{owner}.{rec['id']}"
        signature, description, type_ = parse_doc(rec.get("doc", ""), rec["id"])
        if rec.get("signature"):
            signature = re.sub(r"^\(self,? ?", "(", rec["signature"])
        if rec["kind"] == "class":
            self.add(name, "class", "py:class", owner, signature=signature, description=description)
            for member in rec.get("members", []):
                if not (rec["id"] in ("Vector", "Color") and SWIZZLE.fullmatch(member["id"])):
                    self.add_member(name, member, True)
            return
        kinds: dict[str, tuple[Kind, str]] = {
            "function": ("function", "py:method" if in_class else "py:function"),
            "attribute": ("property", "py:attribute"),
        }
        kind, role = kinds.get(rec["kind"], ("data", "py:data"))
        self.add(
            name,
            kind,
            role,
            owner,
            signature=signature if kind == "function" else None,
            type=type_,
            description=description,
            default=rec.get("value"),
        )

    def add_probe(self, probe: dict) -> None:
        """Every struct, operator and module member the probe found."""
        enums = probe.get("enums", [])
        self.namespaces |= {"bpy.types", "bpy.ops", *(mod["id"] for mod in probe.get("modules", []))}
        self.add("bpy.types", "module", "py:module", "bpy")
        for struct in probe.get("structs", []):
            owner = f"bpy.types.{struct['id']}"
            base = f"bpy.types.{struct['base']}" if struct.get("base") else None
            # a struct's `type` names its base class: members of bpy.types.ID apply to bpy.types.Object too
            self.add(owner, "struct", "py:class", "bpy.types", type=base, description=struct["description"])
            for rec in struct["properties"]:
                self.add_property(owner, rec, enums)
            for rec in struct["functions"]:
                self.add_function(owner, rec, enums)
            for rec in struct["members"]:
                self.add_member(owner, rec, True)
        for rec in probe.get("classes", []):
            self.add_member("bpy.types", rec, False)
        self.add("bpy.ops", "module", "py:module", "bpy")
        for op in probe.get("operators", []):
            module = f"bpy.ops.{op['module']}"
            self.add(module, "module", "py:module", "bpy.ops")
            props = op["properties"]
            self.add(
                f"{module}.{op['id']}",
                "operator",
                "py:function",
                module,
                signature=params_signature(props),
                description=(op["description"] or op["name"]) + params_text(props, enums),
            )
        self.add("bpy.context", "module", "py:module", "bpy")
        for name in probe.get("context", []):
            rna = self.by_name.get(f"bpy.types.Context.{name}")
            fields = rna.model_dump(include={"signature", "type", "description", "enum_items", "readonly"}) if rna else {}
            self.add(
                f"bpy.context.{name}",
                "function" if rna and rna.kind == "function" else "data",
                "py:function" if rna and rna.kind == "function" else "py:data",
                "bpy.context",
                **fields,
            )
        for mod in probe.get("modules", []):
            parent = mod["id"].rsplit(".", 1)[0] if "." in mod["id"] else None
            self.add(mod["id"], "module", "py:module", parent, description=parse_doc(mod.get("doc", ""), "")[1])
            for rec in mod["members"]:
                self.add_member(mod["id"], rec, False)

    def covered(self, name: str) -> bool:
        """True inside a namespace the probe lists completely (bpy.types, bpy.ops, mathutils, bmesh, …)."""
        parts = name.split(".")
        return any(".".join(parts[:n]) in self.namespaces for n in range(1, len(parts)))

    def add_inventory(self, entries: Iterable[InventoryEntry], *, new_names: bool = True) -> int:
        """URLs and roles from the inventory; names only it knows are added (sources=['inventory']).

        With new_names=False (an inventory of another Blender version), names in namespaces the probe
        covers are not added: there, a name the probe did not find does not exist in this Blender.
        """
        added = 0
        for entry in entries:
            if not entry.role.startswith("py:"):
                continue  # std:doc pages and std:label sections are not API names
            sym = self.by_name.get(entry.name)
            if sym is not None:
                if "inventory" not in sym.sources:
                    sym.uri, sym.role = entry.uri, entry.role
                    sym.sources.append("inventory")
            elif new_names or not self.covered(entry.name):
                parent = entry.name.rsplit(".", 1)[0] if "." in entry.name else None
                kind = ROLE_KIND.get(entry.role, "other")
                if entry.name.startswith("bpy.ops.") and kind == "function":
                    kind = "operator"
                elif entry.name.startswith("bpy.types.") and kind in ("class", "data"):
                    kind = "struct" if kind == "class" else "property"  # read-only RNA properties are documented as py:data
                self.by_name[entry.name] = Symbol(
                    name=entry.name,
                    kind=kind,
                    role=entry.role,
                    uri=entry.uri,
                    parent=parent,
                    blender_version=self.version,
                    sources=["inventory"],
                )
                added += 1
        return added

    def symbols(self) -> list[Symbol]:
        """All symbols, sorted by name."""
        return [self.by_name[name] for name in sorted(self.by_name)]


def recipe_lines(sources: Iterable[str]) -> Iterator[tuple[str, dict[str, str]]]:
    """(code line, names its recipe imported from mathutils/bmesh) for every short code line of the recipes."""
    for source in sources:
        try:
            tree = pyast.parse(source)
        except SyntaxError:
            continue
        prose = {
            n
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            for n in range(node.lineno, (node.end_lineno or node.lineno) + 1)
        }
        aliases = {
            a.asname or a.name: f"{node.module}.{a.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("mathutils", "bmesh")
            for a in node.names
        }
        for number, line in enumerate(source.splitlines(), 1):
            line = line.strip()
            if line and number not in prose and not line.startswith(("#", "import ", "from ")) and len(line) <= EXAMPLE_CHARS:
                yield line, aliases


def owner_hint(receiver: str, candidates: list[str]) -> list[str]:
    """Candidates whose owning struct the receiver's name points at: cam_data.lens → Camera.lens, not SpaceView3D.lens."""
    words = [w for w in receiver.lower().split("_") if len(w) > 2 and w not in GENERIC_WORDS]
    owners = [c.rsplit(".", 2)[-2].lower() for c in candidates]
    return [c for c, owner in zip(candidates, owners) if any(owner.startswith(w) or owner.endswith(w) for w in words)]


def used_names(line: str, aliases: dict[str, str], by_leaf: dict[str, list[str]], known: dict[str, Symbol]) -> set[str]:
    """Symbols a recipe line uses: operator calls, module names, bpy.data/bpy.context members, attributes that resolve to one owner."""
    names = {f"bpy.ops.{m[1]}.{m[2]}" for m in re.finditer(r"bpy\.ops\.(\w+)\.(\w+)\(", line)}
    for m in re.finditer(r"\b((?:bmesh|mathutils)(?:\.\w+)+)", line):
        parts = m[1].split(".")
        names.update(".".join(parts[:n]) for n in range(len(parts), 1, -1) if ".".join(parts[:n]) in known)
    names.update(full for alias, full in aliases.items() if re.search(rf"(?<![\w.]){re.escape(alias)}\b", line))
    for m in re.finditer(r"bpy\.(data|context)\.(\w+)(?:\.(\w+)\()?", line):
        owner = f"bpy.types.{'BlendData' if m[1] == 'data' else 'Context'}.{m[2]}"
        names.add(owner if m[1] == "data" else f"bpy.context.{m[2]}")
        if m[3] and (srna := COLLECTION_API.search(getattr(known.get(owner), "type", None) or "")):
            names.add(f"bpy.types.{srna[1]}.{m[3]}")
    rest = re.sub(r"\b(?:bpy\.(?:ops|data|context)|bmesh|mathutils)(?:\.\w+)+", " ", line)  # resolved above
    for m in re.finditer(r"(\w+)\.(\w+)\b(?:\.(\w+)\()?", rest):
        candidates = by_leaf.get(m[2], [])
        found = candidates if len(candidates) == 1 else owner_hint(m[1], candidates)
        if not found and f"bpy.types.Object.{m[2]}" in candidates:
            found = [f"bpy.types.Object.{m[2]}"]  # an unhinted receiver (pedestal.modifiers) is most often an object
        if len(found) == 1:
            names.add(found[0])
            # obj.modifiers.new( → ObjectModifiers.new, through the collection's API struct
            if m[3] and (srna := COLLECTION_API.search(known[found[0]].type or "")):
                names.add(f"bpy.types.{srna[1]}.{m[3]}")
    return {name for name in names if name in known}


def attach_examples(table: SymbolTable, sources: Iterable[str], per_symbol: int = 2) -> int:
    """Add up to per_symbol recipe lines to the symbols they use; return how many symbols got one."""
    known = table.by_name
    by_leaf: dict[str, list[str]] = {}
    for sym in known.values():
        if sym.kind in ("property", "function") and sym.parent and sym.parent != "bpy.context":
            by_leaf.setdefault(sym.name.rsplit(".", 1)[1], []).append(sym.name)
    touched = set()
    for line, aliases in recipe_lines(sources):
        for name in used_names(line, aliases, by_leaf, known):
            sym = known[name]
            if len(sym.examples) < per_symbol and line not in sym.examples:
                sym.examples.append(line)
                touched.add(name)
    return len(touched)
