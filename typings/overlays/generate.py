"""Generate typings/overlays/<X.Y>/bpy-stubs/types/__init__.generated.pyi by measuring the running Blender.

Run with the venv's python (the bpy wheel is Blender): `.venv/bin/python typings/overlays/generate.py`, then
`bpywright typings build --force`. Every table below comes from creating the thing in Blender and reading
type(x).__name__ (or from RNA), never from a hand-written list.
"""

from __future__ import annotations

import ast
import copy
import importlib.metadata
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import bpy

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bpywright.harness.overlay import member_spans, parse_stub  # noqa: E402

VERSION = "{}.{}".format(*bpy.app.version[:2])
OUT = Path(__file__).resolve().parent / VERSION / "bpy-stubs" / "types" / "__init__.generated.pyi"
MATHUTILS_OUT = Path(__file__).resolve().parent / VERSION / "mathutils-stubs" / "__init__.generated.pyi"


class Stub:
    """The pristine bpy.types stub of fake-bpy-module-<VERSION>: classes, bases, member declarations."""

    def __init__(self) -> None:
        dist = importlib.metadata.distribution(f"fake-bpy-module-{VERSION}")
        self.dist = f"{dist.metadata['Name']} {dist.version}"
        self.lines = Path(str(dist.locate_file("bpy-stubs/types/__init__.pyi"))).read_text(encoding="utf-8").splitlines()
        tree = parse_stub("\n".join(self.lines))
        self.classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

    def bases(self, name: str) -> list[str]:
        """Direct base class names (generic arguments dropped)."""
        return [ast.unparse(b).split("[")[0] for b in self.classes[name].bases]

    def ancestors(self, name: str) -> set[str]:
        """All base classes of a class, transitively."""
        found: set[str] = set()
        todo = self.bases(name)
        while todo:
            base = todo.pop()
            if base in self.classes and base not in found:
                found.add(base)
                todo.extend(self.bases(base))
        return found

    def members(self, name: str) -> dict[str, str]:
        """Member name -> declaration source (without docstrings) of a class's own body."""
        decls: dict[str, str] = {}
        for node in self.classes[name].body:
            if isinstance(node, ast.FunctionDef | ast.AnnAssign):
                key = node.name if isinstance(node, ast.FunctionDef) else ast.unparse(node.target)
                if isinstance(node, ast.FunctionDef):
                    node = ast.FunctionDef(node.name, node.args, [], node.decorator_list, node.returns, None, lineno=0)
                decls[key] = decls.get(key, "") + ast.unparse(node)
        return decls

    def member_text(self, cls: str, member: str) -> str:
        """Source lines (with decorators and docstring) declaring a member of a class."""
        spans = [(s, e) for n, s, e in member_spans(self.classes[cls].body) if n == member]
        return "".join("\n".join(self.lines[s:e]) + "\n" for s, e in spans)

    def method(self, cls: str, name: str) -> ast.FunctionDef:
        """The (single) def of a method."""
        return next(n for n in self.classes[cls].body if isinstance(n, ast.FunctionDef) and n.name == name)


def measure(kinds: Iterable[str], make: Callable[[str], object]) -> dict[str, str]:
    """type id -> class name of what make(type id) creates; ids Blender refuses are left out."""
    table: dict[str, str] = {}
    for kind in kinds:
        try:
            made = make(kind)
        except (RuntimeError, TypeError):
            continue
        if made is not None:
            table[kind] = type(made).__name__
    return table


def enum_ids(struct: type, prop: str = "type") -> list[str]:
    """Identifiers of an RNA enum property."""
    return [item.identifier for item in struct.bl_rna.properties[prop].enum_items]


def hosts() -> list[bpy.types.Object]:
    """One object of each kind that modifiers and constraints attach to."""
    datas = [
        bpy.data.meshes.new("gen"),
        # Grease Pencil v3 is bpy.data.grease_pencils_v3 in 4.3–4.5 and bpy.data.grease_pencils from 5.0
        getattr(bpy.data, "grease_pencils_v3", bpy.data.grease_pencils).new("gen"),
        bpy.data.volumes.new("gen"),
        bpy.data.curves.new("gen", "CURVE"),
        bpy.data.lattices.new("gen"),
    ]
    objects = [bpy.data.objects.new("gen", data) for data in datas]
    for obj in objects:
        bpy.context.scene.collection.objects.link(obj)
    return objects


def first_accepting(targets: Sequence[Any], add: Callable[[Any], object]) -> object:
    """What add() returns on the first target (object, node tree) that accepts it."""
    for target in targets:
        try:
            made = add(target)
        except (RuntimeError, TypeError):
            continue
        if made is not None:
            return made
    return None


def node_tables() -> tuple[dict[str, str], dict[str, str], Callable[[str], object]]:
    """(node tree type -> class, node type -> class, a maker of a node of a type) for every node tree kind and node Blender can create."""
    trees = measure(subclasses(bpy.types.NodeTree), lambda t: bpy.data.node_groups.new("gen", t))
    groups = [bpy.data.node_groups.new("gen", t) for t in trees]
    # render layer and cryptomatte nodes live only in a scene's compositor: scene.node_tree until 4.5, a node group
    # the scene points at (scene.compositing_node_group) from 5.0
    scene = bpy.context.scene
    if hasattr(scene, "compositing_node_group"):
        scene.compositing_node_group = next(g for g in groups if g.bl_idname == "CompositorNodeTree")
    else:
        scene.use_nodes = True
        groups.append(scene.node_tree)

    def add(node: str) -> object:  # the tree kind the name suggests first, to keep Blender's refusals quiet
        likely = sorted(groups, key=lambda g: not node.startswith(g.bl_idname.removesuffix("NodeTree")))
        return first_accepting(likely, lambda g: g.nodes.new(node))

    return trees, measure(subclasses(bpy.types.Node), add), add


def accepted(owner: object, attr: str) -> list[str]:
    """Values an enum property of owner accepts now, read from the error of assigning an unknown one."""
    try:
        setattr(owner, attr, "__none__")
    except TypeError as exc:
        return re.findall(r"'([^']+)'", str(exc).split(" not found in ", 1)[1])
    raise SystemExit(f"assigning an unknown {attr} did not fail: cannot list its values")


def looks() -> list[str]:
    """Every look of every view transform (the looks on offer depend on the view transform)."""
    view = bpy.context.scene.view_settings
    found: list[str] = []
    for transform in accepted(view, "view_transform"):
        view.view_transform = transform
        found += [look for look in accepted(view, "look") if look not in found]
    return found


def literal(values: Iterable[str]) -> str:
    """typing.Literal["a", "b"] source."""
    return "typing.Literal[" + ", ".join(f'"{v}"' for v in values) + "]"


def subclasses(base: type) -> list[str]:
    """Names of the bpy.types classes deriving from base."""
    return [
        n
        for n in dir(bpy.types)
        if isinstance(getattr(bpy.types, n), type) and issubclass(getattr(bpy.types, n), base) and getattr(bpy.types, n) is not base
    ]


def overloads(stub: Stub, cls: str, method: str, param: str, table: dict[str, str], fallback: str | None = None) -> str:
    """One typing.overload per class the factory returns, on Literal type ids, then the stub's own def (returning fallback)."""
    fn = stub.method(cls, method)
    by_class: dict[str, list[str]] = {}
    for kind, name in sorted(table.items()):
        if name in stub.classes:
            by_class.setdefault(name, []).append(kind)
    out = []
    for name, kinds in sorted(by_class.items()):
        args = copy.deepcopy(fn.args)
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            if arg.arg == param:
                arg.annotation = ast.parse(literal(kinds), mode="eval").body
        args.kw_defaults = [None if a.arg == param else d for a, d in zip(args.kwonlyargs, args.kw_defaults)]  # must be given
        sig = ast.unparse(args).replace("'", '"')
        out.append(f"    @typing.overload\n    def {method}({sig}) -> {name}: ...\n")
    last = stub.member_text(cls, method)
    if fallback is not None:
        last = re.sub(r"\) -> [^:]+:", f") -> {fallback}:", last, count=1)
    return "".join(out) + "    @typing.overload\n" + last


def any_of(stub: Stub, name: str, classes: Iterable[str], root: str, doc: str) -> str:
    """A class inheriting every concrete class, for values whose subtype only Blender knows; clashing members -> Any."""
    keep = sorted({c for c in classes if c in stub.classes})
    keep = [c for c in keep if not any(c in stub.ancestors(o) for o in keep)]
    below_root = stub.ancestors(root) | {root}
    decls: dict[str, set[str]] = {}
    for cls in keep:
        for owner in [cls, *(stub.ancestors(cls) - below_root)]:
            for member, decl in stub.members(owner).items():
                decls.setdefault(member, set()).add(decl)
    clashes = sorted(m for m, d in decls.items() if len(d) > 1)
    # a clash the root declares keeps the root's type (node.inputs: NodeInputs, not one node's socket table)
    root_members = stub.members(root) if root in stub.classes else {}
    body = "".join(stub.member_text(root, m) if m in root_members else f"    {m}: typing.Any\n" for m in clashes)
    return f'class {name}({", ".join(keep)}):\n    """{doc}"""\n\n{body}\n'


def dynamic_socket_tables(stub: Stub) -> str:
    """Drop the per-node socket tables of nodes whose sockets are user items (zones, bundles, file slots)."""
    data_dependent = {
        "_CompositorNodeImage_NodeOutputs",
        "_CompositorNodeOutputFile_NodeInputs",
        "_GeometryNodeSimulationInput_NodeOutputs",
    }
    out = []
    for name, node in stub.classes.items():
        if re.fullmatch(r"_\w+_Node(In|Out)puts", name) and ("NodeSocketVirtual" in ast.unparse(node) or name in data_dependent):
            out.append(f"class {name}:\n    # overlay: remove __getitem__\n    ...\n\n")
    return "# Nodes with user-defined sockets: index them like any NodeInputs/NodeOutputs.\n" + "".join(out)


def embedded_structs(stub: Stub, roots: list[bpy.types.bpy_struct]) -> str:
    """Read-only struct pointers typed Optional (scene.view_settings, scene.eevee, ...) that no instance met holds None in."""
    seen_none: set[tuple[str, str]] = set()
    seen_set: set[tuple[str, str]] = set()
    visited: set[int] = set()

    def declaring(cls: type, name: str) -> str | None:
        return next((k.__name__ for k in cls.__mro__ if k.__name__ in stub.classes and name in stub.members(k.__name__)), None)

    def visit(struct: bpy.types.bpy_struct, depth: int) -> None:
        if struct.as_pointer() in visited or depth > 6:
            return
        visited.add(struct.as_pointer())
        for prop in struct.bl_rna.properties:
            fixed = getattr(bpy.types, prop.fixed_type.identifier, None) if prop.type == "POINTER" else None
            if fixed is None or issubclass(fixed, bpy.types.ID) or not prop.is_readonly or prop.is_never_none:
                continue
            if prop.identifier == "rna_type":  # RNA's own description of the struct, whose members read None
                continue
            owner = declaring(type(struct), prop.identifier)
            value = getattr(struct, prop.identifier, None)
            if owner is not None:
                (seen_none if value is None else seen_set).add((owner, prop.identifier))
            if isinstance(value, bpy.types.bpy_struct):
                visit(value, depth + 1)

    for root in roots:
        visit(root, 0)
    by_class: dict[str, str] = {}
    for cls, name in sorted(seen_set - seen_none):
        if "None" in stub.members(cls)[name]:
            lines = stub.member_text(cls, name).splitlines()
            fixed = [line if line.lstrip().startswith(('"', "@")) else re.sub(r" \| None(:(?: \.\.\.)?)?$", r"\1", line) for line in lines]
            by_class[cls] = by_class.get(cls, "") + "\n".join(fixed) + "\n"
    head = "# Embedded structs: set on every instance measured, though RNA does not flag them never-None.\n"
    return head + "".join(f"class {cls}:\n{body}\n" for cls, body in by_class.items())


def measurement_roots(objects: list[bpy.types.Object]) -> list[bpy.types.bpy_struct]:
    """Default and freshly created data to measure embedded structs on."""
    fresh = [bpy.data.scenes.new("gen"), bpy.data.images.new("gen", 4, 4), bpy.data.materials.new("gen"), bpy.data.cameras.new("gen")]
    ids = [
        i
        for coll in ("objects", "meshes", "materials", "worlds", "lights", "cameras", "curves", "textures", "node_groups")
        for i in getattr(bpy.data, coll)
    ]
    return [*fresh, bpy.context.scene, bpy.context.view_layer, *objects, *ids]


def attribute_groups(stub: Stub, attributes: dict[str, str]) -> str:
    """`attributes.new(type=...)` returns the attribute class of that data type; `attributes[...]` any of them (`.data`)."""
    out = []
    for group in sorted(c for c in stub.classes if re.fullmatch(r"AttributeGroup\w+", c) and "new" in stub.members(c)):
        out.append(f"class {group}(bpy_prop_collection[_AnyAttribute], bpy_struct):\n")
        out.append(overloads(stub, group, "new", "type", attributes, fallback="_AnyAttribute") + "\n")
    return "".join(out)


def socket_identifier_keys(stub: Stub, nodes: dict[str, str], add: Callable[[str], object]) -> str:
    """Socket tables that also take a socket's identifier where it differs from its name (measured: Blender's
    `inputs[key]` matches identifiers too, so `proximity.inputs["Target"]` is the socket named "Geometry")."""
    out = []
    for kind, cls in nodes.items():
        node = add(kind)
        for side in ("inputs", "outputs"):
            table = f"_{cls}_Node{side.title()}"
            if table not in stub.classes or "NodeSocketVirtual" in ast.unparse(stub.classes[table]):
                continue
            sockets = getattr(node, side)
            extra = {
                i: socket.identifier
                for i, socket in enumerate(sockets)
                if socket.identifier != socket.name and socket.identifier not in sockets.keys() and sockets.get(socket.identifier) == socket
            }
            if not extra:
                continue
            lines = []
            for item in stub.classes[table].body:
                if not (isinstance(item, ast.FunctionDef) and item.name == "__getitem__"):
                    continue
                key = ast.unparse(item.args.args[1].annotation or ast.Constant(None))
                index = re.match(r"typing\.Literal\[(\d+)\]", key)
                if index and int(index.group(1)) in extra:
                    key += f" | typing.Literal['{extra[int(index.group(1))]}']"
                lines.append(f"    @typing.overload\n    def __getitem__(self, key: {key}) -> {ast.unparse(item.returns or ast.Constant(None))}: ...\n")
            out.append(f"class {table}:\n{''.join(lines)}\n")
    return "# Socket tables keyed by identifier as well as by name (both work in Blender).\n" + "".join(out)


def fill_modes() -> list[str]:
    """Every fill mode a curve takes: 2D curves take NONE/BACK/FRONT/BOTH, 3D ones FULL/BACK/FRONT/HALF."""
    curve = bpy.data.curves.new("gen", "CURVE")
    found: list[str] = []
    for dimensions in ("3D", "2D"):
        curve.dimensions = dimensions
        found += [mode for mode in accepted(curve, "fill_mode") if mode not in found]
    return found


def generate() -> str:
    """The generated overlay's text."""
    stub = Stub()
    objects = hosts()
    modifiers = measure(enum_ids(bpy.types.Modifier), lambda t: first_accepting(objects, lambda o: o.modifiers.new("gen", t)))
    constraints = measure(enum_ids(bpy.types.Constraint), lambda t: first_accepting(objects, lambda o: o.constraints.new(t)))
    lights = measure(enum_ids(bpy.types.Light), lambda t: bpy.data.lights.new("gen", t))
    fcurve = objects[0].driver_add("location", 0)
    fmodifiers = measure(enum_ids(bpy.types.FModifier), lambda t: fcurve.modifiers.new(t))
    textures = measure(enum_ids(bpy.types.Texture), lambda t: bpy.data.textures.new("gen", t))
    curves = measure(["CURVE", "SURFACE", "FONT"], lambda t: bpy.data.curves.new("gen", t))
    trees, nodes, add_node = node_tables()
    interface = bpy.data.node_groups.new("gen", "GeometryNodeTree").interface
    sockets = measure(subclasses(bpy.types.NodeSocket), lambda t: interface.new_socket("gen", socket_type=t))
    mesh = bpy.data.meshes.new("gen")
    attributes = measure(enum_ids(bpy.types.Attribute, "data_type"), lambda t: mesh.attributes.new(f"gen_{t}", t, "POINT"))
    light_common = set.intersection(*(set(getattr(bpy.types, c).bl_rna.properties.keys()) for c in set(lights.values())))
    light_common -= set(bpy.types.Light.bl_rna.properties.keys())
    model = sorted(set(lights.values()))[0]
    data_union = stub.classes["Object"].body
    data_decl = next(n for n in data_union if isinstance(n, ast.AnnAssign) and ast.unparse(n.target) == "data")
    data_types = [t.strip() for t in ast.unparse(data_decl.annotation).split("|") if t.strip() != "None"]
    any_data = "The data-block of an object of any type (Blender knows which: check obj.type)."
    any_mod = "A modifier of any type (Blender knows which: check mod.type)."
    any_con = "A constraint of any type (Blender knows which: check con.type)."
    any_item = "A socket or panel of a node group's interface (Blender knows which: check item.item_type)."
    any_attribute = "A geometry attribute of any data type (Blender knows which: check attr.data_type)."
    any_node = "A node of any type Blender creates (Blender knows which: check node.bl_idname)."
    return "".join(
        [
            f"# Generated by typings/overlays/generate.py from Blender {bpy.app.version_string} and {stub.dist}.\n",
            "# Do not edit: re-run `.venv/bin/python typings/overlays/generate.py`. Format: typings/README.md.\n",
            "import typing\n\n",
            any_of(stub, "_AnyObjectData", [*data_types, *lights.values(), *curves.values()], "ID", any_data),
            any_of(stub, "_AnyModifier", modifiers.values(), "Modifier", any_mod),
            any_of(stub, "_AnyConstraint", constraints.values(), "Constraint", any_con),
            any_of(stub, "_AnyLight", lights.values(), "Light", "A light of any type (Blender knows which: check light.type)."),
            any_of(
                stub,
                "_AnySpace",
                subclasses(bpy.types.Space),
                "Space",
                "An editor's space of any type (Blender knows which: check space.type).",
            ),
            any_of(stub, "_AnyInterfaceItem", subclasses(bpy.types.NodeTreeInterfaceItem), "NodeTreeInterfaceItem", any_item),
            any_of(stub, "_AnyAttribute", attributes.values(), "Attribute", any_attribute),
            "class Object:\n    @property\n",
            f"    def data(self) -> _AnyObjectData | None: ...\n    @data.setter\n    def data(self, value: {' | '.join(data_types)} | None) -> None: ...\n\n",
            "class ObjectModifiers(bpy_prop_collection[_AnyModifier], bpy_struct):\n",
            overloads(stub, "ObjectModifiers", "new", "type", modifiers) + "\n",
            "class ObjectConstraints(bpy_prop_collection[_AnyConstraint], bpy_struct):\n",
            overloads(stub, "ObjectConstraints", "new", "type", constraints) + "\n",
            "class PoseBoneConstraints(bpy_prop_collection[_AnyConstraint], bpy_struct):\n",
            overloads(stub, "PoseBoneConstraints", "new", "type", constraints) + "\n",
            "class BlendDataLights(bpy_prop_collection[_AnyLight], bpy_struct):\n",
            overloads(stub, "BlendDataLights", "new", "type", lights) + "\n",
            "class AreaSpaces(bpy_prop_collection[_AnySpace], bpy_struct):\n    @property\n    def active(self) -> _AnySpace | None: ...\n\n",
            "class NodeTreeInterface:\n    @property\n    def items_tree(self) -> bpy_prop_collection[_AnyInterfaceItem]: ...\n",
            overloads(stub, "NodeTreeInterface", "new_socket", "socket_type", sockets, fallback="_AnyInterfaceItem") + "\n",
            attribute_groups(stub, attributes),
            "class FCurveModifiers:\n" + overloads(stub, "FCurveModifiers", "new", "type", fmodifiers) + "\n",
            "class BlendDataTextures:\n" + overloads(stub, "BlendDataTextures", "new", "type", textures) + "\n",
            "class BlendDataCurves:\n" + overloads(stub, "BlendDataCurves", "new", "type", curves) + "\n",
            "class BlendDataNodeTrees:\n" + overloads(stub, "BlendDataNodeTrees", "new", "type", trees) + "\n",
            any_of(stub, "_AnyNode", nodes.values(), "Node", any_node),
            "# A node type held in a str variable, a node looked up by name: any node class Blender creates.\n",
            "class Nodes(bpy_prop_collection[_AnyNode], bpy_struct):\n",
            overloads(stub, "Nodes", "new", "type", nodes, fallback="_AnyNode") + "\n",
            "class Light:\n    # Every light type has these; RNA declares them on the subclasses only.\n",
            "".join(stub.member_text(model, m) for m in sorted(light_common)) + "\n",
            dynamic_socket_tables(stub),
            socket_identifier_keys(stub, nodes, add_node),
            embedded_structs(stub, measurement_roots(objects)),
            "# Enums whose items RNA only lists at run time (the stubs hold one placeholder item).\n",
            f"class RenderSettings:\n    engine: {literal(accepted(bpy.context.scene.render, 'engine'))}\n\n",
            f"class ColorManagedViewSettings:\n    view_transform: {literal(accepted(bpy.context.scene.view_settings, 'view_transform'))}\n",
            f"    look: {literal(looks())}\n\n",
            f"class ColorManagedDisplaySettings:\n    display_device: {literal(accepted(bpy.context.scene.display_settings, 'display_device'))}\n\n",
            f"class Curve:\n    fill_mode: {literal(fill_modes())}\n",
        ]
    )


# ---------------------------------------------------------------- mathutils: what bpy accepts, what operators return

MATHUTILS_CLASSES = ("Vector", "Matrix", "Quaternion", "Euler", "Color")
SEQUENCE = "collections.abc.Sequence[typing.SupportsFloat]"  # numbers of any kind (numpy scalars too), never str
OPERATORS = {"__add__": "+", "__sub__": "-", "__mul__": "*", "__truediv__": "/", "__matmul__": "@"}
REFLECTED = {"__radd__": "+", "__rsub__": "-", "__rmul__": "*", "__rmatmul__": "@"}


def mathutils_properties() -> dict[str, tuple[bpy.types.bpy_struct, str]]:
    """One RNA property of each mathutils type, found on real data (class name -> (owner, property))."""
    obj = bpy.data.objects.new("gen", bpy.data.meshes.new("gen"))
    owners = [obj, bpy.data.worlds.new("gen"), bpy.data.materials.new("gen"), bpy.context.scene.cursor]
    found: dict[str, tuple[bpy.types.bpy_struct, str]] = {}
    for owner in owners:
        for prop in owner.bl_rna.properties:
            if prop.is_readonly or prop.type not in ("FLOAT", "INT"):
                continue
            kind = type(getattr(owner, prop.identifier)).__name__
            if kind in MATHUTILS_CLASSES:
                found.setdefault(kind, (owner, prop.identifier))
    return found


def accepts(owner: object, attr: str, value: object) -> bool:
    """True when Blender takes the value for the property."""
    try:
        setattr(owner, attr, value)
    except (TypeError, ValueError):
        return False
    return True


def numpy_setters() -> dict[str, str]:
    """`__set__` of each mathutils class: measured to take numpy arrays and sequences of numpy scalars, never str or a number."""
    import numpy as np

    out: dict[str, str] = {}
    for cls, (owner, attr) in sorted(mathutils_properties().items()):
        current = np.array(getattr(owner, attr), dtype=np.float64)
        rows = [[np.float32(x) for x in row] for row in current] if current.ndim == 2 else [np.float32(x) for x in current]
        taken = [accepts(owner, attr, value) for value in (current, current.astype(np.float32), current.astype(np.int64), rows)]
        refused = [not accepts(owner, attr, value) for value in ("abc", 5, 5.0, None)]
        if not (all(taken) and all(refused)):
            print(f"{cls} ({attr}): numpy {taken}, str/number/None refused {refused}: stub kept", file=sys.stderr)
            continue
        seq = f"collections.abc.Sequence[{SEQUENCE}]" if current.ndim == 2 else SEQUENCE
        out[cls] = (
            f"    # Measured on {type(owner).__name__}.{attr}: numpy arrays (float64, float32, int64) and sequences of numpy\n"
            "    # scalars are taken; a str, a number or None raise.\n"
            f"    def __set__(self, instance: typing.Any, value: {seq} | npt.NDArray[typing.Any] | typing_extensions.Self) -> None: ...\n"
        )
    return out


def operator_results() -> dict[str, str]:
    """Binary operators of the mathutils classes: one overload per operand type Blender takes, returning what it returned."""
    import mathutils
    import numpy as np

    # every size a script meets: a 3x3 matrix times a 3D vector, a 4x4 one times a 4D or 3D one, ...
    samples: dict[str, list[object]] = {
        "Vector": [mathutils.Vector((1.0, 2.0)), mathutils.Vector((1.0, 2.0, 3.0)), mathutils.Vector((1.0, 2.0, 3.0, 1.0))],
        "Matrix": [mathutils.Matrix.Identity(2), mathutils.Matrix.Identity(3), mathutils.Matrix.Identity(4)],
        "Quaternion": [mathutils.Quaternion((1.0, 0.0, 0.0, 0.0))],
        "Euler": [mathutils.Euler((0.1, 0.2, 0.3))],
        "Color": [mathutils.Color((0.1, 0.2, 0.3))],
    }
    operands: dict[str, list[object]] = {
        **samples,
        SEQUENCE: [(1.0, 2.0), (1.0, 2.0, 3.0), (1.0, 2.0, 3.0, 1.0)],
        "typing.SupportsFloat": [np.float32(2.0), 2],
    }
    import operator as op

    funcs = {"+": op.add, "-": op.sub, "*": op.mul, "/": op.truediv, "@": op.matmul}

    def result(a: object, b: object, symbol: str) -> str | None:
        try:
            value = funcs[symbol](a, b)
        except (TypeError, ValueError, ZeroDivisionError, AttributeError):
            return None
        name = type(value).__name__
        return name if name in MATHUTILS_CLASSES else "float" if isinstance(value, float) else None

    def first_result(lefts: list[object], rights: list[object], symbol: str) -> str | None:
        """What the operator returns for the first pair of sizes Blender takes (the class does not depend on the size)."""
        return next((r for a in lefts for b in rights if (r := result(a, b, symbol)) is not None), None)

    def annotate(name: str, cls: str) -> str:
        return "typing_extensions.Self" if name == cls else name

    out: dict[str, str] = {}
    for cls, sample in samples.items():
        body: list[str] = []
        for method, symbol in {**OPERATORS, **REFLECTED}.items():
            reflected = method in REFLECTED
            found = []
            for operand, other in operands.items():
                if reflected and operand in samples:  # the left operand's own method answers
                    continue
                got = first_result(other, sample, symbol) if reflected else first_result(sample, other, symbol)
                if got is not None:
                    found.append((operand, got))
            if not found:  # Blender refuses every operand: the stub's declaration (if any) is left alone
                continue
            many = len(found) > 1
            for operand, got in found:
                body.append(
                    ("    @typing.overload\n" if many else "") + f"    def {method}(self, other: {operand}) -> {annotate(got, cls)}: ...\n"
                )
        if body:
            out[cls] = "    # Measured: what each operator returns for each operand type Blender takes (none listed: refused).\n" + "".join(
                body
            )
    return out


def generate_mathutils() -> str:
    """The generated mathutils overlay's text."""
    parts = (numpy_setters(), operator_results())
    return "".join(
        [
            f"# Generated by typings/overlays/generate.py from Blender {bpy.app.version_string}.\n",
            "# Do not edit: re-run `.venv/bin/python typings/overlays/generate.py`. Format: typings/README.md.\n",
            "import collections.abc\nimport typing\nimport typing_extensions\nimport numpy.typing as npt\n\n",
            *(
                f"class {cls}:\n{''.join(part.get(cls, '') for part in parts)}\n"
                for cls in MATHUTILS_CLASSES
                if any(cls in part for part in parts)
            ),
        ]
    )


if __name__ == "__main__":
    for path, text in ((OUT, generate()), (MATHUTILS_OUT, generate_mathutils())):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(path)
