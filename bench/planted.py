"""Planted API mistakes: mutators that put one realistic bpy error into a working script (lint recall).

Each mutator is a small named function `source -> list[Mutant]`, one mutant per place where the
mistake applies (none when it does not). Edits go through libcst, so everything but the planted
token is preserved byte for byte; `Mutant.line` is the 1-based line of the mistake in the mutant.
The mistakes are the ones LLMs and pre-2.8 / pre-4.0 tutorials write, and each one fails in Blender 4.5.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

REMOVED_27X = "removed_2_7x_api"
MISSPELLED = "misspelled_attribute"
WRONG_KEYWORD = "wrong_keyword"
WRONG_ENUM = "wrong_enum"
RENAMED_SOCKET = "renamed_node_socket"
CATEGORIES = (REMOVED_27X, MISSPELLED, WRONG_KEYWORD, WRONG_ENUM, RENAMED_SOCKET)


@dataclass(frozen=True)
class Mutant:
    """One script with one planted mistake; `mutator` names the function that planted it."""

    category: str
    description: str
    source: str
    line: int
    mutator: str = ""


Mutator = Callable[[str], list[Mutant]]


@dataclass(frozen=True)
class _Edit:
    """Replace `target` (a node of the parsed script) with `replacement`."""

    target: cst.CSTNode
    replacement: cst.CSTNode
    description: str


@dataclass(frozen=True)
class _Parsed:
    source: str
    module: cst.Module
    positions: dict[cst.CSTNode, CodeRange]
    nodes: tuple[cst.CSTNode, ...]
    line_starts: tuple[int, ...]

    def splice(self, edit: _Edit) -> str:
        """The source with `edit.target`'s text replaced (byte-identical elsewhere, no re-generation)."""
        span = self.positions[edit.target]
        start = self.line_starts[span.start.line - 1] + span.start.column
        end = self.line_starts[span.end.line - 1] + span.end.column
        replacement = edit.replacement
        if getattr(edit.target, "lpar", None) and getattr(replacement, "lpar", None):
            replacement = replacement.with_changes(lpar=(), rpar=())  # positions exclude an expression's parentheses
        return self.source[:start] + self.module.code_for_node(replacement) + self.source[end:]


class _AllNodes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.nodes: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.nodes.append(node)
        return True


@functools.lru_cache(maxsize=8)  # every mutator of one script reuses the same parse
def _parse(source: str) -> _Parsed | None:
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError:
        return None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = dict(wrapper.resolve(PositionProvider))
    collector = _AllNodes()
    module.visit(collector)
    line_starts = (0, *(i + 1 for i, char in enumerate(source) if char == "\n"))
    return _Parsed(source, module, positions, tuple(collector.nodes), line_starts)


def _replace_each(source: str, category: str, pick: Callable[[cst.CSTNode], _Edit | None]) -> list[Mutant]:
    """One mutant per node for which `pick` proposes an edit."""
    parsed = _parse(source)
    if parsed is None:
        return []
    mutants = []
    for node in parsed.nodes:
        edit = pick(node)
        if edit is None:
            continue
        code = parsed.splice(edit)
        if code != source:
            mutants.append(Mutant(category, edit.description, code, parsed.positions[edit.target].start.line))
    return mutants


def _dotted(node: cst.CSTNode) -> str | None:
    """`bpy.context.object` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def _context_prefix(dotted: str | None, suffix: str) -> str | None:
    """The `bpy.context` / `context` before `.suffix`, or None when `dotted` is something else."""
    for prefix in ("bpy.context", "context"):
        if dotted == f"{prefix}.{suffix}":
            return prefix
    return None


def _string(node: cst.CSTNode) -> str | None:
    return node.evaluated_value if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str) else None


def _restring(node: cst.SimpleString, value: str) -> cst.SimpleString:
    """A string literal with the same prefix and quotes as `node`."""
    return cst.SimpleString(f"{node.prefix}{node.quote}{value}{node.quote}")


def _keyword_edit(node: cst.CSTNode, functions: tuple[str, ...], old: str, new: str, why: str) -> _Edit | None:
    """Rename keyword `old` of a call to one of `functions` (matched on the last dotted part)."""
    if not isinstance(node, cst.Call):
        return None
    name = _dotted(node.func)
    if name is None or (functions and name.rsplit(".", 1)[-1] not in functions):
        return None
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == old:
            return _Edit(arg.keyword, cst.Name(new), f"{name.rsplit('.', 1)[-1]}({new}=…) instead of {old}=: {why}")
    return None


def _enum_keyword_edit(node: cst.CSTNode, functions: tuple[str, ...], keyword: str, table: dict[str, str]) -> _Edit | None:
    """Replace the enum literal passed as `keyword=` to one of `functions` by its wrong twin in `table`."""
    if not isinstance(node, cst.Call):
        return None
    name = _dotted(node.func)
    if name is None or name.rsplit(".", 1)[-1] not in functions:
        return None
    for arg in node.args:
        value = _string(arg.value)
        if arg.keyword is not None and arg.keyword.value == keyword and value in table:
            assert isinstance(arg.value, cst.SimpleString)
            wrong = table[value]
            return _Edit(arg.value, _restring(arg.value, wrong), f"{name.rsplit('.', 1)[-1]}({keyword}='{wrong}') instead of '{value}'")
    return None


def _enum_assign_edit(node: cst.CSTNode, attributes: tuple[str, ...], table: dict[str, str]) -> _Edit | None:
    """Replace the enum literal in `x.attr = 'VALUE'` by its wrong twin in `table`."""
    if not (isinstance(node, cst.Assign) and len(node.targets) == 1):
        return None
    target = node.targets[0].target
    value = _string(node.value)
    if isinstance(target, cst.Attribute) and target.attr.value in attributes and value in table:
        assert isinstance(node.value, cst.SimpleString)
        wrong = table[value]
        return _Edit(node.value, _restring(node.value, wrong), f".{target.attr.value} = '{wrong}' instead of '{value}'")
    return None


def _rename_attribute(source: str, old: str, new: str, why: str, *, category: str = MISSPELLED) -> list[Mutant]:
    """`x.old` → `x.new` wherever the script uses attribute `old`."""
    if f".{old}" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if isinstance(node, cst.Attribute) and node.attr.value == old:
            return _Edit(node.attr, cst.Name(new), f".{new} instead of .{old}: {why}")
        return None

    return _replace_each(source, category, pick)


def _replace_dotted(source: str, category: str, rewrite: Callable[[str], str | None], why: str) -> list[Mutant]:
    """Replace each Name/Attribute chain for which `rewrite` returns a new dotted name."""

    def pick(node: cst.CSTNode) -> _Edit | None:
        if not isinstance(node, cst.Attribute):
            return None
        dotted = _dotted(node)
        new = rewrite(dotted) if dotted is not None else None
        if new is None:
            return None
        return _Edit(node, cst.parse_expression(new), f"{new} instead of {dotted}: {why}")

    return _replace_each(source, category, pick)


# --- removed_2_7x_api: what worked before Blender 2.80 ---------------------------------------------


def scene_objects_link(source: str) -> list[Mutant]:
    """`bpy.context.collection.objects.link(o)` → 2.7x `bpy.context.scene.objects.link(o)`."""
    if "collection.objects.link" not in source:
        return []

    def rewrite(dotted: str) -> str | None:
        prefix = _context_prefix(dotted, "collection.objects.link")
        if prefix is not None:
            return f"{prefix}.scene.objects.link"
        if dotted.endswith("scene.collection.objects.link"):
            return dotted.removesuffix("collection.objects.link") + "objects.link"
        return None

    return _replace_dotted(source, REMOVED_27X, rewrite, "2.7x linked objects to the scene, 2.8+ to a collection")


def select_attribute(source: str) -> list[Mutant]:
    """`o.select_set(True)` → 2.7x `o.select = True`."""
    if "select_set(" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if not (isinstance(node, cst.Expr) and isinstance(node.value, cst.Call)):
            return None
        call = node.value
        if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "select_set" and len(call.args) == 1):
            return None
        if call.args[0].keyword is not None:
            return None
        target = cst.AssignTarget(cst.Attribute(call.func.value, cst.Name("select")))
        return _Edit(node, cst.Assign([target], call.args[0].value), ".select = … instead of .select_set(…): removed in 2.80")

    return _replace_each(source, REMOVED_27X, pick)


def scene_objects_active(source: str) -> list[Mutant]:
    """`bpy.context.view_layer.objects.active` → 2.7x `bpy.context.scene.objects.active`."""
    if "view_layer.objects.active" not in source:
        return []

    def rewrite(dotted: str) -> str | None:
        prefix = _context_prefix(dotted, "view_layer.objects.active")
        return None if prefix is None else f"{prefix}.scene.objects.active"

    return _replace_dotted(source, REMOVED_27X, rewrite, "the active object moved to the view layer in 2.80")


def scene_objects_active_read(source: str) -> list[Mutant]:
    """`bpy.context.object` / `active_object` read as 2.7x `bpy.context.scene.objects.active`."""
    if "context.object" not in source and "context.active_object" not in source:
        return []

    def rewrite(dotted: str) -> str | None:
        prefix = _context_prefix(dotted, "object") or _context_prefix(dotted, "active_object")
        return None if prefix is None else f"{prefix}.scene.objects.active"

    return _replace_dotted(source, REMOVED_27X, rewrite, "2.7x kept the active object on scene.objects")


def scene_update(source: str) -> list[Mutant]:
    """`bpy.context.view_layer.update()` → 2.7x `bpy.context.scene.update()`."""
    if "view_layer.update" not in source:
        return []

    def rewrite(dotted: str) -> str | None:
        prefix = _context_prefix(dotted, "view_layer.update")
        return None if prefix is None else f"{prefix}.scene.update"

    return _replace_dotted(source, REMOVED_27X, rewrite, "Scene.update() was removed in 2.80")


def lamp_names(source: str) -> list[Mutant]:
    """`bpy.data.lights` → `bpy.data.lamps`, `bpy.ops.object.light_add` → `lamp_add` (2.7x names)."""
    renames = {"bpy.data.lights": "bpy.data.lamps", "bpy.ops.object.light_add": "bpy.ops.object.lamp_add"}
    if not any(name in source for name in renames):
        return []
    return _replace_dotted(source, REMOVED_27X, renames.get, "lamps were renamed lights in 2.80")


def cursor_location(source: str) -> list[Mutant]:
    """`scene.cursor.location` → 2.7x `scene.cursor_location`."""
    if "cursor.location" not in source:
        return []

    def rewrite(dotted: str) -> str | None:
        if dotted.endswith("scene.cursor.location"):
            return dotted.removesuffix(".cursor.location") + ".cursor_location"
        return None

    return _replace_dotted(source, REMOVED_27X, rewrite, "the 3D cursor became scene.cursor in 2.80")


def matrix_star(source: str) -> list[Mutant]:
    """`matrix @ vector` → 2.7x `matrix * vector` (element-wise since 2.80)."""
    if "@" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.MatrixMultiply):
            op = node.operator
            star = cst.Multiply(whitespace_before=op.whitespace_before, whitespace_after=op.whitespace_after)
            return _Edit(node, node.with_changes(operator=star), "`*` instead of `@`: matrix multiplication is `@` since 2.80")
        return None

    return _replace_each(source, REMOVED_27X, pick)


def diffuse_color_rgb(source: str) -> list[Mutant]:
    """`mat.diffuse_color = (r, g, b, a)` → 2.7x three-component `(r, g, b)`."""
    if "diffuse_color" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if not (isinstance(node, cst.Assign) and len(node.targets) == 1):
            return None
        target, value = node.targets[0].target, node.value
        if not (isinstance(target, cst.Attribute) and target.attr.value == "diffuse_color"):
            return None
        if not (isinstance(value, cst.Tuple | cst.List) and len(value.elements) == 4):
            return None
        rgb = [*value.elements[:2], value.elements[2].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
        return _Edit(value, value.with_changes(elements=rgb), "RGB diffuse_color: it has four components (RGBA) since 2.80")

    return _replace_each(source, REMOVED_27X, pick)


# --- misspelled_attribute: typos and near-misses of attributes the script uses ----------------------


def misspelled_location(source: str) -> list[Mutant]:
    """`.location` → `.locaton`."""
    return _rename_attribute(source, "location", "locaton", "typo")


def misspelled_rotation_euler(source: str) -> list[Mutant]:
    """`.rotation_euler` → `.rotation_eular`."""
    return _rename_attribute(source, "rotation_euler", "rotation_eular", "typo")


def singular_materials(source: str) -> list[Mutant]:
    """`.materials` (mesh, bpy.data) → `.material`."""
    return _rename_attribute(source, "materials", "material", "the collection is plural")


def british_colour(source: str) -> list[Mutant]:
    """`.diffuse_color`, `.base_color`, … → `…_colour`."""
    if "color" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if isinstance(node, cst.Attribute) and node.attr.value.endswith("color"):
            new = node.attr.value.removesuffix("color") + "colour"
            return _Edit(node.attr, cst.Name(new), f".{new} instead of .{node.attr.value}: Blender spells it 'color'")
        return None

    return _replace_each(source, MISSPELLED, pick)


def singular_modifiers(source: str) -> list[Mutant]:
    """`.modifiers` → `.modifier`."""
    return _rename_attribute(source, "modifiers", "modifier", "the collection is plural")


def polygons_as_faces(source: str) -> list[Mutant]:
    """`mesh.polygons` → `mesh.faces` (the BMesh / pre-2.63 name)."""
    return _rename_attribute(source, "polygons", "faces", "Mesh faces are `polygons`; `faces` is BMesh")


def socket_value(source: str) -> list[Mutant]:
    """`socket.default_value` → `socket.value`."""
    return _rename_attribute(source, "default_value", "value", "node sockets hold `default_value`")


# --- wrong_keyword: keyword arguments the operator or function does not take ------------------------


def cube_size_as_radius(source: str) -> list[Mutant]:
    """`primitive_cube_add(size=…)` / `primitive_plane_add(size=…)` → `radius=` (2.7x)."""
    if "size=" not in source:
        return []
    functions = ("primitive_cube_add", "primitive_plane_add")
    why = "`radius` was replaced by `size` in 2.80"
    return _replace_each(source, WRONG_KEYWORD, lambda node: _keyword_edit(node, functions, "size", "radius", why))


def sphere_radius_as_size(source: str) -> list[Mutant]:
    """`primitive_uv_sphere_add(radius=…)` → `size=` (2.7x)."""
    if "radius=" not in source:
        return []
    functions = ("primitive_uv_sphere_add", "primitive_ico_sphere_add")
    why = "spheres take `radius` since 2.80"
    return _replace_each(source, WRONG_KEYWORD, lambda node: _keyword_edit(node, functions, "radius", "size", why))


def depth_as_height(source: str) -> list[Mutant]:
    """`primitive_cylinder_add(depth=…)` / `primitive_cone_add(depth=…)` → `height=`."""
    if "depth=" not in source:
        return []
    functions = ("primitive_cylinder_add", "primitive_cone_add")
    why = "the length along Z is `depth`"
    return _replace_each(source, WRONG_KEYWORD, lambda node: _keyword_edit(node, functions, "depth", "height", why))


def cone_radius1_as_radius(source: str) -> list[Mutant]:
    """`primitive_cone_add(radius1=…)` → `radius=`."""
    if "radius1=" not in source:
        return []
    why = "cones take `radius1` (base) and `radius2` (tip)"
    return _replace_each(source, WRONG_KEYWORD, lambda node: _keyword_edit(node, ("primitive_cone_add",), "radius1", "radius", why))


def location_as_loc(source: str) -> list[Mutant]:
    """`bpy.ops.*(location=…)` → `loc=`."""
    if "location=" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if isinstance(node, cst.Call) and (_dotted(node.func) or "").startswith("bpy.ops."):
            return _keyword_edit(node, (), "location", "loc", "operators take `location`")
        return None

    return _replace_each(source, WRONG_KEYWORD, pick)


def material_name_as_title(source: str) -> list[Mutant]:
    """`bpy.data.materials.new(name=…)` → `title=`."""
    if "materials.new(" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if isinstance(node, cst.Call) and (_dotted(node.func) or "").endswith("materials.new"):
            return _keyword_edit(node, ("new",), "name", "title", "BlendDataMaterials.new takes `name`")
        return None

    return _replace_each(source, WRONG_KEYWORD, pick)


# --- wrong_enum: enum literals Blender 4.5 does not have -------------------------------------------

MODIFIER_TYPES = {
    "SUBSURF": "SUBSURFACE",
    "BEVEL": "BEVELED",
    "BOOLEAN": "BOOL",
    "DISPLACE": "DISPLACEMENT",
    "SOLIDIFY": "SOLIDIFIER",
    "WIREFRAME": "WIRE",
    "SIMPLE_DEFORM": "BEND",
    "MIRROR": "SYMMETRY",
    "DECIMATE": "DECIMATION",
    "ARRAY": "ARRAY_MODIFIER",
}
LIGHT_TYPES = {"POINT": "OMNI", "SUN": "DIRECTIONAL", "AREA": "RECTANGLE", "SPOT": "SPOTLIGHT"}


def select_all_none(source: str) -> list[Mutant]:
    """`select_all(action='DESELECT')` → `action='NONE'`."""
    if "DESELECT" not in source:
        return []
    return _replace_each(source, WRONG_ENUM, lambda node: _enum_keyword_edit(node, ("select_all",), "action", {"DESELECT": "NONE"}))


def modifier_type_misnamed(source: str) -> list[Mutant]:
    """`modifier_add(type='SUBSURF')` / `modifiers.new(…, type='BEVEL')` → `'SUBSURFACE'`, `'BEVELED'`, …"""
    if "modifier" not in source:
        return []
    functions = ("modifier_add", "new")

    def pick(node: cst.CSTNode) -> _Edit | None:
        if isinstance(node, cst.Call) and (_dotted(node.func) or "").endswith(("modifier_add", "modifiers.new")):
            return _enum_keyword_edit(node, functions, "type", MODIFIER_TYPES)
        return None

    return _replace_each(source, WRONG_ENUM, pick)


def boolean_operation_misnamed(source: str) -> list[Mutant]:
    """Boolean modifier `operation = 'DIFFERENCE'` → `'SUBTRACT'` (`'INTERSECT'` → `'INTERSECTION'`)."""
    if "operation" not in source:
        return []
    table = {"DIFFERENCE": "SUBTRACT", "INTERSECT": "INTERSECTION"}
    return _replace_each(source, WRONG_ENUM, lambda node: _enum_assign_edit(node, ("operation",), table))


def legacy_eevee_engine(source: str) -> list[Mutant]:
    """`render.engine = '…'` → `'BLENDER_EEVEE'` (4.2–4.5 call it `BLENDER_EEVEE_NEXT`)."""
    if "engine" not in source:
        return []
    table = {"CYCLES": "BLENDER_EEVEE", "BLENDER_WORKBENCH": "BLENDER_EEVEE", "BLENDER_EEVEE_NEXT": "BLENDER_EEVEE"}
    return _replace_each(source, WRONG_ENUM, lambda node: _enum_assign_edit(node, ("engine",), table))


def light_type_misnamed(source: str) -> list[Mutant]:
    """Light type `'POINT'` → `'OMNI'`, `'SUN'` → `'DIRECTIONAL'`, … (light_add, lights.new, `.type =`)."""
    if not any(f"'{t}'" in source or f'"{t}"' in source for t in LIGHT_TYPES):
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if isinstance(node, cst.Call) and (_dotted(node.func) or "").endswith(("light_add", "lights.new")):
            return _enum_keyword_edit(node, ("light_add", "new"), "type", LIGHT_TYPES)
        return _enum_assign_edit(node, ("type",), LIGHT_TYPES)

    return _replace_each(source, WRONG_ENUM, pick)


def align_global(source: str) -> list[Mutant]:
    """`primitive_*_add(align='WORLD')` → `align='GLOBAL'`."""
    if "align=" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        name = _dotted(node.func) if isinstance(node, cst.Call) else None
        if name is not None and name.startswith("bpy.ops."):
            return _enum_keyword_edit(node, (name.rsplit(".", 1)[-1],), "align", {"WORLD": "GLOBAL"})
        return None

    return _replace_each(source, WRONG_ENUM, pick)


def edit_mode_as_context_mode(source: str) -> list[Mutant]:
    """`mode_set(mode='EDIT')` → `'EDIT_MESH'` (the `context.mode` spelling)."""
    if "mode_set" not in source:
        return []
    return _replace_each(source, WRONG_ENUM, lambda node: _enum_keyword_edit(node, ("mode_set",), "mode", {"EDIT": "EDIT_MESH"}))


def texture_type_misnamed(source: str) -> list[Mutant]:
    """`bpy.data.textures.new(…, type='CLOUDS')` → `'CLOUD'`."""
    if "textures.new" not in source:
        return []
    table = {"CLOUDS": "CLOUD", "MARBLE": "MARBLED", "VORONOI": "VORONOY", "DISTORTED_NOISE": "DISTORTION"}

    def pick(node: cst.CSTNode) -> _Edit | None:
        if isinstance(node, cst.Call) and (_dotted(node.func) or "").endswith("textures.new"):
            return _enum_keyword_edit(node, ("new",), "type", table)
        return None

    return _replace_each(source, WRONG_ENUM, pick)


def text_align_middle(source: str) -> list[Mutant]:
    """Text `align_x = 'CENTER'` / `align_y = 'CENTER'` → `'MIDDLE'`."""
    if "align_" not in source:
        return []
    return _replace_each(source, WRONG_ENUM, lambda node: _enum_assign_edit(node, ("align_x", "align_y"), {"CENTER": "MIDDLE"}))


# --- renamed_node_socket: node socket names that changed (Principled BSDF v2 in 4.0) or never existed -

PRE_40_INPUTS = {
    "Subsurface Weight": "Subsurface",
    "Specular IOR Level": "Specular",
    "Coat Weight": "Clearcoat",
    "Coat Roughness": "Clearcoat Roughness",
    "Transmission Weight": "Transmission",
    "Emission Color": "Emission",
    "Sheen Weight": "Sheen",
}
PRE_40_NAMES = {old: new for new, old in PRE_40_INPUTS.items()}
# Old names planted into scripts that only set diffuse_color, with a value of the right kind.
INSERTED_INPUTS = (
    ("Specular", "0.5"),
    ("Subsurface", "0.1"),
    ("Clearcoat", "0.3"),
    ("Transmission", "0.5"),
    ("Emission", "(1.0, 0.6, 0.2, 1.0)"),
    ("Sheen", "0.2"),
)


def _socket_rename(source: str, sockets: str, table: dict[str, str], why: str) -> list[Mutant]:
    """`node.<sockets>['Name']` → `node.<sockets>['Old name']` for the names in `table`."""
    if f"{sockets}[" not in source:
        return []

    def pick(node: cst.CSTNode) -> _Edit | None:
        if not (isinstance(node, cst.Subscript) and isinstance(node.value, cst.Attribute) and node.value.attr.value == sockets):
            return None
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return None
        key = node.slice[0].slice.value
        name = _string(key)
        if name not in table:
            return None
        assert isinstance(key, cst.SimpleString)
        return _Edit(key, _restring(key, table[name]), f"{sockets}['{table[name]}'] instead of '{name}': {why}")

    return _replace_each(source, RENAMED_SOCKET, pick)


def pre40_principled_input(source: str) -> list[Mutant]:
    """Principled BSDF `inputs['Specular IOR Level']` → `'Specular'` and the other pre-4.0 names."""
    return _socket_rename(source, "inputs", PRE_40_INPUTS, "renamed in Blender 4.0")


def base_color_misspelled(source: str) -> list[Mutant]:
    """`inputs['Base Color']` → `'BaseColor'`."""
    return _socket_rename(source, "inputs", {"Base Color": "BaseColor"}, "the socket is 'Base Color'")


def bsdf_output_as_shader(source: str) -> list[Mutant]:
    """`outputs['BSDF']` → `'Shader'`."""
    return _socket_rename(source, "outputs", {"BSDF": "Shader"}, "BSDF nodes output 'BSDF'")


def inserted_pre40_principled_input(source: str) -> list[Mutant]:
    """After `mat.diffuse_color = …`, insert node setup that sets a pre-4.0 Principled input (`'Specular'`, …)."""
    parsed = _parse(source) if "diffuse_color" in source else None
    if parsed is None:
        return []
    lines = source.split("\n")
    mutants = []
    for node in parsed.nodes:
        if not (isinstance(node, cst.SimpleStatementLine) and len(node.body) == 1 and isinstance(node.body[0], cst.Assign)):
            continue
        assign = node.body[0]
        target = assign.targets[0].target
        if not (isinstance(target, cst.Attribute) and target.attr.value == "diffuse_color" and isinstance(target.value, cst.Name)):
            continue
        material = target.value.value
        position = parsed.positions[node]
        indent = lines[position.start.line - 1][: position.start.column]
        socket, value = INSERTED_INPUTS[len(mutants) % len(INSERTED_INPUTS)]
        inserted = [
            f"{indent}{material}.use_nodes = True",
            f'{indent}{material}.node_tree.nodes["Principled BSDF"].inputs["{socket}"].default_value = {value}',
        ]
        end = position.end.line
        description = f"inserted inputs['{socket}'] on a Principled BSDF: renamed '{PRE_40_NAMES[socket]}' in Blender 4.0"
        mutants.append(Mutant(RENAMED_SOCKET, description, "\n".join([*lines[:end], *inserted, *lines[end:]]), end + 2))
    return mutants


MUTATORS: dict[str, tuple[Mutator, ...]] = {
    REMOVED_27X: (
        scene_objects_link,
        select_attribute,
        scene_objects_active,
        scene_objects_active_read,
        scene_update,
        lamp_names,
        cursor_location,
        matrix_star,
        diffuse_color_rgb,
    ),
    MISSPELLED: (
        misspelled_location,
        misspelled_rotation_euler,
        singular_materials,
        british_colour,
        singular_modifiers,
        polygons_as_faces,
        socket_value,
    ),
    WRONG_KEYWORD: (
        cube_size_as_radius,
        sphere_radius_as_size,
        depth_as_height,
        cone_radius1_as_radius,
        location_as_loc,
        material_name_as_title,
    ),
    WRONG_ENUM: (
        select_all_none,
        modifier_type_misnamed,
        boolean_operation_misnamed,
        legacy_eevee_engine,
        light_type_misnamed,
        align_global,
        edit_mode_as_context_mode,
        texture_type_misnamed,
        text_align_middle,
    ),
    RENAMED_SOCKET: (pre40_principled_input, base_color_misspelled, bsdf_output_as_shader, inserted_pre40_principled_input),
}


def plant(mutator: Mutator, source: str) -> list[Mutant]:
    """Run one mutator and stamp its name on the mutants."""
    return [dataclasses.replace(m, mutator=mutator.__name__) for m in mutator(source)]


def plant_all(source: str) -> list[Mutant]:
    """Every mutant of every mutator for one script."""
    return [m for mutators in MUTATORS.values() for mutator in mutators for m in plant(mutator, source)]
