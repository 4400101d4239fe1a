"""Object data taken for its object, two ways small models write it (both seen in the generation benchmark):

- `mesh = bpy.data.meshes.new("Body")` then `mesh.data.materials.append(mat)` raises AttributeError "'Mesh' object has no
  attribute 'data'" (a mesh, curve, camera or light datablock *is* the data; `.data` is the object's link to it). With that
  error from a run, every `NAME.data` where NAME holds what `bpy.data.<meshes|curves|cameras|lights|…>.new()` returned (and
  was not bound to anything else since, in the same function) reads `NAME`; on the failing line itself a single
  `NAME.data` is read as `NAME` whatever NAME came from.
- `scene.collection.objects.link(mesh)` (or the prompt's `link(mesh)` helper) raises TypeError "CollectionObjects.link():
  … expected a Object type, not Mesh". With that error, every such link of a NAME holding made object data links
  `bpy.data.objects.new(NAME.name, NAME)` instead: an object made from the data (what `link` returns is then the object).
- `scene.world.light_settings.append(sun)` (any `.append/.add/.link` that raised "… has no attribute 'append'") of such a
  NAME, on the failing line: the data is linked into the scene's collection as an object made from it."""

from __future__ import annotations

import libcst as cst

from ...base import DriftRule, RuleTransformer
from ...fragments import dotted

# bpy.data collections whose items are an object's data (what Object.data points to)
_DATA_COLLECTIONS = frozenset(
    {"meshes", "curves", "cameras", "lights", "lattices", "metaballs", "armatures", "volumes", "pointclouds", "hair_curves"}
)
DATA_TYPES = r"Mesh|(?:Text|Surface)?Curve|Curves|Camera|(?:Point|Sun|Spot|Area)?Light|Lattice|MetaBall|Armature|PointCloud|Volume"


def _made_data(value: cst.BaseExpression) -> bool:
    """True for `bpy.data.meshes.new(...)` and its kin (also `D.meshes.new`, `data.curves.new`)."""
    chain = dotted(value.func) if isinstance(value, cst.Call) else None
    parts = chain.split(".") if chain else []
    return len(parts) >= 3 and parts[-1] == "new" and parts[-2] in _DATA_COLLECTIONS


class _Tracked(RuleTransformer):
    """Knows, per function, which names hold object data made by `bpy.data.<collection>.new()` at this point."""

    def visit_Module(self, node: cst.Module) -> None:
        self.scopes: list[dict[str, bool]] = [{}]  # per function: name -> holds object data made by bpy.data.X.new()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.scopes.append({})

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        self.scopes.pop()
        return updated

    def leave_Assign(self, original: cst.Assign, updated: cst.Assign) -> cst.Assign:
        # bound after its value is read (as Python does): in `bun = link(bun)` the argument is still the mesh made above
        made = _made_data(original.value)
        for target in original.targets:
            if isinstance(target.target, cst.Name):
                self.scopes[-1][target.target.value] = made
        return updated

    def _is_data(self, name: str) -> bool:
        local = self.scopes[-1]
        if name in local:
            return local[name]
        return len(self.scopes) > 1 and self.scopes[0].get(name, False)  # a module-level name the function reads


class _DataOfData(_Tracked):
    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.on_line: list[int] = []  # the failing statement's `NAME.data` count, per statement being visited

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        uses: list[str] = []

        class _Uses(cst.CSTVisitor):
            def visit_Attribute(self, attr: cst.Attribute) -> None:
                if attr.attr.value == "data" and isinstance(attr.value, cst.Name):
                    uses.append(attr.value.value)

        node.visit(_Uses())
        self.on_line.append(len(uses) if self.on_failing_line(node) else 0)

    def leave_SimpleStatementLine(self, original: cst.SimpleStatementLine, updated: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        self.on_line.pop()
        return updated

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
        if updated.attr.value != "data" or not isinstance(updated.value, cst.Name):
            return updated
        name = updated.value.value
        if self._is_data(name):
            sure = self.report(original, f"{name} is object data (made by bpy.data.….new()), with no .data", f"{name}", certain=True)
        else:
            alone = bool(self.on_line) and self.on_line[-1] == 1
            sure = alone and self.report(original, f"{name} is object data, with no .data", f"{name}", certain=False)
        return updated.value if sure else updated


def _object_from(name: str) -> str:
    """An object made from the data NAME holds, named after it."""
    return f"bpy.data.objects.new({name}.name, {name})"


class _LinkData(_Tracked):
    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        chain = dotted(updated.func)
        if chain is None or not (chain == "link" or chain.endswith(".objects.link")) or len(updated.args) != 1:
            return updated
        arg = updated.args[0]
        if arg.keyword is not None or not isinstance(arg.value, cst.Name) or not self._is_data(arg.value.value):
            return updated
        name = arg.value.value
        made = _object_from(name)
        if not self.report(original, f"{name} is object data, not an object", f"link {made}", certain=True):
            return updated
        return updated.with_changes(args=[arg.with_changes(value=cst.parse_expression(made))])


# `scene.world.light_settings.append(sun)` with `sun = bpy.data.lights.new(…)` (a small model's smartwatch, its last round):
# a made light (camera, mesh …) handed to whatever the model guessed holds the scene's lights. Data enters a scene as an
# object linked into a collection; on the failing line, that call becomes the link of an object made from the data.
_ADDERS = frozenset({"append", "add", "link"})


class _AddData(_Tracked):
    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        func = updated.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _ADDERS or len(updated.args) != 1:
            return updated
        arg = updated.args[0]
        if arg.keyword is not None or not isinstance(arg.value, cst.Name) or not self._is_data(arg.value.value):
            return updated
        if (dotted(func) or "").endswith(".objects.link"):
            return updated  # link-object-data's: the right collection, the wrong kind of thing
        name = arg.value.value
        made = f"bpy.context.scene.collection.objects.link({_object_from(name)})"
        if not self.report(
            original, f"{name} is object data: it enters the scene as an object linked into a collection", made, certain=False
        ):
            return updated
        return cst.parse_expression(made)


# bpy.types.X.new(…): the class asked to make a datablock; bpy.data's collection makes it (a small model's candy jar wrote
# bpy.types.BlendDataCameras.new(name=…), then, healed by itself, bpy.types.Camera.new(…), three rounds in a row).
_ID_COLLECTIONS = {
    "Object": "objects",
    "Mesh": "meshes",
    "Material": "materials",
    "Camera": "cameras",
    "Light": "lights",
    "Curve": "curves",
    "TextCurve": "curves",
    "Image": "images",
    "Collection": "collections",
    "World": "worlds",
    "Text": "texts",
    "Texture": "textures",
    "Action": "actions",
    "NodeTree": "node_groups",
    "Lattice": "lattices",
    "MetaBall": "metaballs",
    "Armature": "armatures",
}
_BLEND_DATA = {"NodeTrees": "node_groups", "LightProbes": "lightprobes", "Metaballs": "metaballs"}


def _collection_for(type_name: str) -> str | None:
    """bpy.data's collection that makes what bpy.types.<type_name>.new was asked for (None: no such collection here)."""
    if type_name.startswith("BlendData") and len(type_name) > len("BlendData"):
        plural = type_name.removeprefix("BlendData")
        return _BLEND_DATA.get(plural) or "".join(f"_{c.lower()}" if c.isupper() else c for c in plural).lstrip("_")
    return _ID_COLLECTIONS.get(type_name)


class _TypesNew(RuleTransformer):
    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        parts = (dotted(original.func) or "").split(".")
        if len(parts) != 4 or parts[:2] != ["bpy", "types"] or parts[3] != "new" or not (collection := _collection_for(parts[2])):
            return updated
        fix = f"bpy.data.{collection}.new(…)"
        if not self.report(original, f"bpy.types.{parts[2]} is a class: bpy.data.{collection} makes the datablock", fix):
            return updated
        return updated.with_changes(func=cst.parse_expression(f"bpy.data.{collection}.new"))


RULES = (
    DriftRule(
        "types-new",
        "bpy.types.Camera.new(…) / bpy.types.BlendDataCameras.new(…) → bpy.data.cameras.new(…)",
        "2.50",
        "2.50",
        _TypesNew,
        (r"type object '\w+' has no attribute 'new'",),
        needles=("bpy.types.",),
        example=('cam = bpy.types.BlendDataCameras.new(name="Cam")', 'cam = bpy.data.cameras.new(name="Cam")'),
    ),
    DriftRule(
        "data-of-data",
        "mesh.data.X on a mesh (curve, camera, light …) datablock → mesh.X: the datablock is the object's data",
        "2.80",
        "2.80",
        _DataOfData,
        (rf"'(?:{DATA_TYPES})' object has no attribute 'data'",),
        runtime_only=True,
        example=("x = obj.data.missing", "x = obj.missing"),
    ),
    DriftRule(
        "add-data-to-scene",
        "world.light_settings.append(light) and kin with made object data → link an object made from it into the scene",
        "2.80",
        "2.80",
        _AddData,
        (r"'\w+' object has no attribute '(?:append|add|link)'",),
        runtime_only=True,
        example=("scene.world.light_settings.append(sun)", "scene.collection.objects.link(bpy.data.objects.new(sun.name, sun))"),
    ),
    DriftRule(
        "link-object-data",
        "objects.link(mesh) with a mesh (curve, camera, light …) datablock → link an object made from it",
        "2.80",
        "2.80",
        _LinkData,
        (rf"link\(\): error with argument 1, \"object\" - +Function\.object expected a Object type, not (?:{DATA_TYPES})\b",),
        runtime_only=True,
        example=("bpy.context.collection.objects.link(mesh)", "bpy.context.collection.objects.link(bpy.data.objects.new(mesh.name, mesh))"),
    ),
)
